import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore

/// `herald audit` for people: each change's line, then its changed fields beneath it.
public enum AuditText {
    public static func render(_ entries: [AuditEntry]) -> String {
        guard !entries.isEmpty else { return "no changes recorded" }
        var table = TextTable("AT", "ACTOR", "ACTION", "ENTITY", "ID")
        for entry in entries { table.append(formatTimestamp(entry.at), entry.actor, entry.action, entry.entity, entry.entityID) }
        let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false)
        var out = lines.first.map { [String($0)] } ?? []
        for (line, entry) in zip(lines.dropFirst(), entries) {
            out.append(String(line))
            for change in AuditJSON.changes(before: entry.before, after: entry.after) {
                out.append("    \(change.field): \(shown(change.from)) → \(shown(change.to))")
            }
        }
        return out.joined(separator: "\n")
    }

    /// A value as one short line of JSON ("-" for none).
    static func shown(_ value: ParsedJSON?) -> String {
        guard let value else { return "-" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count > 80 ? String(line.prefix(77)) + "..." : line
    }
}

/// One change of `herald audit --json`: `before` and `after` are the row as it was and became
/// (columns in camelCase), or null.
public struct AuditEntryJSON: Encodable {
    let at: Date
    let actor, action, entity, entityId: String
    let changes: [AuditJSON.FieldChange]
    let before, after: ParsedJSON?

    public init(_ entry: AuditEntry) {
        at = entry.at
        actor = entry.actor
        action = entry.action
        entity = entry.entity
        entityId = entry.entityID
        changes = AuditJSON.changes(before: entry.before, after: entry.after)
        before = entry.before.flatMap { ParsedJSON(text: $0)?.camelCased }
        after = entry.after.flatMap { ParsedJSON(text: $0)?.camelCased }
    }
}

/// One migration of `herald migrate --status`: applied, changed, unknown or pending.
public struct MigrationJSON: Encodable {
    let name: String
    let state: String
    let appliedAt: Date?

    public static func all(_ status: MigrationStatus) -> [MigrationJSON] {
        status.applied.map { applied in
            MigrationJSON(
                name: applied.name,
                state: status.changed.contains(applied.name) ? "changed" : status.unknown.contains(applied.name) ? "unknown" : "applied",
                appliedAt: applied.appliedAt)
        } + status.pending.map { MigrationJSON(name: $0.name, state: "pending", appliedAt: nil) }
    }

    public static func table(_ migrations: [MigrationJSON]) -> TextTable {
        var table = TextTable("MIGRATION", "STATE", "APPLIED AT")
        for migration in migrations { table.append(migration.name, migration.state, formatOptional(migration.appliedAt)) }
        return table
    }
}

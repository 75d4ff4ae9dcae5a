import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show who changed what in a tenant, field by field (written by the database itself).",
        discussion: """
            Each change names its actor: a tenant operator's login (the database records it; nothing the operator \
            sets changes it), or for Herald's own login HERALD_ACTOR, else the OS user. Updated fields show what they \
            were and what they became; a row Herald rewrote in one go (a locale's content) counts as one update.

            Examples:
              herald audit --tenant acme --since 2h
              herald audit --campaign spring-sale --app weather --since yesterday --json
              herald audit --actor acme_ops --since 2026-05-01 --limit 50
            """)

    @OptionGroup var tenant: TenantOption
    @Option(help: ArgumentHelp("Only changes at or after this time: 2h, 30m, 3d, 1w (ago), today, yesterday, or ISO 8601 / a UTC date.", valueName: "time"))
    var since: String?
    @Option(help: "Only the changes to campaigns with this key (their conditions and content included).") var campaign: String?
    @Option(help: "Only the changes in this app (with --campaign: that app's campaign).") var app: String?
    @Option(help: "Only the changes made by this actor.") var actor: String?
    @Option(help: "At most this many entries (the newest).") var limit = 200
    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            guard limit >= 1 else { throw InputError(message: "--limit must be at least 1", code: ExitStatus.usage) }
            let since = try since.map { try flagTime($0, flag: "--since") }
            let filter = AuditFilter(
                since: since, actor: actor, app: try app.map { try Slug($0) }, campaign: try campaign.map { try Slug($0) }, limit: limit)
            let entries = try AuditJob(Environment.openDatabase()).changes(tenant: tenant.named(), filter)
            if output.json {
                /// `before` and `after` are the row as it was and became (columns in camelCase), or null.
                struct Entry: Encodable {
                    let at: Date
                    let actor, action, entity, entityId: String
                    let changes: [AuditJSON.FieldChange]
                    let before, after: ParsedJSON?
                }
                try printJSON(entries.map {
                    Entry(at: $0.at, actor: $0.actor, action: $0.action, entity: $0.entity, entityId: $0.entityID,
                          changes: AuditJSON.changes(before: $0.before, after: $0.after),
                          before: $0.before.flatMap { ParsedJSON(text: $0)?.camelCased },
                          after: $0.after.flatMap { ParsedJSON(text: $0)?.camelCased })
                })
                return
            }
            guard !entries.isEmpty else {
                print("no changes recorded")
                return
            }
            var table = TextTable("AT", "ACTOR", "ACTION", "ENTITY", "ID")
            for entry in entries {
                table.append(formatTimestamp(entry.at), entry.actor, entry.action, entry.entity, entry.entityID)
            }
            // Each entry's line, then its changed fields beneath it.
            let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false)
            if let header = lines.first { print(header) }
            for (line, entry) in zip(lines.dropFirst(), entries) {
                print(line)
                for change in AuditJSON.changes(before: entry.before, after: entry.after) {
                    print("    \(change.field): \(Self.shown(change.from)) → \(Self.shown(change.to))")
                }
            }
        }
    }

    /// A value as one short line of JSON ("-" for none).
    static func shown(_ value: ParsedJSON?) -> String {
        guard let value else { return "-" }
        let text: String
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(value) {
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = "?"
        }
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count > 80 ? String(line.prefix(77)) + "..." : line
    }
}

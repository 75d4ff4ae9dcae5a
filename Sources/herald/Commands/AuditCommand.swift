import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show who changed what in a tenant (written by the database itself).",
        discussion: "Example: herald audit --tenant acme --since 2026-05-01")

    @OptionGroup var tenant: TenantOption
    @Option(help: ArgumentHelp("Only changes at or after this time (ISO 8601 or a UTC date).", valueName: "time"))
    var since: String?
    @Option(help: "At most this many entries (the newest).") var limit = 200
    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            let since = try since.map { try flagTime($0, flag: "--since") }
            let database = try Environment.openDatabase()
            let entries = try database.inTenant(try tenant.slug(), readOnly: true) {
                try $0.audit.entries(since: since, limit: limit)
            }
            if output.json {
                /// `before` and `after` are the row as it was and became (columns in camelCase), or null.
                struct Entry: Encodable {
                    let at: Date
                    let actor, action, entity, entityId: String
                    let before, after: ParsedJSON?
                }
                try printJSON(entries.map {
                    Entry(at: $0.at, actor: $0.actor, action: $0.action, entity: $0.entity, entityId: $0.entityID,
                          before: $0.before.flatMap { ParsedJSON(text: $0)?.camelCased },
                          after: $0.after.flatMap { ParsedJSON(text: $0)?.camelCased })
                })
                return
            }
            var table = TextTable("AT", "ACTOR", "ACTION", "ENTITY", "ID")
            for entry in entries {
                table.append(formatTimestamp(entry.at), entry.actor, entry.action, entry.entity, entry.entityID)
            }
            printTable(table, emptyMessage: "no changes recorded")
        }
    }
}

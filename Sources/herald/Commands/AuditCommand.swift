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
                try printJSON(entries.map(AuditEntryJSON.init))
            } else {
                print(AuditText.render(entries))
            }
        }
    }
}

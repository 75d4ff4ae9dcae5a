import ArgumentParser
import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldJobs

struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Write the review board: a static site of campaigns as devices draw them, who sees what, and charts.",
        discussion: """
            Writes DIR/board/index.html (tenants and apps, campaigns counted by state, top campaigns, what changed \
            since the previous board), a page per app (its campaigns with a filter by state, schedules of the last and \
            next week), a page per campaign (each locale as the device draws it, the device matrix that \
            `herald preview` decides, publish's warnings and the copy lint, delivery charts) and \
            DIR/board/history.html (publish runs and the files each changed). Static files only: open them from disk \
            or serve DIR from any private static host; nothing is loaded from outside DIR.

            Through the same writer as publish: an unchanged board writes nothing, so it can run from the same cron \
            line; it keeps what each page was made from (DIR/board/assets/inputs.txt) and renders only what changed. \
            Give it its own folder, not the published one (a whole-site publish removes what it did not write).

            Examples:
              herald board --out /srv/review            # then open /srv/review/board/index.html
              herald board --out review --tenant acme --days 14
            """)

    @Option(help: ArgumentHelp("Output folder; the board goes into DIR/board/.", valueName: "dir")) var out: String
    @Option(help: ArgumentHelp("Only this tenant.", discussion: "Defaults to $HERALD_TENANT.")) var tenant: String?
    @Option(help: ArgumentHelp("Only this app (with a tenant).", discussion: "Defaults to $HERALD_APP.")) var app: String?
    @Option(help: ArgumentHelp("Show the board as at this time (ISO 8601): states, schedules, the device matrix.", valueName: "time"))
    var at: String?
    @Option(help: "Days of delivery charts, up to the day of --at (UTC).") var days = 30
    @Option(name: .customLong("base-url"), help: ArgumentHelp("As for publish: the public URL of the published folder.", valueName: "url"))
    var baseURL: String?
    @Option(help: "How many of the newest publish runs to list.") var runs = 20
    @Flag(help: "Print nothing when nothing changed (for cron).") var quiet = false
    @OptionGroup var output: JSONFlag

    func validate() throws {
        guard (1...400).contains(days) else { throw ArgumentParser.ValidationError("--days must be between 1 and 400") }
        guard (0...1000).contains(runs) else { throw ArgumentParser.ValidationError("--runs must be between 0 and 1000") }
        guard !out.isEmpty else {
            throw ArgumentParser.ValidationError("--out needs a folder, not an empty value (is the variable it names set?)")
        }
    }

    func run() throws {
        try reportingFailures {
            let tenant = try ShellDefaults.tenant(self.tenant).map { try Slug($0) }
            let app = try ShellDefaults.app(self.app).map { try Slug($0) }
            if app != nil, tenant == nil {
                throw InputError(message: "--app needs --tenant (or HERALD_TENANT)", code: ExitStatus.usage)
            }
            let moment = try at.map { try flagTime($0, flag: "--at") }
            let outURL = URL(fileURLWithPath: out).standardizedFileURL
            // A whole site's board reads its tenants on two connections: the second one opens at once.
            let outcome = try BoardJob(Environment.openDatabase(spare: tenant == nil), phaseTimes: Environment.phaseTimes).write(
                to: outURL,
                BoardJob.Options(
                    tenant: tenant, app: app, at: moment ?? Date(), atIsExplicit: moment != nil, days: days,
                    siteBaseURL: try baseURL.map { try HTTPURL($0) }, runs: runs))
            let changed = !outcome.written.isEmpty || !outcome.removed.isEmpty
            if quiet, !changed { return }
            if output.json {
                try printJSON(
                    ["written": AnyEncodable(outcome.written), "unchanged": AnyEncodable(outcome.unchanged),
                     "removed": AnyEncodable(outcome.removed), "index": AnyEncodable(outURL.appendingPathComponent(Board.indexPath).path)])
                return
            }
            print(
                "board: \(outcome.written.count) written, \(outcome.unchanged) unchanged, \(outcome.removed.count) removed; "
                    + "open \(outURL.appendingPathComponent(Board.indexPath).path)")
        }
    }
}

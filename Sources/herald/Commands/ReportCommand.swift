import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Reports on delivery events: per campaign, per day, or one device's history.",
        discussion: """
            campaigns  per campaign over the window: delivered, impressions, clicks, dismissals, click-through rate, \
            and the campaign's unique devices of all time
            daily      per campaign, day (UTC), locale and event kind: events and unique devices
            device     one device's events in order (needs --device; raw events, so only months not pruned)

            The window defaults to the last 30 days (UTC), today included. The same numbers are in the `reporting` \
            views that tenants' analysts query (docs/reporting.md).

            Example: herald report daily --tenant acme --app weather --since 2026-11-01 --format csv
            """)

    typealias Kind = ReportJob.Kind

    typealias Format = ReportText.Format

    @Argument(help: "campaigns, daily or device.")
    var kind: Kind

    @Option(help: ArgumentHelp("Only this tenant.", discussion: "Defaults to $HERALD_TENANT."), completion: Completions.tenants)
    var tenant: String?
    @Option(help: ArgumentHelp("Only this app.", discussion: "Defaults to $HERALD_APP."), completion: Completions.apps)
    var app: String?
    @Option(help: "Only this campaign (key).") var campaign: String?
    @Option(help: "The device (for `device`).") var device: String?
    @Option(help: "First day: YYYY-MM-DD, today, yesterday, 7d (ago) ... (default: 29 days before --until).") var since: String?
    @Option(help: "Last day, included: YYYY-MM-DD, today, yesterday, 1d (ago) ... (default: today, UTC).") var until: String?
    @Option(help: "table, csv or json.") var format: Format = .table
    @Flag(help: "The same as --format json (JSON keys are the columns in camelCase).") var json = false

    func run() throws {
        try reportingFailures {
            if json, format == .csv { throw InputError(message: "--json and --format csv contradict each other; pick one", code: ExitStatus.usage) }
            let format = json ? .json : format
            let until = try self.until.map { try flagDay($0, flag: "--until").description } ?? Self.today()
            let since = try self.since.map { try flagDay($0, flag: "--since").description } ?? Self.day(until, minus: 29)
            guard since <= until else { throw InputError(message: "--since \(since) is after --until \(until)", code: ExitStatus.usage) }
            if kind == .device, device == nil {
                throw InputError(message: "`herald report device` needs --device ID", code: ExitStatus.usage)
            }
            let filter = ReportFilter(
                tenant: try namedTenant(ShellDefaults.tenant(tenant)), app: try ShellDefaults.app(app).map { try Slug($0) },
                campaign: try campaign.map { try Slug($0) }, device: device, since: since, until: until)
            let table = try ReportJob(Environment.openDatabase()).report(kind, filter)
            print(ReportText.render(table, format: format, window: "\(since) … \(until)"), terminator: "")
        }
    }

    static func today() -> String {
        String(Timestamp.format(Date()).prefix(10))
    }

    static func day(_ day: String, minus days: Int) -> String {
        UTCDay(day)?.adding(days: -days).description ?? day
    }
}

extension ReportJob.Kind: ExpressibleByArgument {}
extension ReportText.Format: ExpressibleByArgument {}

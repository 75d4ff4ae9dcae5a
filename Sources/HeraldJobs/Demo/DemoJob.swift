import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

/// Herald's whole job on a demo tenant (`herald demo`): its campaigns applied as a campaigns
/// file, a week of generated delivery events, a publish, what one device sees from the
/// published files, a campaign report and a review board. Safe to run again: it changes
/// nothing the second time.
public struct DemoJob {
    let database: HeraldDatabase
    /// Where the demo publishes, and where its board goes.
    public let out: URL
    public let board: URL
    public var phaseTimes: PhaseTimes?

    public init(_ database: HeraldDatabase, out: URL, board: URL, phaseTimes: PhaseTimes? = nil) {
        self.database = database
        self.out = out
        self.board = board
        self.phaseTimes = phaseTimes
    }

    /// Each step's outcome, told as it ends.
    public enum Step {
        case migrated([String])
        case applied([ApplyStep])
        case ingested(IngestCounts, [EventRejection])
        case published(PublishJob.Result)
        /// What a German-speaking iPhone sees: `device`, in `locale`, from the files just published.
        case previewed(PreviewResult, device: DeviceState, locale: LocaleTag)
        case reported(ReportTable, since: String, until: String)
        case boardWritten(SiteWriter.Outcome, index: URL)
    }

    public func run(at now: Date = Date(), _ told: (Step) throws -> Void) throws {
        let tenant = try Slug("demo")
        let appSlug = try Slug("weather")
        try database.requireOwner(to: "the demo (a tenant of its own)")
        try told(.migrated(try database.migrate()))

        // 1. The tenant, app and campaigns, applied like a campaigns file (taking the apply turn).
        let document: CampaignsDocument
        switch CampaignsDocument.parse(DemoCampaigns.yaml, fileName: "demo") {
        case .success(let parsed): document = parsed
        case .failure(let problems): throw problems
        }
        try told(.applied(try ApplyJob(database, wait: true).apply(document, source: "demo", now: now)))

        // 2. Delivery events, the same ids every run: a second run stores nothing new.
        let (counts, rejections) = try EventIngestor(database: database).ingest(DemoEvents.records(today: now))
        try told(.ingested(counts, rejections))

        // 3. The published site.
        let published = try PublishJob(database: database, out: out, wait: true, phaseTimes: phaseTimes)
            .publish(at: now, tenant: tenant, app: nil, siteBaseURL: nil, dryRun: false)
        try told(.published(published))

        // 4. What one device sees, read from the files just published: past the banner's
        // version limit, and the welcome alert already seen.
        let locale = try LocaleTag("de")
        var device = DeviceState(appVersion: "3.1.0", build: "3.1.0", osVersion: "17.4", wifi: true)
        device.seen = ["2026/11/01"]
        guard let app = try AppCatalog(database, tenant: tenant).spec(app: appSlug).apps.first else {
            throw StoreError.notFound(what: "app", name: "demo/weather", listCommand: "herald app list --tenant demo")
        }
        let files = try PreviewJob.published(in: out, tenant: tenant, app: appSlug, locale: locale)
        try told(.previewed(files.preview(app: app, locale: locale, at: now, device: device), device: device, locale: locale))

        // 5. The campaign report over the last 30 days.
        guard let until = UTCDay(String(Timestamp.format(now).prefix(10))) else { return }
        let since = until.adding(days: -29)
        let filter = ReportFilter(tenant: tenant, since: since.description, until: until.description)
        try told(.reported(try ReportJob(database).report(.campaigns, filter), since: since.description, until: until.description))

        // 6. The review board: each campaign as devices draw it, who sees what, the charts.
        let outcome = try BoardJob(database).write(to: board, BoardJob.Options(tenant: tenant, at: now))
        try told(.boardWritten(outcome, index: board.appendingPathComponent(Board.indexPath)))
    }
}

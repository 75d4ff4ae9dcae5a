import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

/// Writes the review board (`herald board`, and the demo's): reads what it shows, renders it
/// and writes it through publish's site writer under `out/board/`, one board per folder at a time.
public struct BoardJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// What the board shows: a tenant (else every tenant), an app of it, as at a moment.
    public struct Options: Sendable {
        public var tenant: Slug?
        public var app: Slug?
        public var at: Date
        /// Whether `at` was asked for (the board then says it shows another moment).
        public var atIsExplicit: Bool
        /// Days of delivery charts, up to `at`'s day.
        public var days: Int
        public var siteBaseURL: HTTPURL?
        /// How many of the newest publish runs to list.
        public var runs: Int

        public init(
            tenant: Slug? = nil, app: Slug? = nil, at: Date = Date(), atIsExplicit: Bool = false, days: Int = 30,
            siteBaseURL: HTTPURL? = nil, runs: Int = 20
        ) {
            self.tenant = tenant
            self.app = app
            self.at = at
            self.atIsExplicit = atIsExplicit
            self.days = days
            self.siteBaseURL = siteBaseURL
            self.runs = runs
        }
    }

    /// Reads what the board shows and writes it under `out` (only `out/board/`: anything
    /// else there is left alone), refusing a folder that holds a published site.
    public func write(to out: URL, _ options: Options) throws -> SiteWriter.Outcome {
        // A tenant's own login makes its own tenant's board (and no other's), named or not.
        var options = options
        options.tenant = try database.optionalTenant(options.tenant)
        if options.app != nil, options.tenant == nil { throw JobError.usage("--app needs --tenant (or HERALD_TENANT)") }
        let writer = SiteWriter(root: out)
        let foreign = writer.readManifest().files.keys.filter { !$0.hasPrefix(Board.folder + "/") }
        if let example = foreign.sorted().first {
            throw JobError.usage(
                "\(out.path) holds files Herald published (\(example), …): give the board its own folder, such as \(out.path)-board")
        }
        let input = try BoardData.read(
            database, tenant: options.tenant, app: options.app, at: options.at, atIsExplicit: options.atIsExplicit,
            days: options.days, siteBaseURL: options.siteBaseURL, runs: options.runs)
        let files = Board.render(input)
        // Two boards into one folder (overlapping cron runs) would race on its manifest: one waits for none.
        return try database.asOperator { session in
            guard try session.tryFolderLock(out.path) else {
                throw StoreError.busy("another herald board is writing \(out.path); try again later")
            }
            var writer = writer
            writer.owner = SiteManifest.Owner(installation: try session.installationID(), purpose: .board)
            do {
                return try writer.sync(files, scope: [[Board.folder]])
            } catch {
                throw JobError(.cannotWrite, "cannot write the board under \(out.path): \(FileProblem.describe(error))")
            }
        }
    }
}

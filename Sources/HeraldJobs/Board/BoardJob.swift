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
    /// Where the time of each phase goes (HERALD_TIMING=1; the benchmark prints them).
    let phaseTimes: PhaseTimes?

    public init(_ database: HeraldDatabase, phaseTimes: PhaseTimes? = nil) {
        self.database = database
        self.phaseTimes = phaseTimes
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

    /// What renders the pages: this build of Herald (its executable's size and time), so that
    /// a newer Herald makes every page again rather than keep pages an older one rendered.
    static let renderer: String = {
        var info = stat()
        guard let path = Bundle.main.executablePath, stat(path, &info) == 0 else { return "unknown-\(UUID().uuidString)" }
        return "\(Board.layoutVersion)-\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// Reads what the board shows and writes it under `out` (only `out/board/`: anything
    /// else there is left alone), refusing a folder that holds a published site.
    public func write(to out: URL, _ options: Options) throws -> SiteWriter.Outcome {
        // A tenant's own login makes its own tenant's board (and no other's), named or not.
        var timer = PhaseTimer(phaseTimes)
        var options = options
        options.tenant = try database.optionalTenant(options.tenant)
        if options.app != nil, options.tenant == nil { throw JobError.usage("--app needs --tenant (or HERALD_TENANT)") }
        let writer = SiteWriter(root: out)
        let foreign = writer.readManifest().files.keys.filter { !$0.hasPrefix(Board.folder + "/") }
        if let example = foreign.sorted().first {
            throw JobError.usage(
                "\(out.path) holds files Herald published (\(example), …): give the board its own folder, such as \(out.path)-board")
        }
        var input = try BoardData.read(
            database, tenant: options.tenant, app: options.app, at: options.at, atIsExplicit: options.atIsExplicit,
            days: options.days, siteBaseURL: options.siteBaseURL, runs: options.runs, timer: &timer)
        // Incremental, as publish is: pages whose inputs are those the previous board recorded
        // keep their bytes on disk (the writer still compares them, and removes what is gone).
        let previous = (try? writer.currentContents(of: [BoardMemory.path]))?[BoardMemory.path].flatMap(BoardMemory.parse)
        // Everything the board shows is what the previous board showed, and its files are all
        // still there: nothing to compile, render or compare (a cron line's usual run).
        if let previous, previous.input == BoardPlan.inputDigest(input, renderer: Self.renderer), let intact = writer.intactState(),
            intact.manifest.files.keys.contains(BoardMemory.path)
        {
            timer.mark("unchanged (the input is the previous board's)")
            var outcome = SiteWriter.Outcome()
            outcome.unchanged = intact.manifest.files.keys.filter { $0.hasPrefix(Board.folder + "/") }.count
            outcome.manifest = intact.manifest
            return outcome
        }
        input.daily = try BoardData.daily(database, of: input, app: options.app)
        timer.mark("read rollups")
        let plan = Board.plan(input, previous: previous, renderer: Self.renderer)
        timer.mark("plan (\(plan.reusable.count) pages as before)")
        let kept = plan.reusable.isEmpty ? [:] : ((try? writer.currentContents(of: plan.reusable)) ?? [:])
        let files = plan.files(kept: kept)
        timer.mark("render (\(files.count - kept.count) files made)")
        // Two boards into one folder (overlapping cron runs) would race on its manifest: one waits for none.
        return try database.asOperator { session in
            guard try session.tryFolderLock(out.path) else {
                throw StoreError.busy("another herald board is writing \(out.path); try again later")
            }
            var writer = writer
            writer.owner = SiteManifest.Owner(installation: try session.installationID(), purpose: .board)
            do {
                defer { timer.mark("write") }
                return try writer.sync(files, scope: [[Board.folder]])
            } catch {
                throw JobError(.cannotWrite, "cannot write the board under \(out.path): \(FileProblem.describe(error))")
            }
        }
    }
}

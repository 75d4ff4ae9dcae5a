import Foundation
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

/// One publish: snapshot (one REPEATABLE READ transaction) → pure compilers → the site
/// writer → the run history, all under an advisory lock so concurrent runs never interleave.
///
/// Every folder of a tenant is also guarded by that tenant's publish lock (a row lock,
/// `withTenantPublishLocks`). A tenant operator's login publishes its tenant's own folder
/// (`<out>/<tenant>/`, with its own manifest, run history, incremental plan and rollbacks)
/// under that lock alone; Herald's runs hold the locks of the tenants they write, and leave
/// out, with a warning, a tenant whose own publish is running (never waiting on a tenant).
///
/// Runs on the calling thread with `database`'s connection; file contents are stored into
/// the run history beside the writing, through a connection of their own.
public struct PublishJob {
    /// The advisory lock every publish holds while it runs.
    public static let lockKey = PublishRunRepository.lockKey

    public let database: HeraldDatabase
    /// The site's root folder.
    public let out: URL
    /// Wait for a running publish instead of failing with `PublishJobError.busy`.
    public var wait: Bool
    /// Take over a folder another Herald database published (`--adopt`), instead of refusing it.
    public var adopt = false
    /// Told how long each phase took (lock, snapshot, compile, write, record), as it ends.
    public var phaseTimes: PhaseTimes?
    /// What a long-running publisher remembers of the folder between runs (`publish --watch`).
    public var memory: FolderMemory?

    public init(database: HeraldDatabase, out: URL, wait: Bool = false, phaseTimes: PhaseTimes? = nil) {
        self.database = database
        // One folder, one name in the run history, however it was given (`//`, a symlink to it).
        self.out = out.standardizedFileURL.resolvingSymlinksInPath()
        self.wait = wait
        self.phaseTimes = phaseTimes
    }

    /// What a run did.
    public struct Result: Sendable {
        /// The recorded run; nil for a dry run, which records nothing.
        public var runID: Int64?
        /// Files written (or, in a dry run, that would be), unchanged and removed, and the folder's manifest.
        public var outcome: SiteWriter.Outcome
        /// The compilers' warnings (content that publishes, but probably not as meant).
        public var warnings: [String]
        /// Apps compiled: all in scope for a full run, the changed ones for an incremental run.
        public var apps: Int
        /// A dry run's changes, file by file, with the bytes on disk and the bytes it would write.
        public var changes: [FileChange] = []
        /// Nothing changed: `runID` is the earlier run whose files are in place, which counted this one.
        public var repeated = false
        /// Tenants left out because their own publish was running (the next run catches up).
        public var skippedTenants: [Slug] = []
    }

    /// One file a dry run would write or remove (paths as the site names them).
    public struct FileChange: Sendable {
        public let path: String
        /// What is there now; nil for a new file.
        public let before: [UInt8]?
        /// What would be there; nil for a file that would be removed.
        public let after: [UInt8]?
    }

    /// What one REPEATABLE READ transaction found: the snapshot it read, and either the
    /// whole site's data or only the apps that changed since the last run.
    private struct Plan {
        /// The snapshot read, and on which cluster.
        var snapshot: SourceSnapshot
        /// This database's Herald, as the folder's manifest records it.
        var owner: SiteManifest.Owner
        var tenants: [TenantSpec]
        /// nil: a full publish; otherwise the apps republished (empty: nothing changed).
        var changedApps: Set<Int64>?
        /// Tenants left out because their own publish was running.
        var skipped: [Slug] = []
        /// The run an incremental publish starts from.
        var previous: PublishRun?
    }

    /// Publishes the site as it is at `at`: the whole site, one tenant (`tenant`), or one of its
    /// apps (`tenant` and `app`). A whole-site run into a folder the last whole-site run left
    /// intact compiles only the apps changed since, unless `full`. `dryRun`: compiles and
    /// compares, writes and records nothing.
    /// A tenant operator's login publishes its own tenant's folder (`tenant` may be nil).
    public func publish(at: Date, tenant named: Slug?, app: Slug?, siteBaseURL: HTTPURL?, dryRun: Bool, full: Bool = false) throws -> Result {
        let tenant = try database.optionalTenant(named)
        if app != nil, tenant == nil { throw JobError.usage("--app needs --tenant") }
        if let own = try database.login().operatedTenant {
            return try publishOwnFolder(own, app: app, at: at, siteBaseURL: siteBaseURL, dryRun: dryRun, full: full)
        }
        var timer = PhaseTimer(phaseTimes)
        let early = wait ? nil : FolderCheck(.site(out), memory: memory, full: full, dryRun: dryRun)
        return try locked {
            try withTenantLocks(tenant.map { [$0] }, dryRun: dryRun, busy: wait ? .wait : tenant == nil ? .skip : .refuse) { held in
                timer.mark("lock")
                let check = early ?? FolderCheck(.site(out), memory: memory, full: full, dryRun: dryRun)
                return try publish(
                    into: .site(out), check: check, at: at, tenant: tenant, app: app, held: held, siteBaseURL: siteBaseURL,
                    dryRun: dryRun, full: full, timer: &timer)
            }
        }
    }

    /// A tenant operator's publish: its tenant's own folder, under its tenant's lock alone.
    private func publishOwnFolder(
        _ own: Slug, app: Slug?, at: Date, siteBaseURL: HTTPURL?, dryRun: Bool, full: Bool
    ) throws -> Result {
        var timer = PhaseTimer(phaseTimes)
        let tenantID = try database.asOperator(readOnly: true) { try $0.tenants.find(own).id }
        let folder = Folder.tenant(own, id: tenantID, in: out)
        let early = wait ? nil : FolderCheck(folder, memory: memory, full: full, dryRun: dryRun)
        return try withTenantLocks([own], dryRun: dryRun, busy: wait ? .wait : .refuse) { _ in
            timer.mark("lock")
            let check = early ?? FolderCheck(folder, memory: memory, full: full, dryRun: dryRun)
            return try publish(
                into: folder, check: check, at: at, tenant: own, app: app, held: nil, siteBaseURL: siteBaseURL,
                dryRun: dryRun, full: full, timer: &timer)
        }
    }

    /// A publish into `folder`; `held`: the tenants whose locks this run holds (nil: all).
    private func publish(
        into folder: Folder, check: FolderCheck, at: Date, tenant: Slug?, app: Slug?, held: Set<Slug>?, siteBaseURL: HTTPURL?,
        dryRun: Bool, full: Bool, timer: inout PhaseTimer
    ) throws -> Result {
        let writer = check.writer
        let checking = check.checking
        // A --full run reads the folder's manifest (megabytes for a large site) on another
        // thread while the database is read, instead of after the compile, and packs it as
        // the run history keeps manifests: its digest, computed here rather than taken from
        // the file, says whether the history keeps everything it lists.
        let manifest = full && !dryRun
            ? BackgroundWork { Swift.Result { ManifestArchive.pack(try writer.loadManifest().forgettingShardDigests()) } } : nil
        // The run a whole-folder run follows: Herald's last run over the site, or the tenant's
        // last run over its own folder.
        let wholeFolder: PublishScope = folder.tenant.map { .tenant($0.slug) } ?? .site
        let wholeFolderRun = folder.tenant == nil ? tenant == nil : app == nil
        // The manifest an incremental run starts from, when the folder's seal spared reading it:
        // read on another thread while the changed apps are read and compiled.
        var parsing: BackgroundWork<SiteManifest>?
        let plan = try database.asOperator(.repeatableRead, readOnly: true) { session -> Plan in
            let snapshot = try session.changes.currentSnapshot()
            let owner = SiteManifest.Owner(installation: try session.installationID(), purpose: .site)
            // Tenants of this run's scope whose own publish holds their lock (a run of one tenant
            // never speaks of the others).
            let skipped = try held.map { held in
                try (tenant.map { [$0] } ?? session.tenants.list().map(\.slug)).filter { !held.contains($0) }
            } ?? []
            var changed: Set<Int64>?
            // Incremental only when the folder is exactly what the last full run left, and this
            // run holds every tenant it could write.
            if wholeFolderRun, skipped.isEmpty, !full, !dryRun,
                let previous = try session.publishRuns.latest(outDir: out.path, tenantFolder: folder.tenantID),
                previous.outcome == .succeeded, previous.scope == wholeFolder, previous.baseURL == siteBaseURL?.rawValue,
                let since = previous.sourceSnapshot, let intact = try checking?.wait() ?? nil, previous.manifestDigest == intact.digest
            {
                changed = try session.changes.changedApps(since: since, current: snapshot, previousAt: previous.publishAt, at: at)
                if let changed, changed.isEmpty {
                    return Plan(snapshot: snapshot, owner: owner, tenants: [], changedApps: changed, previous: previous)
                }
                if changed != nil, intact.manifest == nil { parsing = BackgroundWork { try writer.manifest(of: intact) } }
            }
            // A second connection reads part of a whole site's campaigns beside this one: the
            // server's work is then split over two processes (and cores).
            let tenants = try SnapshotReader(session).read(
                tenant: tenant, app: app, appIDs: changed, alongside: changed == nil && app == nil ? database.connector : nil)
            return Plan(
                snapshot: snapshot, owner: owner, tenants: tenants.filter { !skipped.contains($0.slug) }, changedApps: changed,
                skipped: skipped)
        }
        timer.mark("snapshot (\(plan.changedApps.map { "\($0.count) changed app(s)" } ?? "full"))")
        let intact = try checking?.wait() ?? nil
        try checkOwnership(of: folder, as: plan.owner)
        var site = SiteCompiler(siteBaseURL: siteBaseURL).compile(plan.tenants, at: at)
        timer.mark("compile (\(site.files.count) files)")
        guard site.errors.isEmpty else { throw PublishJobError.invalidSite(site.errors) }
        site.warnings += plan.skipped.map {
            "tenant \($0)'s own publish was running: its folder was left as it is (the next run catches up)"
        }
        let files = folder.local(site.files)
        let apps = plan.tenants.reduce(0) { $0 + $1.apps.count }
        if dryRun {
            let (outcome, changes) = try preview(files, in: folder, scope: PublishScope(tenant: tenant, app: app))
            return Result(runID: nil, outcome: folder.sitePaths(outcome), warnings: site.warnings, apps: apps, changes: changes)
        }
        // What the run is recorded as managing (all, a tenant, an app), and what it rewrites.
        var recordedScope = PublishScope(tenant: tenant, app: app)
        if !plan.skipped.isEmpty {
            // The site but the tenants left out: every app folder of the others.
            recordedScope = .apps(plan.tenants.flatMap { tenant in tenant.apps.map { PublishScope.AppPath(tenant: tenant.slug, app: $0.slug) } })
            if case .apps(let paths) = recordedScope, paths.isEmpty {
                return Result(runID: nil, outcome: SiteWriter.Outcome(), warnings: site.warnings, apps: 0, skippedTenants: plan.skipped)
            }
        }
        let scope = plan.changedApps == nil
            ? recordedScope
            : .apps(plan.tenants.flatMap { tenant in tenant.apps.map { PublishScope.AppPath(tenant: tenant.slug, app: $0.slug) } })
        // Nothing changed since the run whose files are in place: counted on that run, no row of its own.
        if plan.changedApps?.isEmpty == true, let previous = plan.previous, let intact {
            try database.asOperator { try $0.publishRuns.countRepeat(of: previous.id, sourceSnapshot: plan.snapshot) }
            writer.keepSeal(intact)
            var outcome = SiteWriter.Outcome()
            outcome.unchanged = intact.fileCount
            return Result(runID: previous.id, outcome: outcome, warnings: [], apps: 0, repeated: true)
        }
        let loaded = try manifest?.wait()
        // An incremental run starts from the manifest its check found (read now if the folder's
        // seal spared reading it then).
        let incremental = plan.changedApps == nil ? nil : intact
        let previousManifest: SiteManifest?
        do {
            previousManifest = try incremental.map { try parsing?.wait() ?? writer.manifest(of: $0) }
        } catch {
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
        let (runID, kept) = try database.asOperator { session in
            let runID = try session.publishRuns.start(
                actor: database.actor, outDir: out.path, publishAt: at, scope: recordedScope, baseURL: siteBaseURL?.rawValue,
                tenantFolder: folder.tenantID)
            // The folder's manifest, if a run the history keeps left exactly it.
            let packed = try? loaded?.get()
            let kept = try packed.map { try session.publishRuns.keepsManifest($0.indexDigest, tenantFolder: folder.tenantID) } == true
            return (runID, kept ? packed?.manifest : nil)
        }
        // A whole-folder run remembers its snapshot, so the next one can publish only what changed.
        let snapshot = recordedScope == wholeFolder ? plan.snapshot : nil
        // An incremental run starts from the manifest checked above against the run history; a
        // --full run from the folder's, with its shards' digests when the history keeps them.
        var outcome = try writeRecording(
            runID: runID, files: files, into: folder, scope: scope, previous: previousManifest ?? kept,
            loaded: kept == nil ? loaded?.map(\.manifest) : nil, intact: incremental, kept: kept, sourceSnapshot: snapshot, owner: plan.owner,
            timer: &timer)
        if plan.changedApps != nil { outcome.unchanged = outcome.manifest.fileCount - outcome.written.count }
        let warnings = site.warnings
        let skipped = plan.skipped
        BackgroundRelease.release((consume plan, consume site, consume files))
        return Result(runID: runID, outcome: folder.sitePaths(outcome), warnings: warnings, apps: apps, skippedTenants: skipped)
    }
}

extension PublishJob {
    /// The folder's writer, and its check against the last run (one look per folder) on another
    /// thread. A run that does not wait for the locks starts it before taking them: the check
    /// and the database's first statements (a new server process's, the locks') then take the
    /// same few milliseconds instead of one after the other, and a run that changed nothing is
    /// little else. The check only reads: what it found is trusted only if it goes with the run
    /// history the locked run reads (the manifest's digest), and a run that died mid-write left
    /// a marker it refuses. A run that waits (`--wait`, the watcher) starts it once it holds
    /// the locks, so that what it checked is not minutes old.
    struct FolderCheck {
        let writer: SiteWriter
        let checking: BackgroundWork<IntactFolder?>?

        init(_ folder: Folder, memory: FolderMemory?, full: Bool, dryRun: Bool) {
            let writer = SiteWriter(root: folder.root, memory: memory)
            self.writer = writer
            checking = full || dryRun ? nil : BackgroundWork { writer.intactFolder() }
        }
    }
}

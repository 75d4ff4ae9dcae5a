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
    /// Told how long each phase took (lock, snapshot, compile, write, record), as it ends.
    public var phaseTimes: PhaseTimes?

    public init(database: HeraldDatabase, out: URL, wait: Bool = false, phaseTimes: PhaseTimes? = nil) {
        self.database = database
        self.out = out
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
        var snapshot: String
        var tenants: [TenantSpec]
        /// nil: a full publish; otherwise the apps republished (empty: nothing changed).
        var changedApps: Set<Int64>?
        /// Tenants left out because their own publish was running.
        var skipped: [Slug] = []
        /// The run an incremental publish starts from.
        var previous: PublishRun?
    }

    /// Where a run writes: the site's root (Herald's runs), or one tenant's own folder in it
    /// (a tenant operator's runs), whose files the writer sees without the tenant's segment.
    private struct Folder {
        let root: URL
        /// The tenant whose own folder this is, and its id (run history and contents).
        let tenant: (slug: Slug, id: Int64)?

        static func site(_ out: URL) -> Folder { Folder(root: out, tenant: nil) }

        static func tenant(_ slug: Slug, id: Int64, in out: URL) -> Folder {
            Folder(root: out.appendingPathComponent(slug.rawValue), tenant: (slug, id))
        }

        var tenantID: Int64? { tenant?.id }

        /// Compiled files as this folder holds them.
        func local(_ files: [SiteFile]) -> [SiteFile] {
            guard let tenant else { return files }
            return files.compactMap { file in
                guard file.path.segments.first == tenant.slug.rawValue,
                    let path = SitePath(relative: file.path.segments.dropFirst().joined(separator: "/"))
                else { return nil }
                return SiteFile(path: path, bytes: file.bytes)
            }
        }

        /// A path in this folder as the site names it (what people are shown).
        func sitePath(_ path: String) -> String {
            tenant.map { "\($0.slug)/\(path)" } ?? path
        }

        /// The writer's scope for `scope` (which names folders as the site does).
        func folders(of scope: PublishScope) -> [[String]]? {
            guard tenant != nil else { return scope.folders }
            switch scope {
            case .site, .tenant: return nil  // this tenant's whole folder
            case .apps(let apps): return apps.map { [$0.app.rawValue] }
            }
        }

        func sitePaths(_ outcome: SiteWriter.Outcome) -> SiteWriter.Outcome {
            guard tenant != nil else { return outcome }
            var shown = outcome
            shown.written = outcome.written.map(sitePath)
            shown.removed = outcome.removed.map(sitePath)
            return shown
        }
    }

    /// Publishes the site as it is at `at`: the whole site, one tenant (`tenant`), or one of its
    /// apps (`tenant` and `app`). A whole-site run into a folder the last whole-site run left
    /// intact compiles only the apps changed since, unless `full`. `dryRun`: compiles and
    /// compares, writes and records nothing.
    public func publish(at: Date, tenant: Slug?, app: Slug?, siteBaseURL: HTTPURL?, dryRun: Bool, full: Bool = false) throws -> Result {
        let login = try database.login()
        if let own = login.operatedTenant {
            if let tenant, tenant != own {
                throw StoreError.permissionDenied("\(login.name) operates tenant \(own) only: it cannot publish tenant \(tenant)")
            }
            return try publishOwnFolder(own, app: app, at: at, siteBaseURL: siteBaseURL, dryRun: dryRun, full: full)
        }
        var timer = PhaseTimer(phaseTimes)
        return try locked {
            try withTenantLocks(tenant.map { [$0] }, dryRun: dryRun, busy: wait ? .wait : tenant == nil ? .skip : .refuse) { held in
                timer.mark("lock")
                return try publish(
                    into: .site(out), at: at, tenant: tenant, app: app, held: held, siteBaseURL: siteBaseURL, dryRun: dryRun,
                    full: full, timer: &timer)
            }
        }
    }

    /// A tenant operator's publish: its tenant's own folder, under its tenant's lock alone.
    private func publishOwnFolder(
        _ own: Slug, app: Slug?, at: Date, siteBaseURL: HTTPURL?, dryRun: Bool, full: Bool
    ) throws -> Result {
        var timer = PhaseTimer(phaseTimes)
        let tenantID = try database.asOperator(readOnly: true) { try $0.tenants.find(own).id }
        return try withTenantLocks([own], dryRun: dryRun, busy: wait ? .wait : .refuse) { _ in
            timer.mark("lock")
            return try publish(
                into: .tenant(own, id: tenantID, in: out), at: at, tenant: own, app: app, held: nil, siteBaseURL: siteBaseURL,
                dryRun: dryRun, full: full, timer: &timer)
        }
    }

    /// `body` holding the publish locks of `tenants` (all when nil); a dry run writes nothing
    /// and takes none (`held` nil: every tenant).
    private func withTenantLocks<T>(
        _ tenants: [Slug]?, dryRun: Bool, busy: HeraldDatabase.BusyTenants, _ body: (Set<Slug>?) throws -> T
    ) throws -> T {
        guard !dryRun else { return try body(nil) }
        do {
            return try database.withTenantPublishLocks(tenants, busy: busy) { try body($0) }
        } catch StoreError.busy(let message) where message == HeraldDatabase.tenantPublishBusy {
            throw PublishJobError.busy
        }
    }

    /// A publish into `folder`; `held`: the tenants whose locks this run holds (nil: all).
    private func publish(
        into folder: Folder, at: Date, tenant: Slug?, app: Slug?, held: Set<Slug>?, siteBaseURL: HTTPURL?, dryRun: Bool,
        full: Bool, timer: inout PhaseTimer
    ) throws -> Result {
        let writer = SiteWriter(root: folder.root)
        let intact = full || dryRun ? nil : writer.intactState()
        // A --full run reads the folder's manifest (megabytes for a large site) on another
        // thread while the database is read, instead of after the compile, and packs it as
        // the run history keeps manifests: its digest, computed here rather than taken from
        // the file, says whether the history keeps everything it lists.
        let manifest = full && !dryRun
            ? BackgroundWork { Swift.Result { ManifestArchive.pack(try writer.loadManifest().forgettingShardDigests()) } } : nil
        timer.mark("check folder")
        // The run a whole-folder run follows: Herald's last run over the site, or the tenant's
        // last run over its own folder.
        let wholeFolder: PublishScope = folder.tenant.map { .tenant($0.slug) } ?? .site
        let wholeFolderRun = folder.tenant == nil ? tenant == nil : app == nil
        let plan = try database.asOperator(.repeatableRead, readOnly: true) { session -> Plan in
            let snapshot = try session.changes.currentSnapshot()
            let skipped = try held.map { held in try session.tenants.list().map(\.slug).filter { !held.contains($0) } } ?? []
            var changed: Set<Int64>?
            // Incremental only when the folder is exactly what the last full run left, and this
            // run holds every tenant it could write.
            if wholeFolderRun, skipped.isEmpty, !full, !dryRun,
                let previous = try session.publishRuns.latest(outDir: out.path, tenantFolder: folder.tenantID),
                previous.outcome == .succeeded, previous.scope == wholeFolder, previous.baseURL == siteBaseURL?.rawValue,
                let since = previous.sourceSnapshot, let intact, previous.manifestDigest == intact.digest
            {
                changed = try session.changes.changedApps(since: since, previousAt: previous.publishAt, at: at)
                if let changed, changed.isEmpty { return Plan(snapshot: snapshot, tenants: [], changedApps: changed, previous: previous) }
            }
            // A second connection reads part of a whole site's campaigns beside this one: the
            // server's work is then split over two processes (and cores).
            let tenants = try SnapshotReader(session).read(
                tenant: tenant, app: app, appIDs: changed, alongside: changed == nil && app == nil ? database.connector : nil)
            return Plan(
                snapshot: snapshot, tenants: tenants.filter { !skipped.contains($0.slug) }, changedApps: changed, skipped: skipped)
        }
        timer.mark("snapshot (\(plan.changedApps.map { "\($0.count) changed app(s)" } ?? "full"))")
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
                return Result(runID: nil, outcome: SiteWriter.Outcome(), warnings: site.warnings, apps: 0)
            }
        }
        let scope = plan.changedApps == nil
            ? recordedScope
            : .apps(plan.tenants.flatMap { tenant in tenant.apps.map { PublishScope.AppPath(tenant: tenant.slug, app: $0.slug) } })
        // Nothing changed since the run whose files are in place: counted on that run, no row of its own.
        if plan.changedApps?.isEmpty == true, let previous = plan.previous, let (manifest, _) = intact {
            try database.asOperator { try $0.publishRuns.countRepeat(of: previous.id, sourceSnapshot: plan.snapshot) }
            var outcome = SiteWriter.Outcome()
            outcome.unchanged = manifest.fileCount
            outcome.manifest = manifest
            return Result(runID: previous.id, outcome: outcome, warnings: [], apps: 0, repeated: true)
        }
        let loaded = try manifest?.wait()
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
            runID: runID, files: files, into: folder, scope: scope, previous: plan.changedApps == nil ? kept : intact?.manifest,
            loaded: kept == nil ? loaded?.map(\.manifest) : nil, kept: kept, sourceSnapshot: snapshot, timer: &timer)
        if plan.changedApps != nil { outcome.unchanged = outcome.manifest.fileCount - outcome.written.count }
        let warnings = site.warnings
        BackgroundRelease.release((consume plan, consume site, consume files))
        return Result(runID: runID, outcome: folder.sitePaths(outcome), warnings: warnings, apps: apps)
    }

    /// Puts the folder back exactly as run `id` left it, recorded as a new run. A tenant
    /// operator sees, and so restores, only its tenant's own runs.
    public func rollback(to id: Int64) throws -> Result {
        let run = try database.asOperator(readOnly: true) { try $0.publishRuns.run(id) }
        guard let tenantID = run.tenantID else {
            // Herald's own run, over the site (or part of it): Herald's login only (a tenant
            // operator never sees one), holding the site's lock and its tenants' locks.
            return try locked {
                try withTenantLocks(run.scope.tenants, dryRun: false, busy: wait ? .wait : .refuse) { _ in
                    try rollback(run, into: .site(out))
                }
            }
        }
        let tenant = try database.asOperator(readOnly: true) { session in
            try session.tenants.list().first { $0.id == tenantID }
        }
        guard let tenant else { throw StoreError.notFound(what: "publish run", name: String(id), listCommand: "herald publish --history") }
        return try withTenantLocks([tenant.slug], dryRun: false, busy: wait ? .wait : .refuse) { _ in
            try rollback(run, into: .tenant(tenant.slug, id: tenantID, in: out))
        }
    }

    private func rollback(_ run: PublishRun, into folder: Folder) throws -> Result {
        let id = run.id
        let files = try database.asOperator(readOnly: true) { session -> [SiteFile] in
            let runs = session.publishRuns
            guard run.outcome == .succeeded || run.outcome == .rolledBack, let indexDigest = run.manifestDigest,
                let manifest = try Self.archivedManifest(indexDigest, in: runs, tenantFolder: folder.tenantID)?.manifest
            else {
                throw PublishJobError.runNotRestorable(run: id, outcome: run.outcome)
            }
            let blobs = try runs.blobs(Array(Set(manifest.files.values)), tenantFolder: folder.tenantID)
            return try manifest.files.sorted { $0.key < $1.key }.map { path, digest in
                guard let bytes = blobs[digest], let sitePath = SitePath(relative: path) else {
                    throw PublishJobError.contentNotKept(run: id, path: path)
                }
                return SiteFile(path: sitePath, bytes: bytes)
            }
        }
        let runID = try database.asOperator {
            try $0.publishRuns.start(
                actor: database.actor, outDir: out.path, publishAt: run.publishAt, scope: run.scope, rollbackOf: id,
                tenantFolder: folder.tenantID)
        }
        var timer = PhaseTimer(phaseTimes)
        let outcome = try writeRecording(
            runID: runID, files: files, into: folder, scope: run.scope, outcome: .rolledBack, timer: &timer)
        return Result(runID: runID, outcome: folder.sitePaths(outcome), warnings: [], apps: 0)
    }

    /// What a prune deleted.
    public struct Pruned: Sendable {
        public var runs: Int
        public var contents: Int
        /// Tenants whose own publish was running: their stored contents were left for a later prune.
        public var tenantsLeftOut: [Slug]
    }

    /// Deletes recorded runs (keeping the `keepNewest` newest, or those started since `before`;
    /// never a folder's newest run, which the next publish starts from) and the stored contents
    /// that no kept run needs for a rollback: Herald's, and those of the tenants' own folders
    /// (of each tenant whose own publish is not running: one that is keeps its contents until a
    /// later prune, unless this waits for it).
    public func pruneHistory(keepNewest: Int?, before: Date?) throws -> Pruned {
        try locked {
            try withTenantLocks(nil, dryRun: false, busy: wait ? .wait : .skip) { held in
                try database.asOperator { session in
                    let runs = session.publishRuns
                    let tenants = try session.tenants.list()
                    let collected = tenants.filter { held?.contains($0.slug) ?? true }
                    let leftOut = tenants.filter { !(held?.contains($0.slug) ?? true) }.map(\.slug).sorted()
                    let pruned = try runs.prune(keepNewest: keepNewest, before: before, collecting: Set(collected.map(\.id))) { manifestDigests, tenantFolder in
                        // Every digest a kept run's rollback reads: its index, the index's shards, their files.
                        var needed = Set(manifestDigests)
                        for digest in Set(manifestDigests) {
                            guard let archived = try Self.archivedManifest(digest, in: runs, tenantFolder: tenantFolder) else { continue }
                            needed.formUnion(archived.shards)
                            if let manifest = archived.manifest { needed.formUnion(manifest.files.values) }
                        }
                        return needed
                    }
                    return Pruned(runs: pruned.runs, contents: pruned.contents, tenantsLeftOut: leftOut)
                }
            }
        }
    }

    /// A run's manifest as the history keeps it (`ManifestArchive`): the shards its index names,
    /// and the whole manifest when every one of them is kept; nil when no index is kept under `digest`.
    private static func archivedManifest(
        _ digest: String, in runs: PublishRunRepository, tenantFolder: Int64?
    ) throws -> (shards: [String], manifest: SiteManifest?)? {
        guard let index = try runs.blobs([digest], tenantFolder: tenantFolder)[digest], let shards = ManifestArchive.shardDigests(index)
        else { return nil }
        return (shards, ManifestArchive.unpack(index: index, shards: try runs.blobs(shards, tenantFolder: tenantFolder)))
    }

    /// Holds the publish lock for `body`, or refuses at once unless waiting. The one place
    /// that uses the connection directly.
    private func locked<T>(_ body: () throws -> T) throws -> T {
        var acquired = false
        do {
            return try database.withAdvisoryLock(.publish, wait: wait, busyMessage: "another publish is running") {
                acquired = true
                return try body()
            }
        } catch StoreError.busy where !acquired {
            throw PublishJobError.busy
        }
    }

    /// Writes `files` into `folder` and records the run. `scope` is as the folder sees it: a
    /// tenant's own folder names its apps without the tenant. `kept`: a manifest a run the
    /// history keeps left; the contents it lists are kept already, so not stored again.
    private func writeRecording(
        runID: Int64, files: [SiteFile], into folder: Folder, scope: PublishScope, previous: SiteManifest? = nil,
        loaded: Swift.Result<SiteManifest, any Error>? = nil, kept: SiteManifest? = nil, outcome name: PublishRunOutcome = .succeeded,
        sourceSnapshot: String? = nil, timer: inout PhaseTimer
    ) throws -> SiteWriter.Outcome {
        // File contents go into the run history on another thread, through a connection of
        // its own, while this one writes the files: the database and the disk work side by side.
        var storing: BackgroundWork<Void>?
        let outcome: SiteWriter.Outcome
        do {
            if !files.isEmpty {
                let connector = database.connector
                let tenantFolder = folder.tenantID
                storing = BackgroundWork { [files] in
                    // What to store, its connection and one content per digest, all on this
                    // thread: the writer need not wait for any of them.
                    let stored = kept?.filesNotListed(files) ?? files
                    guard !stored.isEmpty else { return }
                    let blobStore = try connector.connect()
                    var contents: [String: [UInt8]] = [:]
                    for file in stored { contents[file.digest] = file.bytes }
                    try blobStore.asOperator { try $0.publishRuns.storeBlobs(contents, tenantFolder: tenantFolder) }
                }
            }
            outcome = try SiteWriter(root: folder.root).sync(files, scope: folder.folders(of: scope), previous: previous, loaded: loaded)
            timer.mark("write (\(outcome.written.count) written)")
            try storing?.wait()
        } catch let error as StoreError {
            // The database failed (the blob store's connection), not the folder: say that.
            _ = try? storing?.wait()
            _ = try? database.asOperator {
                try $0.publishRuns.finish(
                    runID, outcome: .failed, written: 0, unchanged: 0, removed: 0, manifestDigest: nil, message: "\(error)")
            }
            throw error
        } catch {
            _ = try? storing?.wait()
            _ = try? database.asOperator {
                try $0.publishRuns.finish(
                    runID, outcome: .failed, written: 0, unchanged: 0, removed: 0, manifestDigest: nil, message: "\(error)")
            }
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
        timer.mark("store contents")
        // Keep the manifest too (by app; file contents are stored above) so any run can be restored.
        let packed = outcome.archive ?? ManifestArchive.pack(outcome.manifest)
        let manifestDigest = packed.indexDigest  // also written into the manifest's header
        var blobs = packed.shards
        blobs[manifestDigest] = packed.index
        try database.asOperator { session in
            try session.publishRuns.storeBlobs(blobs, tenantFolder: folder.tenantID)
            try session.publishRuns.finish(
                runID, outcome: name, written: outcome.written.count, unchanged: outcome.unchanged,
                removed: outcome.removed.count, manifestDigest: manifestDigest, message: nil, sourceSnapshot: sourceSnapshot)
        }
        timer.mark("record run")
        return outcome
    }

    /// The folder's manifest as a run checks it (refused as the run would refuse it).
    private static func checkedManifest(_ folder: Folder, out: URL) throws -> SiteManifest {
        do {
            return try SiteWriter(root: folder.root).checkedManifest()
        } catch {
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
    }

    /// What a publish would change in `folder`, without writing: each file compared with what
    /// is on disk, and the files Herald published there before, in `scope`, that it would remove.
    /// A manifest (or marker) a real run would refuse is refused here too, with the same error:
    /// read as empty, it would show a plan for a fresh folder that no run would carry out.
    private func preview(_ files: [SiteFile], in folder: Folder, scope: PublishScope) throws -> (SiteWriter.Outcome, [FileChange]) {
        let published = Set(files.map(\.path.description))
        let folders = folder.folders(of: scope)
        // Files the run would remove: the manifest's, within the scope, that it no longer publishes.
        let removed = try Self.checkedManifest(folder, out: out).files.keys.sorted().filter { path in
            guard !published.contains(path) else { return false }
            let segments = path.split(separator: "/").map(String.init)
            return folders.map({ $0.contains { Array(segments.prefix($0.count)) == $0 } }) ?? true
        }
        // What is there now, read as the run would read it (never through a symlink).
        let current: [String: [UInt8]]
        do {
            current = try SiteWriter(root: folder.root).currentContents(of: Array(published) + removed)
        } catch {
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
        var outcome = SiteWriter.Outcome()
        var changes: [FileChange] = []
        func onDisk(_ path: String) -> [UInt8]? { current[path] }
        for file in files {
            let path = file.path.description
            let before = onDisk(path)
            if before == file.bytes {
                outcome.unchanged += 1
            } else {
                outcome.written.append(path)
                changes.append(FileChange(path: folder.sitePath(path), before: before, after: file.bytes))
            }
        }
        for path in removed {
            outcome.removed.append(path)
            changes.append(FileChange(path: folder.sitePath(path), before: onDisk(path), after: nil))
        }
        return (outcome, changes)
    }
}

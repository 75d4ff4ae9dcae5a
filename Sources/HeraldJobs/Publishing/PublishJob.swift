import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

/// One publish: snapshot (one REPEATABLE READ transaction) → pure compilers → the site
/// writer → the run history, all under an advisory lock so concurrent runs never interleave.
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
    }

    /// What one REPEATABLE READ transaction found: the snapshot it read, and either the
    /// whole site's data or only the apps that changed since the last run.
    private struct Plan {
        var snapshot: String
        var tenants: [TenantSpec]
        /// nil: a full publish; otherwise the apps republished (empty: nothing changed).
        var changedApps: Set<Int64>?
    }

    /// Publishes the site as it is at `at`: the whole site, one tenant (`tenant`), or one of its
    /// apps (`tenant` and `app`). A whole-site run into a folder the last whole-site run left
    /// intact compiles only the apps changed since, unless `full`. `dryRun`: compiles and
    /// compares, writes and records nothing.
    public func publish(at: Date, tenant: Slug?, app: Slug?, siteBaseURL: HTTPURL?, dryRun: Bool, full: Bool = false) throws -> Result {
        var timer = PhaseTimer(phaseTimes)
        return try locked {
            timer.mark("lock")
            let writer = SiteWriter(root: out)
            let intact = full || dryRun ? nil : writer.intactState()
            timer.mark("check folder")
            let plan = try database.asOperator(.repeatableRead, readOnly: true) { session -> Plan in
                let snapshot = try session.changes.currentSnapshot()
                var changed: Set<Int64>?
                // Incremental only when the folder is exactly what the last full run left.
                if tenant == nil, !full, !dryRun, let previous = try session.publishRuns.latest(outDir: out.path),
                    previous.outcome == .succeeded, previous.scope == .site, previous.baseURL == siteBaseURL?.rawValue,
                    let since = previous.sourceSnapshot, let intact, previous.manifestDigest == intact.digest
                {
                    changed = try session.changes.changedApps(since: since, previousAt: previous.publishAt, at: at)
                }
                if let changed, changed.isEmpty { return Plan(snapshot: snapshot, tenants: [], changedApps: changed) }
                return Plan(
                    snapshot: snapshot, tenants: try SnapshotReader(session).read(tenant: tenant, app: app, appIDs: changed),
                    changedApps: changed)
            }
            timer.mark("snapshot (\(plan.changedApps.map { "\($0.count) changed app(s)" } ?? "full"))")
            let site = SiteCompiler(siteBaseURL: siteBaseURL).compile(plan.tenants, at: at)
            timer.mark("compile (\(site.files.count) files)")
            guard site.errors.isEmpty else { throw PublishJobError.invalidSite(site.errors) }
            let apps = plan.tenants.reduce(0) { $0 + $1.apps.count }
            if dryRun {
                return Result(runID: nil, outcome: preview(site.files), warnings: site.warnings, apps: apps)
            }
            // What the run is recorded as managing (all, a tenant, an app), and what it rewrites.
            let recordedScope = PublishScope(tenant: tenant, app: app)
            let scope = plan.changedApps == nil
                ? recordedScope
                : .apps(plan.tenants.flatMap { tenant in tenant.apps.map { PublishScope.AppPath(tenant: tenant.slug, app: $0.slug) } })
            let runID = try database.asOperator {
                try $0.publishRuns.start(
                    actor: database.actor, outDir: out.path, publishAt: at, scope: recordedScope, baseURL: siteBaseURL?.rawValue)
            }
            // A whole-site run remembers its snapshot, so the next one can publish only what changed.
            let snapshot = recordedScope == .site ? plan.snapshot : nil
            if plan.changedApps?.isEmpty == true, let (manifest, digest) = intact {
                try database.asOperator { session in
                    try session.publishRuns.finish(
                        runID, outcome: .succeeded, written: 0, unchanged: manifest.fileCount, removed: 0,
                        manifestDigest: digest, message: "nothing changed", sourceSnapshot: snapshot)
                }
                var outcome = SiteWriter.Outcome()
                outcome.unchanged = manifest.fileCount
                outcome.manifest = manifest
                return Result(runID: runID, outcome: outcome, warnings: [], apps: 0)
            }
            // An incremental run starts from the manifest checked above against the run history.
            var outcome = try writeRecording(
                runID: runID, files: site.files, scope: scope, previous: plan.changedApps == nil ? nil : intact?.manifest,
                sourceSnapshot: snapshot, timer: &timer)
            if plan.changedApps != nil { outcome.unchanged = outcome.manifest.fileCount - outcome.written.count }
            return Result(runID: runID, outcome: outcome, warnings: site.warnings, apps: apps)
        }
    }

    /// Puts the folder back exactly as run `id` left it, recorded as a new run.
    public func rollback(to id: Int64) throws -> Result {
        try locked {
            let (run, files) = try database.asOperator(readOnly: true) { session -> (PublishRun, [SiteFile]) in
                let runs = session.publishRuns
                let run = try runs.run(id)
                guard run.outcome == .succeeded || run.outcome == .rolledBack, let indexDigest = run.manifestDigest,
                    let index = try runs.blobs([indexDigest])[indexDigest],
                    let shardDigests = ManifestArchive.shardDigests(index),
                    let manifest = ManifestArchive.unpack(index: index, shards: try runs.blobs(shardDigests))
                else {
                    throw PublishJobError.runNotRestorable(run: id, outcome: run.outcome)
                }
                let blobs = try runs.blobs(Array(Set(manifest.files.values)))
                let files = try manifest.files.sorted { $0.key < $1.key }.map { path, digest in
                    guard let bytes = blobs[digest], let sitePath = SitePath(relative: path) else {
                        throw PublishJobError.contentNotKept(run: id, path: path)
                    }
                    return SiteFile(path: sitePath, bytes: bytes)
                }
                return (run, files)
            }
            let runID = try database.asOperator {
                try $0.publishRuns.start(
                    actor: database.actor, outDir: out.path, publishAt: run.publishAt, scope: run.scope, rollbackOf: id)
            }
            var timer = PhaseTimer(phaseTimes)
            let outcome = try writeRecording(runID: runID, files: files, scope: run.scope, outcome: .rolledBack, timer: &timer)
            return Result(runID: runID, outcome: outcome, warnings: [], apps: 0)
        }
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

    private func writeRecording(
        runID: Int64, files: [SiteFile], scope: PublishScope, previous: SiteManifest? = nil,
        outcome name: PublishRunOutcome = .succeeded, sourceSnapshot: String? = nil, timer: inout PhaseTimer
    ) throws -> SiteWriter.Outcome {
        // File contents go into the run history on another thread, through a connection of
        // its own, while this one writes the files: the database and the disk work side by side.
        var contents: [String: [UInt8]] = [:]
        for file in files { contents[file.digest] = file.bytes }
        var storing: BackgroundWork<Void>?
        let outcome: SiteWriter.Outcome
        do {
            if !contents.isEmpty {
                let blobStore = try database.connectAgain()
                storing = BackgroundWork { [contents] in try blobStore.asOperator { try $0.publishRuns.storeBlobs(contents) } }
            }
            outcome = try SiteWriter(root: out).sync(files, scope: scope.folders, previous: previous)
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
        timer.mark("write (\(outcome.written.count) written)")
        // Keep the manifest too (by app; file contents are stored above) so any run can be restored.
        let packed = outcome.archive ?? ManifestArchive.pack(outcome.manifest)
        let manifestDigest = packed.indexDigest  // also written into the manifest's header
        var blobs = packed.shards
        blobs[manifestDigest] = packed.index
        try database.asOperator { session in
            try session.publishRuns.storeBlobs(blobs)
            try session.publishRuns.finish(
                runID, outcome: name, written: outcome.written.count, unchanged: outcome.unchanged,
                removed: outcome.removed.count, manifestDigest: manifestDigest, message: nil, sourceSnapshot: sourceSnapshot)
        }
        timer.mark("record run")
        return outcome
    }

    /// What a publish would change, without writing.
    private func preview(_ files: [SiteFile]) -> SiteWriter.Outcome {
        var outcome = SiteWriter.Outcome()
        for file in files {
            let url = out.appendingPathComponent(file.path.description)
            if let data = FileManager.default.contents(atPath: url.path), [UInt8](data) == file.bytes {
                outcome.unchanged += 1
            } else {
                outcome.written.append(file.path.description)
            }
        }
        return outcome
    }
}

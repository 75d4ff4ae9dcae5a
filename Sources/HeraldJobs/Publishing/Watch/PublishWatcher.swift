import Foundation
import HeraldCore
import HeraldSite
import HeraldStore

/// `herald publish --watch`: a long-running publisher. It publishes once at start, then
/// whenever a committed change concerns what it publishes (the database notifies it: 0029),
/// and at the moment a campaign starts or ends; each run is the same incremental publish as
/// `herald publish` (same lock, writer and history), so a watcher and a cron job can share a
/// folder. When and why it runs is `WatchSchedule`'s; this type does the waiting, the
/// reconnecting and the running, on the calling thread, until `stop` is requested.
///
/// It gives up (throws) only on what waiting cannot mend: a schema this binary does not know,
/// a folder it must not write (another Herald's, a symlink where the site should be), a login
/// that may not publish. Everything else is reported as an `Event` and retried: the database
/// gone (reconnect with backoff and jitter, then publish once, since notifications sent
/// meanwhile are lost), the lock held by another publish, a failed write, a failed `--then`.
public final class PublishWatcher {
    public struct Settings: Sendable {
        public var schedule = WatchSchedule.Settings()
        /// Between attempts to reach the database again.
        public var reconnect = Backoff()
        /// Between retries of a run that failed (a write, `--then`).
        public var retry = Backoff(base: .seconds(1), cap: .seconds(60))
        /// Between tries while another publish holds the lock.
        public var busyRetry: Duration = .milliseconds(100)
        /// How long an idle connection goes unchecked (one round trip finds a dead one).
        public var idleCheck: Duration = .seconds(60)

        public init() {}
    }

    /// Why a run happened.
    public enum Reason: String, Sendable {
        case start, reconnect, change, schedule, retry
    }

    /// A run that changed the folder.
    public struct Run: Sendable {
        public let runID: Int64?
        public let reason: Reason
        /// Site paths written and removed.
        public let written: [String]
        public let removed: [String]
        public let unchanged: Int
        public let apps: Int
        public let duration: Duration
        public let warnings: [String]
    }

    /// What a watcher tells whoever runs it (the CLI logs one line each). Nothing while idle,
    /// nor for a run that changed nothing.
    public enum Event: Sendable {
        case published(Run)
        /// A run failed and is tried again in `retryIn` (nil: at the next change).
        case runFailed(Failure, retryIn: Duration?)
        /// `--then` failed: its paths are kept and given to it again after the next run.
        case thenFailed(String, pendingPaths: Int, retryIn: Duration)
        /// `--then` ran again after failing, and succeeded.
        case thenRecovered(paths: Int)
        /// The database went away (or could not be reached); the next attempt is in `retryIn`.
        case databaseUnavailable(String, attempt: Int, retryIn: Duration)
        /// Back after `attempts` failed attempts: publishing once, whatever was notified.
        case reconnected(attempts: Int)
    }

    private let open: () throws -> HeraldDatabase
    private let out: URL
    private let tenant: Slug?
    private let siteBaseURL: HTTPURL?
    private let adopt: Bool
    private let then: ThenCommand?
    private let settings: Settings
    private let report: (Event) -> Void
    /// A random number in 0...1 (jitter); injectable so that tests can pin it.
    private let random: () -> Double
    /// The folder as the last run left it (its manifest, parsed, and its seal): a run that finds
    /// the manifest file and every sealed folder as they were reads neither again.
    let memory = FolderMemory()

    /// `open`: a new connection to the database (called at start and after every loss).
    /// `tenant`: watch and publish one tenant (a tenant operator's login watches its own).
    public init(
        open: @escaping () throws -> HeraldDatabase, out: URL, tenant: Slug?, siteBaseURL: HTTPURL?, adopt: Bool = false,
        then: ThenCommand?, settings: Settings = Settings(), random: @escaping () -> Double = { Double.random(in: 0...1) },
        report: @escaping (Event) -> Void
    ) {
        self.open = open
        self.out = out
        self.tenant = tenant
        self.siteBaseURL = siteBaseURL
        self.adopt = adopt
        self.then = then
        self.settings = settings
        self.random = random
        self.report = report
    }

    /// The connections of one stretch of being connected.
    private struct Connected {
        let database: HeraldDatabase
        let listener: ChangeListener
        /// The tenant watched (by id), or nil for the whole site.
        let tenantID: Int64?
        let tenant: Slug?
    }

    /// Watches until `stop` is requested (returns) or something cannot be recovered (throws).
    public func run(until stop: WatchStop) throws {
        var schedule = WatchSchedule(settings: settings.schedule)
        var connected: Connected?
        var failedAttempts = 0
        var reason = Reason.start
        var failedRuns = 0
        /// Paths `--then` has not been given successfully yet.
        var thenPending: [String] = []
        var thenFailures = 0
        var lastActivity = ContinuousClock.now

        while !stop.isRequested {
            guard let current = connected else {
                do {
                    connected = try connect()
                    if failedAttempts > 0 {
                        report(.reconnected(attempts: failedAttempts))
                        reason = .reconnect
                    }
                    failedAttempts = 0
                    // Whatever was notified before: changes made while no one listened count.
                    schedule.mustRun = true
                    lastActivity = .now
                } catch let error where Self.isUnavailable(error) {
                    failedAttempts += 1
                    let delay = settings.reconnect.delay(attempt: failedAttempts, fraction: random())
                    report(.databaseUnavailable(Failure(error).lines.joined(separator: " "), attempt: failedAttempts, retryIn: delay))
                    stop.sleep(for: delay)
                }
                continue
            }

            let wait = schedule.wait(now: .now, wall: Date())
            if wait == .zero {
                // A run. Every change notified up to here is in what it reads.
                let wall = Date()
                let runReason: Reason =
                    schedule.mustRun ? reason : schedule.boundaryReached(wall: wall) ? .schedule
                    : schedule.firstChange != nil ? .change : .retry
                schedule.runStarted(wall: wall)
                // The schedule waits for a boundary until the wall clock is past it: `at` is never
                // a hair before the moment a campaign starts or ends.
                let at = Date()
                let started = ContinuousClock.now
                do {
                    let result = try publish(at: at, with: current)
                    failedRuns = 0
                    reason = .start
                    let changed = result.outcome.written + result.outcome.removed
                    if !changed.isEmpty {
                        report(
                            .published(
                                Run(
                                    runID: result.runID, reason: runReason, written: result.outcome.written,
                                    removed: result.outcome.removed, unchanged: result.outcome.unchanged, apps: result.apps,
                                    duration: .now - started, warnings: result.warnings)))
                    }
                    if !result.skippedTenants.isEmpty {
                        // A tenant's own publish held its folder: catch up once it is done.
                        schedule.retryAt = .now + settings.schedule.maxDelay
                    }
                    if let then, !(changed.isEmpty && thenPending.isEmpty) {
                        let paths = Self.merged(thenPending, changed)
                        do {
                            try then.run(paths: paths)
                            if thenFailures > 0 { report(.thenRecovered(paths: paths.count)) }
                            thenPending = []
                            thenFailures = 0
                        } catch {
                            thenPending = paths
                            thenFailures += 1
                            let delay = settings.retry.delay(attempt: thenFailures, fraction: random())
                            schedule.retryAt = .now + delay
                            report(.thenFailed("\(error)", pendingPaths: paths.count, retryIn: delay))
                        }
                    }
                    schedule.boundary = try nextBoundary(after: at, with: current)
                } catch let error where Self.isUnavailable(error) {
                    // Lost mid-run: reconnect, then publish once (the run may not have finished).
                    connected = nil
                    failedAttempts = 1
                    let delay = settings.reconnect.delay(attempt: 1, fraction: random())
                    report(.databaseUnavailable(Failure(error).lines.joined(separator: " "), attempt: 1, retryIn: delay))
                    stop.sleep(for: delay)
                    continue
                } catch let error where Self.isBusy(error) {
                    // A cron publish (or another watcher) holds the lock: this run waits its turn,
                    // and publishes what the other did not see.
                    if runReason == .start || runReason == .reconnect { reason = runReason }
                    schedule.retryAt = .now + settings.busyRetry * (0.5 + random())
                } catch let error where Self.isUnrecoverable(error) {
                    throw error
                } catch {
                    failedRuns += 1
                    let failure = Failure(error)
                    // Content that does not compile waits for the edit that fixes it (or the
                    // boundary that changes it); anything else is tried again after a while.
                    let retry: Duration? =
                        failure.kind == .invalid ? nil : settings.retry.delay(attempt: failedRuns, fraction: random())
                    if let retry { schedule.retryAt = .now + retry }
                    report(.runFailed(failure, retryIn: retry))
                    if let next = try? nextBoundary(after: at, with: current) { schedule.boundary = next }
                }
                lastActivity = .now
                continue
            }

            // Waiting: for a notification, the schedule's next moment, a stop, or the idle check.
            let idle = lastActivity + settings.idleCheck - .now
            let timeout = [wait, idle].compactMap { $0 }.min().map { max($0, .zero) }
            do {
                switch try current.listener.wait(timeout: timeout, wakeDescriptor: stop.readDescriptor) {
                case .changed:
                    schedule.noteChange(at: .now)
                    lastActivity = .now
                case .woken:
                    continue
                case .timedOut:
                    if ContinuousClock.now >= lastActivity + settings.idleCheck {
                        try current.listener.check()
                        lastActivity = .now
                    }
                }
            } catch let error where Self.isUnavailable(error) {
                connected = nil
                failedAttempts = 1
                let delay = settings.reconnect.delay(attempt: 1, fraction: random())
                report(.databaseUnavailable(Failure(error).lines.joined(separator: " "), attempt: 1, retryIn: delay))
                stop.sleep(for: delay)
            }
        }
    }

    /// Opens the database and the listener; the tenant watched is the login's own, or `tenant`.
    private func connect() throws -> Connected {
        let database = try open()
        let watched = try database.optionalTenant(tenant)
        let tenantID = try watched.map { slug in try database.asOperator(readOnly: true) { try $0.tenants.find(slug).id } }
        return Connected(database: database, listener: try ChangeListener(database, tenantID: tenantID), tenantID: tenantID, tenant: watched)
    }

    private func nextBoundary(after at: Date, with connected: Connected) throws -> Date? {
        try connected.database.asOperator(readOnly: true) { try $0.changes.nextBoundary(after: at, tenantID: connected.tenantID) }
    }

    private func publish(at: Date, with connected: Connected) throws -> PublishJob.Result {
        var job = PublishJob(database: connected.database, out: out, wait: false)
        job.adopt = adopt
        job.memory = memory
        return try job.publish(at: at, tenant: connected.tenant, app: nil, siteBaseURL: siteBaseURL, dryRun: false)
    }

    /// `earlier` then the paths of `later` not in it.
    static func merged(_ earlier: [String], _ later: [String]) -> [String] {
        guard !earlier.isEmpty else { return later }
        var seen = Set(earlier)
        return earlier + later.filter { seen.insert($0).inserted }
    }

    static func isUnavailable(_ error: any Error) -> Bool {
        if case StoreError.unavailable = error { return true }
        return false
    }

    static func isBusy(_ error: any Error) -> Bool {
        switch error {
        case PublishJobError.busy, StoreError.busy: true
        default: false
        }
    }

    /// What a watcher gives up on: waiting would not change it.
    static func isUnrecoverable(_ error: any Error) -> Bool {
        switch error {
        case StoreError.schema, StoreError.permissionDenied, StoreError.notFound: return true
        case PublishJobError.foreignFolder: return true
        case PublishJobError.cannotWriteSite(_, let reason):
            return (reason as? SiteWriter.WriteError)?.isRefusal == true
        case is JobError, is EmbeddedDatabaseError: return true
        default: return false
        }
    }
}

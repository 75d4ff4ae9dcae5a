import Foundation

/// When a watching publisher runs next: the pure rules, on values (no clock, no database),
/// so that they are tested without waiting.
///
/// - A committed change runs a publish once changes have been quiet for `debounce`, or
///   `maxDelay` after the first change not yet published, whichever comes first: a burst is one
///   run, and a steady stream of edits still publishes at least every `maxDelay`.
/// - A campaign's start or end (`boundary`) runs one at that moment, with no debounce.
/// - After starting and after every reconnect, a run is due at once (`mustRun`): changes made
///   while no one listened were never notified.
/// - A run that could not happen (the lock held, a failure) is retried at `retryAt`.
public struct WatchSchedule: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// How long changes must be quiet before a run starts.
        public var debounce: Duration
        /// The longest a committed change waits for its run while changes keep coming.
        public var maxDelay: Duration

        public init(debounce: Duration = .milliseconds(25), maxDelay: Duration = .seconds(1)) {
            self.debounce = debounce
            self.maxDelay = maxDelay
        }
    }

    public let settings: Settings
    /// A run is due whatever was notified (start, reconnect).
    public var mustRun = true
    /// The first change not yet published, and the last one.
    public private(set) var firstChange: ContinuousClock.Instant?
    public private(set) var lastChange: ContinuousClock.Instant?
    /// The next moment a campaign starts or ends (wall-clock time: it is stored as one).
    public var boundary: Date?
    /// When a run that could not happen is tried again.
    public var retryAt: ContinuousClock.Instant?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// A committed change was notified at `now`.
    public mutating func noteChange(at now: ContinuousClock.Instant) {
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// A run starts (at `wall`) and reads the database as it is: every change noted so far, and
    /// a boundary that has come, are in it.
    public mutating func runStarted(wall: Date) {
        mustRun = false
        firstChange = nil
        lastChange = nil
        retryAt = nil
        if boundaryReached(wall: wall) { boundary = nil }
    }

    /// How long until a run is due, seen at `now` (monotonic) and `wall` (the same moment on
    /// the wall clock): zero when it is due now, nil when nothing is due until notified.
    public func wait(now: ContinuousClock.Instant, wall: Date) -> Duration? {
        if mustRun { return .zero }
        var due: [Duration] = []
        if let firstChange, let lastChange {
            due.append(min(lastChange + settings.debounce, firstChange + settings.maxDelay) - now)
        }
        if let boundary {
            // Whole microseconds up, as the database stores times: waking before the boundary
            // would publish the site as it was just before it.
            let seconds = boundary.timeIntervalSince(wall)
            due.append(.microseconds(Int64((seconds * 1_000_000).rounded(.up))))
        }
        if let retryAt { due.append(retryAt - now) }
        return due.min().map { max($0, .zero) }
    }

    /// Whether the run about to start is for a boundary that has come (at `wall`).
    public func boundaryReached(wall: Date) -> Bool {
        boundary.map { $0 <= wall } ?? false
    }
}

/// Exponential backoff with full jitter (AWS's "full jitter"): attempt n waits a random time
/// up to `base · 2ⁿ⁻¹`, capped, so that watchers a restart disconnected together do not all
/// come back in the same instant.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .milliseconds(250), cap: Duration = .seconds(30)) {
        self.base = base
        self.cap = cap
    }

    /// The longest attempt `attempt` (1, 2, …) waits.
    public func ceiling(attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let grown = base * (1 << doublings)
        return min(grown, cap)
    }

    /// The wait before attempt `attempt`, `fraction` (0...1) of the way up to its ceiling, at
    /// least a tenth of `base` so that a failing server is never hammered.
    public func delay(attempt: Int, fraction: Double) -> Duration {
        let ceiling = ceiling(attempt: attempt)
        return max(ceiling * min(max(fraction, 0), 1), base / 10)
    }
}

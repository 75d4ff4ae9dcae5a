import Foundation
import HeraldCore
import HeraldStore
import Synchronization

/// What became of one request's batch once its transaction committed.
public struct CollectedOutcome: Sendable, Equatable {
    public var accepted = 0
    public var duplicate = 0
    /// Events not stored: their index in the request and why.
    public var rejected: [(index: Int, reason: String)] = []

    public static func == (lhs: CollectedOutcome, rhs: CollectedOutcome) -> Bool {
        lhs.accepted == rhs.accepted && lhs.duplicate == rhs.duplicate
            && lhs.rejected.map(\.index) == rhs.rejected.map(\.index) && lhs.rejected.map(\.reason) == rhs.rejected.map(\.reason)
    }
}

/// Why a batch was not stored (nothing of it was).
public enum CollectFailure: Error, Sendable, Equatable {
    /// The database cannot be reached, or its schema is not this binary's: try again later.
    case unavailable(String)
    /// More events are waiting for the database than the collector holds: try again shortly.
    case overloaded
    /// The collector is shutting down.
    case stopping
    /// A database failure nobody foresaw (the message is PostgreSQL's).
    case failed(String)
}

/// The collector's use case, behind whatever HTTP server carries it: app keys looked up in
/// memory (read again twice a second, so a revoked key fails within a second), a rate per
/// key, and group commit: every batch waiting when a committer is free goes into its next
/// transaction, stored by `EventIngestor` with the rollups (the same set-based store as
/// `events ingest`), and each request is answered only after that transaction committed.
///
/// Committers are threads, each owning one connection and its ingestor; another thread reads
/// the keys on a connection of its own. A lost connection fails the batches of its
/// transaction (nothing of them committed, or if the commit did land, a retry counts them as
/// duplicates), and the committer connects again every `reconnectSeconds` until it can;
/// while no committer is connected, batches are refused at once.
public final class EventCollector: Sendable {
    public struct Settings: Sendable {
        /// Connections storing at once (PostgreSQL works on each transaction with one core).
        public var committers = 2
        /// The most events one transaction takes (the batches waiting beyond it wait for the next).
        public var maxEventsPerCommit = 10_000
        /// Events waiting for a committer beyond which requests are refused (memory stays bounded).
        public var maxQueuedEvents = 100_000
        /// How often the keys are read again.
        public var keyRefreshSeconds = 0.5
        /// How often a committer without a connection tries again.
        public var reconnectSeconds = 1.0
        /// Events a second per app key (a token bucket per collector), and how many may come at once.
        public var eventsPerSecondPerKey = 100_000.0
        public var burstPerKey = 200_000.0

        public init() {}
    }

    /// A transaction that committed: how many events it took and how long it ran (seconds).
    public typealias CommitObserver = @Sendable (_ events: Int, _ seconds: Double) -> Void

    private struct Pending: Sendable {
        let records: [EventRecord]
        let answer: @Sendable (Result<CollectedOutcome, CollectFailure>) -> Void
    }

    private struct State {
        var queue: [Pending] = []
        var head = 0
        var queuedEvents = 0
        var stopping = false
        /// Committers with a working connection, and why the last one failed.
        var connected: Set<Int> = []
        var problem = "connecting to the database"
        var keys: [String: AppKeyScope] = [:]
        var keysLoaded = false
        /// Why the key reader's last look at the database failed (nil: it worked).
        var databaseProblem: String?
        var buckets: [Int64: TokenBucket] = [:]

        var waiting: Int { queue.count - head }

        mutating func take(upTo limit: Int) -> [Pending] {
            var taken: [Pending] = []
            var events = 0
            while head < queue.count, taken.isEmpty || events + queue[head].records.count <= limit {
                events += queue[head].records.count
                taken.append(queue[head])
                head += 1
            }
            queuedEvents -= events
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return taken
        }

        mutating func takeAll() -> [Pending] {
            let all = Array(queue[head...])
            queue.removeAll()
            head = 0
            queuedEvents = 0
            return all
        }
    }

    private let settings: Settings
    private let connector: HeraldDatabase.Connector
    private let observer: CommitObserver?
    private let state = Mutex(State())
    /// One signal per batch queued (and per thread to stop): committers wake and take what waits.
    private let work = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let clockStart = DispatchTime.now().uptimeNanoseconds

    public init(connector: HeraldDatabase.Connector, settings: Settings = Settings(), onCommit: CommitObserver? = nil) {
        self.connector = connector
        self.settings = settings
        observer = onCommit
    }

    /// Starts the committers and the key reader, and waits until each has tried its first
    /// connection (the collector then answers from the first request on).
    public func start() {
        let tried = DispatchGroup()
        for index in 0..<max(1, settings.committers) {
            tried.enter()
            finished.enter()
            let thread = Thread { [self] in
                commitLoop(index, firstTry: tried)
                finished.leave()
            }
            thread.name = "herald-commit-\(index)"
            thread.start()
        }
        tried.enter()
        finished.enter()
        let reader = Thread { [self] in
            keyLoop(firstTry: tried)
            finished.leave()
        }
        reader.name = "herald-keys"
        reader.start()
        tried.wait()
    }

    /// Stops taking batches, stores the ones waiting, and returns once every thread ended.
    public func stop() {
        state.withLock { $0.stopping = true }
        for _ in 0..<(max(1, settings.committers) + 1) { work.signal() }
        finished.wait()
    }

    // MARK: What the HTTP side asks

    /// The tenant and app of the key in an `Authorization` header's value (`Bearer …`), or nil
    /// for a missing, malformed, unknown or revoked key (never saying which).
    public func authenticate(authorization: String?) -> AppKeyScope? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            let secret = AppKeySecret(presented: parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        let digest = secret.digest
        return state.withLock { $0.keys[digest] }
    }

    /// Takes `events` from the key's rate: nil when allowed, else the seconds to wait.
    public func admit(_ scope: AppKeyScope, events: Int) -> Int? {
        let now = Double(DispatchTime.now().uptimeNanoseconds - clockStart) / 1e9
        return state.withLock { state -> Int? in
            var bucket = state.buckets[scope.keyID]
                ?? TokenBucket(rate: settings.eventsPerSecondPerKey, burst: settings.burstPerKey, now: now)
            let (allowed, retryAfter) = bucket.take(Double(events), now: now)
            state.buckets[scope.keyID] = bucket
            return allowed ? nil : retryAfter
        }
    }

    /// Whether batches can be stored now (a committer is connected, the schema is current),
    /// and if not, why.
    public var readiness: (ready: Bool, problem: String?) {
        state.withLock { state in
            if state.connected.isEmpty { return (false, state.problem) }
            if let problem = state.databaseProblem { return (false, problem) }
            return state.keysLoaded ? (true, nil) : (false, "app keys not read yet")
        }
    }

    /// Events waiting for a committer.
    public var queuedEvents: Int { state.withLock { $0.queuedEvents } }

    /// Stores a request's records in the next transaction and returns once it committed.
    public func store(_ records: [EventRecord]) async -> Result<CollectedOutcome, CollectFailure> {
        await withCheckedContinuation { continuation in
            let answer: @Sendable (Result<CollectedOutcome, CollectFailure>) -> Void = { continuation.resume(returning: $0) }
            let refusal = state.withLock { state -> CollectFailure? in
                if state.stopping { return .stopping }
                if state.connected.isEmpty { return .unavailable(state.problem) }
                if state.queuedEvents > 0, state.queuedEvents + records.count > settings.maxQueuedEvents { return .overloaded }
                state.queue.append(Pending(records: records, answer: answer))
                state.queuedEvents += records.count
                return nil
            }
            if let refusal {
                answer(.failure(refusal))
            } else {
                work.signal()
            }
        }
    }

    // MARK: Committers

    private func commitLoop(_ index: Int, firstTry: DispatchGroup) {
        var current: EventIngestor?
        var reported = false
        defer { if !reported { firstTry.leave() } }
        while true {
            if current == nil {
                do {
                    current = try connect()
                    state.withLock { _ = $0.connected.insert(index) }
                } catch {
                    disconnected(index, because: Self.words(error))
                }
                if !reported {
                    reported = true
                    firstTry.leave()
                }
                if current == nil {
                    // Not on `work`: a signal taken here would leave a connected committer asleep.
                    if state.withLock({ $0.stopping }) { return }
                    Thread.sleep(forTimeInterval: settings.reconnectSeconds)
                    continue
                }
            }
            guard let ingestor = current else { continue }
            guard let taken = nextWork() else { return }
            if taken.isEmpty { continue }
            let records = taken.count == 1 ? taken[0].records : taken.flatMap(\.records)
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                let outcomes: [EventOutcome]
                do {
                    outcomes = try ingestor.store(records)
                } catch StoreError.unavailable {
                    // A connection that died while idle (the server restarted since): one more
                    // try on a new one. Safe even if the first commit did land: ids count once.
                    current = nil
                    let fresh = try connect()
                    current = fresh
                    outcomes = try fresh.store(records)
                }
                observer?(records.count, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                var offset = 0
                for batch in taken {
                    batch.answer(.success(Self.summary(outcomes[offset..<(offset + batch.records.count)])))
                    offset += batch.records.count
                }
            } catch StoreError.unavailable(let message) {
                let problem = "lost the connection to the database: \(message)"
                for batch in taken { batch.answer(.failure(.unavailable(problem))) }
                current = nil
                disconnected(index, because: problem)
            } catch StoreError.schema(let message) {
                for batch in taken { batch.answer(.failure(.unavailable(message))) }
                current = nil
                disconnected(index, because: message)
            } catch {
                for batch in taken { batch.answer(.failure(.failed(Self.words(error)))) }
                if current == nil { disconnected(index, because: Self.words(error)) }
            }
        }
    }

    /// A connection with the current schema and an ingestor on it. Devices learn nothing of
    /// other tenants from a rejection, and an unknown campaign reads the campaigns again at
    /// most once a second.
    private func connect() throws -> EventIngestor {
        let database = try connector.connect()
        try database.requireCurrentSchema()
        let ingestor = try EventIngestor(database: database)
        ingestor.namesOtherTenants = false
        ingestor.secondsBetweenTargetReloads = 1
        return ingestor
    }

    /// Committer `index` has no connection. When none has, the batches waiting are refused
    /// (nothing would store them until one connects again).
    private func disconnected(_ index: Int, because problem: String) {
        let refused = state.withLock { state -> [Pending] in
            state.connected.remove(index)
            state.problem = problem
            return state.connected.isEmpty ? state.takeAll() : []
        }
        for batch in refused { batch.answer(.failure(.unavailable(problem))) }
    }

    /// The batches for the next transaction (up to `maxEventsPerCommit` events, at least one
    /// batch); empty when woken with nothing to do; nil once stopping with nothing left.
    private func nextWork() -> [Pending]? {
        work.wait()
        return state.withLock { state -> [Pending]? in
            if state.waiting == 0 { return state.stopping ? nil : [] }
            return state.take(upTo: settings.maxEventsPerCommit)
        }
    }

    private static func summary(_ outcomes: ArraySlice<EventOutcome>) -> CollectedOutcome {
        var summary = CollectedOutcome()
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .inserted: summary.accepted += 1
            case .duplicate: summary.duplicate += 1
            case .rejected(let reason): summary.rejected.append((index, reason))
            }
        }
        return summary
    }

    // MARK: Keys

    /// Reads every key in force, again and again, on a connection of its own; while the
    /// database is away the keys last read stay in force.
    private func keyLoop(firstTry: DispatchGroup) {
        var database: HeraldDatabase?
        var reported = false
        defer { if !reported { firstTry.leave() } }
        while !state.withLock({ $0.stopping }) {
            do {
                if database == nil { database = try connector.connect() }
                if let database {
                    let keys = try database.asOperator(readOnly: true) { try AppKeyDirectory.load($0) }
                    state.withLock { state in
                        state.keys = keys
                        state.keysLoaded = true
                        state.databaseProblem = nil
                    }
                }
            } catch {
                database = nil
                let problem = Self.words(error)
                state.withLock { $0.databaseProblem = problem }
            }
            if !reported {
                reported = true
                firstTry.leave()
            }
            usleep(useconds_t(settings.keyRefreshSeconds * 1_000_000))
        }
    }

    private static func words(_ error: any Error) -> String {
        (error as? StoreError)?.description ?? "\(error)"
    }
}

import Foundation
import HeraldCore
import Synchronization

/// One ingest spread over several connections: each worker thread owns a connection and an
/// `EventIngestor` and stores a batch per transaction, so PostgreSQL works on several
/// batches at once (one backend, one core each). Results come back in input order.
///
/// A crash leaves whole batches only, as with one connection; which ones may differ, and
/// running the input again completes it (stored ids count as duplicates).
public final class ParallelEventIngest {
    /// What became of one batch.
    public typealias BatchResult = (counts: IngestCounts, rejections: [EventRejection])

    private let workers: [WorkerState]

    /// `databases`: one connection per worker, each used only by its worker from now on.
    public init(databases: [HeraldDatabase]) throws {
        precondition(!databases.isEmpty, "at least one connection")
        workers = try databases.map { WorkerState(ingestor: try EventIngestor(database: $0)) }
    }

    /// Seconds per step, summed over the workers (for HERALD_TIMING).
    public var stepSeconds: [(step: String, seconds: Double)] {
        var totals: [(step: String, seconds: Double)] = []
        for worker in workers {
            for (step, seconds) in worker.ingestor.stepSeconds {
                if let index = totals.firstIndex(where: { $0.step == step }) {
                    totals[index].seconds += seconds
                } else {
                    totals.append((step, seconds))
                }
            }
        }
        return totals
    }

    /// Stores every batch `next` returns (until nil), calling `deliver` on this thread with
    /// each batch's result in input order. On a failure, no new batch starts; the batches
    /// already running finish (and are delivered) before the first failure is thrown.
    public func run(next: @escaping @Sendable () throws -> [EventRecord]?, deliver: (BatchResult) throws -> Void) throws {
        let queue = ResultQueue()
        let threads = workers.map { worker in
            Thread { [queue] in
                while let (sequence, batch) = queue.take(next) {
                    let result = Result { try worker.ingestor.ingest(batch) }
                    if case .success = result { CrashPoint.reached(IngestCrashPoint.committed) }
                    queue.put(sequence, result)
                }
                queue.workerFinished()
            }
        }
        for thread in threads { thread.start() }
        var failure: (any Error)?
        var sequence = 0
        while let result = queue.result(sequence, workers: workers.count) {
            sequence += 1
            switch result {
            case .success(let value):
                if failure == nil {
                    do { try deliver(value) } catch {
                        failure = error
                        queue.stop()
                    }
                } else {
                    try? deliver(value)  // already committed: still counted in the summary
                }
            case .failure(let error):
                if failure == nil { failure = error }
                queue.stop()
            }
        }
        if let failure { throw failure }
    }
}

/// An ingestor confined to one worker thread after it is made.
// @unchecked: hands a non-Sendable ingestor (its libpq connection) to the one thread that uses it; nothing is shared.
private final class WorkerState: @unchecked Sendable {
    let ingestor: EventIngestor
    init(ingestor: EventIngestor) { self.ingestor = ingestor }
}

/// Hands batches to the workers (numbered in input order) and their results back in order.
private final class ResultQueue: Sendable {
    private struct State {
        var nextSequence = 0
        var inputEnded = false
        var stopped = false
        var finishedWorkers = 0
        var results: [Int: Result<ParallelEventIngest.BatchResult, any Error>] = [:]
    }

    private let state = Mutex(State())
    /// Signalled once per result or finished worker: the one thread waiting in `result` looks again.
    private let changed = DispatchSemaphore(value: 0)

    /// The next batch and its number, or nil when the input ended or the run stopped. Reading
    /// the input under the lock keeps numbers in input order.
    func take(_ next: () throws -> [EventRecord]?) -> (Int, [EventRecord])? {
        let (taken, failed) = state.withLock { state -> ((Int, [EventRecord])?, Bool) in
            guard !state.inputEnded, !state.stopped else { return (nil, false) }
            let sequence = state.nextSequence
            do {
                guard let batch = try next() else {
                    state.inputEnded = true
                    return (nil, false)
                }
                state.nextSequence += 1
                return ((sequence, batch), false)
            } catch {
                state.inputEnded = true
                state.nextSequence += 1
                state.results[sequence] = .failure(error)
                return (nil, true)
            }
        }
        if failed { changed.signal() }
        return taken
    }

    func put(_ sequence: Int, _ result: Result<ParallelEventIngest.BatchResult, any Error>) {
        state.withLock { state in
            state.results[sequence] = result
            if case .failure = result { state.stopped = true }
        }
        changed.signal()
    }

    func workerFinished() {
        state.withLock { $0.finishedWorkers += 1 }
        changed.signal()
    }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Result number `sequence`, waiting for it. Every number handed out gets a result, so
    /// once every worker has finished and it is not there, there are no more.
    func result(_ sequence: Int, workers: Int) -> Result<ParallelEventIngest.BatchResult, any Error>? {
        while true {
            let found = state.withLock { state -> (Result<ParallelEventIngest.BatchResult, any Error>?, Bool) in
                if let result = state.results.removeValue(forKey: sequence) { return (result, true) }
                return (nil, state.finishedWorkers == workers)
            }
            if let result = found.0 { return result }
            if found.1 { return nil }
            changed.wait()
        }
    }
}

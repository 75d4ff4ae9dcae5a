import Foundation
import HeraldCore
import Synchronization

/// The input read and parsed into batches on a thread of its own, at most two batches ahead
/// of the consumer: memory stays bounded whatever the input's size.
final class ParsedBatches: Sendable {
    private struct State {
        var ready: [[EventRecord]] = []
        /// Why the input ended early, once it ended.
        var failure: (any Error)?
        var stopped = false
        var parseNanoseconds: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Free places in `ready` (two), for the reader; one more when the consumer stops.
    private let room = DispatchSemaphore(value: 0)
    /// Batches in `ready`, plus one once the input ended, for the consumer.
    private let available = DispatchSemaphore(value: 0)

    init(input: EventInput, format: EventFormat, batchSize: Int) {
        // Counted up from zero: libdispatch refuses to free a semaphore below its initial value.
        room.signal()
        room.signal()
        Thread.detachNewThread { [self] in
            var parser = EventStreamParser(format: format)
            var batch: [EventRecord] = []
            batch.reserveCapacity(batchSize)
            do {
                while let chunk = try input.next() {
                    let started = DispatchTime.now().uptimeNanoseconds
                    let records = parser.feed(chunk)
                    if let problem = parser.fatalProblem { throw EventIngestError.malformedInput(problem) }
                    let parsed = DispatchTime.now().uptimeNanoseconds - started
                    state.withLock { $0.parseNanoseconds += parsed }
                    for record in records {
                        batch.append(record)
                        if batch.count >= batchSize {
                            guard hand(batch) else { return }
                            batch.removeAll(keepingCapacity: true)
                        }
                    }
                }
                batch += parser.finish()
                if let problem = parser.fatalProblem { throw EventIngestError.malformedInput(problem) }
                if !batch.isEmpty { _ = hand(batch) }
                end(nil)
            } catch {
                end(error)
            }
        }
    }

    /// The next batch; nil at the end of the input.
    func next() throws -> [EventRecord]? {
        available.wait()
        let taken = state.withLock { state -> Result<[EventRecord], any Error>? in
            if !state.ready.isEmpty { return .success(state.ready.removeFirst()) }
            return state.failure.map { .failure($0) }
        }
        if case .success = taken {
            room.signal()
        } else {
            available.signal()  // the end stays there for any later call
        }
        return try taken?.get()
    }

    /// The consumer gave up: the reader stops at its next batch.
    func stop() {
        state.withLock { $0.stopped = true }
        room.signal()
    }

    var parseSeconds: Double {
        Double(state.withLock { $0.parseNanoseconds }) / 1e9
    }

    /// Waits for room, then queues the batch; false when the consumer stopped.
    private func hand(_ batch: [EventRecord]) -> Bool {
        room.wait()
        let queued = state.withLock { state in
            guard !state.stopped else { return false }
            state.ready.append(batch)
            return true
        }
        if queued {
            available.signal()
        } else {
            room.signal()  // stopped: the next hand does not wait either
        }
        return queued
    }

    private func end(_ error: (any Error)?) {
        state.withLock { $0.failure = error }
        available.signal()
    }
}

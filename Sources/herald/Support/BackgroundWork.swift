import Foundation

/// Work started on another thread while the caller goes on; `wait()` returns its result.
/// The caller promises not to touch what the work uses until `wait()` returns (a publish
/// stores file contents through its database connection while it writes files to disk).
final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, any Error> = .failure(CancellationError())
    private var waited = false

    init(_ work: @escaping () throws -> Value) {
        let unchecked = UncheckedWork(work)
        Thread.detachNewThread { [self] in
            outcome = Result { try unchecked.work() }
            done.signal()
        }
    }

    /// Blocks until the work is over (once; later calls return the same result).
    func wait() throws -> Value {
        if !waited {
            done.wait()
            waited = true
        }
        return try outcome.get()
    }
}

private struct UncheckedWork<Value>: @unchecked Sendable {
    let work: () throws -> Value
    init(_ work: @escaping () throws -> Value) { self.work = work }
}

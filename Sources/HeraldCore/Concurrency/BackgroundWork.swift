import Foundation
import Synchronization

/// Work started on a thread of its own while the caller goes on; `wait()` returns its result.
///
/// The work is `sending`: whatever it uses (a connection of its own, say) is handed over
/// whole, and the compiler checks that the caller keeps no way to reach it.
public final class BackgroundWork<Value: Sendable>: Sendable {
    /// The work, until the thread takes it.
    private let work: Mutex<(() throws -> Value)?>
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: sending @escaping () throws -> Value) {
        self.work = Mutex(work)
        Thread.detachNewThread { [self] in
            let body = self.work.withLock { $0.take() }
            let outcome = Result { () throws -> Value in
                guard let body else { throw CancellationError() }
                return try body()
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Blocks until the work is over; later calls return the same result at once.
    public func wait() throws -> Value {
        done.wait()
        done.signal()  // for the next call
        return try result.withLock { $0 ?? .failure(CancellationError()) }.get()
    }
}

import Foundation
import Synchronization

/// A value that is not Sendable (a connection, say) made on a thread of its own while the
/// caller goes on, and handed over whole to whoever takes it, once.
///
/// Unlike `BackgroundWork`, whose result may be shared, the value here has one owner at a
/// time: the thread that makes it, then the taker.
public final class BackgroundMade<Value>: Sendable {
    private enum State {
        case toMake(() throws -> Value)
        case made(Result<Value, any Error>)
        case taken
    }

    /// The taker waits for `done` before it looks, so the thread making the value holds the
    /// lock alone while it works.
    private let state: Mutex<State>
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: sending @escaping () throws -> Value) {
        state = Mutex(.toMake(work))
        Thread.detachNewThread { [self] in
            state.withLock { state in
                guard case .toMake(let make) = state else { return }
                state = .made(Result { try make() })
            }
            done.signal()
        }
    }

    /// Blocks until the value is made, and hands it over; a second call throws
    /// `CancellationError`.
    public func take() throws -> sending Value {
        done.wait()
        done.signal()  // a second call finds nothing rather than waiting for ever
        return try state.withLock { state throws -> sending Value in
            guard case .made(let outcome) = state else { throw CancellationError() }
            state = .taken
            return try outcome.get()
        }
    }
}

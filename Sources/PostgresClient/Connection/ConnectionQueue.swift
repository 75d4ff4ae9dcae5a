import Dispatch

/// Owns one `Connection` on a private serial queue, so blocking libpq calls never run on
/// Swift's cooperative thread pool and the connection is only ever touched from one place.
public final class ConnectionQueue: @unchecked Sendable {
    // @unchecked: a serial queue, not a Mutex, guards the non-Sendable libpq connection (its calls block; `run` frees the awaiting thread).
    private let connection: Connection
    private let queue = DispatchQueue(label: "PostgresClient.ConnectionQueue")
    /// Marks the queue, so a call made from inside it runs at once instead of deadlocking.
    private let onQueue = DispatchSpecificKey<Bool>()

    public init(configuration: ConnectionConfiguration) throws {
        connection = try Connection(configuration: configuration)
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Runs `body` on the connection's queue and waits (for synchronous callers). Called from
    /// inside a body already on the queue, it runs there directly (a nested use, not a deadlock).
    public func sync<T>(_ body: (Connection) throws -> T) throws -> T {
        if DispatchQueue.getSpecific(key: onQueue) == true { return try body(connection) }
        return try queue.sync { try body(connection) }
    }

    /// Runs `body` on the connection's queue; the awaiting task's thread is free meanwhile.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(self.connection) })
            }
        }
    }
}

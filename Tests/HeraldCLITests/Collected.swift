import Synchronization

/// What runs started side by side hand back, in the order they finish.
final class Collected<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])

    func add(_ value: Value) { items.withLock { $0.append(value) } }
    var values: [Value] { items.withLock { $0 } }
}

import Synchronization

/// Fixed slots that concurrent iterations (`DispatchQueue.concurrentPerform`) fill, each
/// index by exactly one of them; read back in index order once they are done.
public final class ConcurrentSlots<Element: Sendable>: Sendable {
    private let slots: Mutex<[Element?]>

    public init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    public subscript(index: Int) -> Element? {
        get { slots.withLock { $0[index] } }
        set { slots.withLock { $0[index] = newValue } }
    }

    /// The filled slots, in index order.
    public var values: [Element] { slots.withLock { $0.compactMap { $0 } } }
}

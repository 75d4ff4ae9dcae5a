import Foundation

/// Fixed slots that concurrent iterations (`DispatchQueue.concurrentPerform`) fill, each
/// index by exactly one of them; read back in index order once they are done.
final class ConcurrentSlots<Element>: @unchecked Sendable {
    // Invariant behind @unchecked Sendable: `slots` is only touched under `lock`.
    private let lock = NSLock()
    private var slots: [Element?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    subscript(index: Int) -> Element? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    /// The filled slots, in index order.
    var values: [Element] { lock.withLock { slots.compactMap { $0 } } }
}

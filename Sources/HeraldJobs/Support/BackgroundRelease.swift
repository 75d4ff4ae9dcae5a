import Foundation
import Synchronization

/// Lets go of a large value on a thread of its own. Freeing a whole site's snapshot, compiled
/// files and manifest (hundreds of thousands of allocations) took tens of milliseconds at the
/// end of every publish; neither the caller nor a process about to exit needs to wait for it.
public enum BackgroundRelease {
    /// Set by a process that exits right after its one command (the `herald` binary): values
    /// are then kept, not freed, since the kernel takes the whole process back at once when it
    /// exits; freeing them first only took CPU from the command's last steps.
    public static let keepsUntilExit = Atomic<Bool>(false)

    /// What a process that exits soon keeps (never read: only held).
    private static let kept = Mutex<[any Sendable]>([])

    /// Takes `value` (the caller keeps no copy) and frees it on another thread.
    public static func release<Value>(_ value: sending Value) {
        let box = Holder(value)
        if keepsUntilExit.load(ordering: .relaxed) {
            kept.withLock { $0.append(box) }
            return
        }
        Thread.detachNewThread { box.empty() }
    }

    /// The value until the thread empties it (freed there, whoever drops the holder last).
    private final class Holder<Value>: Sendable {
        private let value: Mutex<Value?>

        init(_ value: sending Value) {
            self.value = Mutex(value)
        }

        func empty() {
            value.withLock { $0 = nil }
        }
    }
}

import Foundation
import Synchronization

/// Ctrl-C as a request to stop at the next safe point: the first SIGINT only sets a flag that
/// long work checks (an ingest stops after the batch it is storing); a second one ends the
/// process as SIGINT always does.
enum InterruptRequest {
    private static let requested = Atomic<Bool>(false)

    /// Whether Ctrl-C was pressed since `install`.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Takes over SIGINT for this process (only the binary does: in-process tests never).
    static func install() {
        requested.store(false, ordering: .relaxed)
        signal(SIGINT) { _ in
            // Async-signal-safe: a lock-free store and signal(2).
            InterruptRequest.requested.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
        // A parent may have started us with SIGINT blocked (a mask is inherited): take it.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// SIGINT back to its default.
    static func uninstall() {
        signal(SIGINT, SIG_DFL)
    }
}

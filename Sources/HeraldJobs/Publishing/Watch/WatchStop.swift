import Foundation

/// How a watching publisher is told to stop: a pipe whose read end becomes readable once a
/// byte is written, and stays so. Writing the byte is async-signal-safe (`write(2)`), so a
/// SIGTERM handler can do it; the watcher's waits poll the read end beside the database's
/// socket, and a run in progress finishes before the watcher looks.
public final class WatchStop: @unchecked Sendable {
    // Both descriptors are written once, here, and only read afterwards.
    /// Polled for reading: readable once a stop was requested.
    public let readDescriptor: Int32
    /// Written by `request()` (or a signal handler).
    public let writeDescriptor: Int32

    public init() {
        var descriptors: [Int32] = [-1, -1]
        // A process out of descriptors cannot watch anything: nothing sensible to go on with.
        guard pipe(&descriptors) == 0 else { fatalError("pipe() failed: \(String(cString: strerror(errno)))") }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Asks the watcher to stop after the run in progress.
    public func request() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    public var isRequested: Bool { sleep(for: .zero) }

    /// Sleeps for `duration` or until a stop is requested; true when one was.
    @discardableResult
    public func sleep(for duration: Duration) -> Bool {
        var descriptor = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + duration
        while true {
            let ready = poll(&descriptor, 1, Self.milliseconds(deadline - ContinuousClock.now))
            if ready > 0 { return true }
            if ready == 0, ContinuousClock.now >= deadline { return false }
            if ready < 0, errno != EINTR { return false }
        }
    }

    /// `duration` in whole milliseconds, rounded up (poll's unit), never negative.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}

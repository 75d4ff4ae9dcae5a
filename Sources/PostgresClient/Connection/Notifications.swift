import CLibPQ
import Foundation

/// One `NOTIFY` a listening connection received.
public struct Notification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the session that sent it.
    public let senderProcessID: Int32
}

/// What woke `waitForNotifications`.
public enum NotificationWait: Sendable, Equatable {
    /// Notifications arrived (in the order they were sent).
    case notified([Notification])
    /// The other descriptor became readable (a wake-up pipe).
    case woken
    /// The timeout passed.
    case timedOut
}

extension Connection {
    /// `LISTEN channel`: the name is quoted by libpq as an identifier, so any text is one channel.
    public func listen(_ channel: String) throws {
        guard let escaped = PQescapeIdentifier(handle, channel, channel.utf8.count) else { throw connectionError() }
        defer { PQfreemem(escaped) }
        try execute("LISTEN \(UnsafeSQL(String(cString: escaped)))")
    }

    /// Waits, without a thread spinning, until a notification arrives, `wakeDescriptor` (if
    /// any) becomes readable, or `timeout` (nil: none) passes: `poll` on the connection's socket,
    /// then libpq reads what came (`PQconsumeInput`) and hands out the notifications
    /// (`PQnotifies`). Notifications already read (during a statement) are returned at once.
    /// A lost connection throws a `.connection` error.
    public func waitForNotifications(timeout: Duration?, wakeDescriptor: Int32? = nil) throws -> NotificationWait {
        guard !isInTransaction else {
            throw PostgresError(kind: .usage, message: "notifications are delivered between transactions: wait outside one")
        }
        try sendPending()
        var received = try readNotifications()
        if !received.isEmpty { return .notified(received) }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw connectionError() }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wakeDescriptor { descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds: Int32 = timeout.map { timeout in
            let (seconds, attoseconds) = timeout.components
            let total = max(0, seconds) * 1000 + (seconds >= 0 ? (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000 : 0)
            return Int32(clamping: total)
        } ?? -1
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if ready < 0 {
            // A signal arrived (EINTR): the caller looks at why it was woken and waits again.
            guard errno == EINTR else { throw PostgresError(kind: .connection, message: "poll failed: \(String(cString: strerror(errno)))") }
            return .timedOut
        }
        if descriptors[0].revents != 0 {
            received = try readNotifications()
            if !received.isEmpty { return .notified(received) }
        }
        if descriptors.count > 1, descriptors[1].revents != 0 { return .woken }
        return .timedOut
    }

    /// What libpq has read and not handed out yet, after reading what the socket holds.
    private func readNotifications() throws -> [Notification] {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { throw lostWhileListening() }
        var received: [Notification] = []
        while let notify = PQnotifies(handle) {
            let value = notify.pointee
            received.append(
                Notification(
                    channel: value.relname.map { String(cString: $0) } ?? "", payload: value.extra.map { String(cString: $0) } ?? "",
                    senderProcessID: value.be_pid))
            PQfreemem(notify)
        }
        return received
    }

    /// A connection that failed while it waited is lost, whatever libpq's words were.
    private func lostWhileListening() -> PostgresError {
        var error = connectionError()
        error.kind = .connection
        return error
    }
}

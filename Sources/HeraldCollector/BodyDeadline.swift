import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// A request body read whole within a deadline. The server's read timeout counts from the
/// last byte received, so a client sending one byte a second would hold a connection (and
/// up to 1 MiB of memory) for ever; this counts from when the body was first asked for.
enum BodyDeadline {
    enum Outcome {
        case arrived(ByteBuffer)
        /// More than the limit (HTTP 413).
        case tooLarge
        /// Not whole when the deadline passed (HTTP 408); the connection reads no more.
        case late
        /// Not an HTTP body (a chunk's size that is no number, say): the connection is still open.
        case malformed
        /// The client closed the connection first.
        case abandoned
    }

    /// `seconds`: the server's read timeout. The deadline is a quarter of a second earlier, so
    /// that a body that stopped arriving altogether is answered 408 here before that timeout
    /// (counted from the head's last byte) closes its connection unanswered. At the deadline
    /// the connection's input is closed (a timer on its event loop, cancelled when the body is
    /// in): the body then ends, unfinished, and Hummingbird closes the connection once the
    /// answer is written, instead of reading what the client still trickles in.
    static func collect(_ body: RequestBody, upTo limit: Int, within seconds: Int64, channel: any Channel) async -> Outcome {
        let passed = Passed()
        let timer = channel.eventLoop.scheduleTask(in: .seconds(seconds) - .milliseconds(250)) {
            passed.flag.store(true, ordering: .relaxed)
            channel.close(mode: .input, promise: nil)
        }
        defer { timer.cancel() }
        do {
            return .arrived(try await body.collect(upTo: limit))
        } catch is NIOTooManyBytesError {
            return .tooLarge
        } catch {
            if passed.flag.load(ordering: .relaxed) { return .late }
            // The parser says "the connection ended" (invalidEOFState) when its client left
            // mid-body, and names what is wrong when a body is no HTTP body.
            if let parserError = error as? HTTPParserError, parserError != .invalidEOFState { return .malformed }
            return .abandoned
        }
    }

    private final class Passed: Sendable {
        let flag = Atomic(false)
    }
}

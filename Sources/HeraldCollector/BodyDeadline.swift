import Hummingbird
import NIOCore

/// A request body read whole within a deadline. The server's read timeout counts from the
/// last byte received, so a client sending one byte a second would hold a connection (and
/// up to 1 MiB of memory) for ever; this counts from when the body was first asked for.
enum BodyDeadline {
    enum Outcome {
        case arrived(ByteBuffer)
        /// More than the limit (HTTP 413).
        case tooLarge
        /// Not whole when the deadline passed (HTTP 408).
        case late
        /// The client closed the connection, or sent something that is no HTTP body, first.
        case abandoned
    }

    /// `seconds`: the server's read timeout. The deadline is a quarter of a second earlier, so
    /// that a body that stopped arriving altogether is answered 408 here before that timeout
    /// (counted from the head's last byte) closes its connection unanswered.
    static func collect(_ body: RequestBody, upTo limit: Int, within seconds: Int64) async -> Outcome {
        let deadline = Duration.seconds(seconds) - .milliseconds(250)
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    return .arrived(try await body.collect(upTo: limit))
                } catch is NIOTooManyBytesError {
                    return .tooLarge
                } catch {
                    return Task.isCancelled ? nil : .abandoned
                }
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return Task.isCancelled ? nil : .late
            }
            var outcome = Outcome.abandoned
            if let first = await group.next(), let first { outcome = first }
            group.cancelAll()
            return outcome
        }
    }

    /// Stops reading a connection whose body came too late, once its answer is on its way: the
    /// input side at once (Hummingbird then finds no more body to read and closes it after the
    /// answer), and the whole connection shortly after, should that not be possible.
    static func close(_ channel: any Channel) {
        channel.close(mode: .input, promise: nil)
        channel.eventLoop.scheduleTask(in: .milliseconds(200)) { channel.close(promise: nil) }
    }
}

import HeraldJobs

/// How `herald collect` runs: where it listens, its limits and its timeouts.
public struct CollectorConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// A request's head and body must arrive within this many seconds of the connection's
    /// last request (a slow client, or a body that never ends, is cut off then); also how long
    /// an idle keep-alive connection stays open.
    public var readTimeoutSeconds: Int64 = 15
    /// The largest body a request may have.
    public var maxBodyBytes = 1 << 20
    /// Retry-After while the database is unreachable.
    public var unavailableRetryAfterSeconds = 5
    /// How often the activity line is logged (when there was activity).
    public var activityLogSeconds = 60
    public var store = EventCollector.Settings()
    /// Swift concurrency's jobs run on NIO's event loops (false, for measuring: on Swift's own
    /// pool, a hop each way per read, commit and write).
    public var tasksOnEventLoops = true

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// Why the collector could not run.
public enum CollectorError: Error, CustomStringConvertible {
    /// The address cannot be listened on (in use, not this machine's, not allowed).
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        }
    }
}

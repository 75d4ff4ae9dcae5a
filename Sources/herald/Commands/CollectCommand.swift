import ArgumentParser
import Foundation
import HeraldCollector
import HeraldCore
import HeraldJobs

/// `herald collect`: the HTTP collector devices report delivery events to.
struct CollectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Collect delivery events from devices over HTTP; a 200 means the events are committed and in the reports.",
        discussion: """
            POST /v1/events with Authorization: Bearer <app key> (`herald app key create`) and a body of NDJSON \
            (Content-Type: application/x-ndjson) or a JSON array (application/json) of events in the format of \
            docs/events.md; tenant and app may be left out (the key says them). The answer, 200 \
            {"accepted":N,"duplicate":N,"rejected":[{"index":I,"reason":"…"}]}, comes only after the batch's \
            transaction committed, rollups included; requests arriving together share one transaction. An event \
            dated over a day ahead of this clock or over 366 days back is rejected alone. Refused, storing \
            nothing: 401 unknown or revoked key, 413 a body over 1 MiB or over 1,000 events (or --key-burst), 400 \
            not NDJSON/JSON, 415 another Content-Type, 417 an Expect other than 100-continue (which is met once \
            the head passed these checks), 408 a body not in within --read-timeout, 429 (Retry-After) past \
            --key-rate, 503 (Retry-After) while PostgreSQL is unreachable. A connection the client does not keep \
            alive (HTTP/1.0, Connection: close) is closed once answered. Also GET /healthz, /readyz and /metrics \
            (Prometheus): serve only /v1/ to the internet (deploy/nginx.conf does).

            Runs until SIGTERM or Ctrl-C, then answers the requests in flight and exits 0. Logs a line per \
            minute of activity to standard error. Several collectors may run against one database.

            Example: herald collect --listen 0.0.0.0:8081
            """)

    @Option(help: "Address and port to listen on (port 0: any free port, logged).")
    var listen = "127.0.0.1:8080"

    // Numbers are read as given (`--key-rate -5` is refused as a number, not as a missing value).
    @Option(parsing: .unconditional, help: "Events a second each app key may send to this collector (429 beyond it).")
    var keyRate = 100_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Events each app key may send at once before --key-rate holds it back (default: twice the rate, at least 1000).",
            discussion: "Keep it at least the largest batch your clients send (HeraldReporter: 500): a larger batch gets 413."))
    var keyBurst: Int?

    @Option(parsing: .unconditional, help: "Seconds a request may take to arrive, head and body (slow clients are cut off).")
    var readTimeout = 15

    @Option(parsing: .unconditional, help: "Connections storing events at once (1 to 8).")
    var connections = 2

    @Option(help: .hidden) var activityLogSeconds = 60

    /// The most events one commit takes (for measuring; the default suits the 2-core reference machine).
    @Option(help: .hidden) var maxEventsPerCommit: Int?

    /// Requests' tasks on Swift's own pool instead of NIO's event loops (for measuring what that costs).
    @Flag(help: .hidden) var swiftPool = false

    func run() throws {
        try reportingFailures {
            let (host, port) = try Self.address(listen)
            guard keyRate >= 1 else { throw InputError(message: "--key-rate must be at least 1, not \(keyRate)", code: ExitStatus.usage) }
            if let keyBurst, keyBurst < 1 {
                throw InputError(message: "--key-burst must be at least 1, not \(keyBurst)", code: ExitStatus.usage)
            }
            guard (1...300).contains(readTimeout) else {
                throw InputError(message: "--read-timeout must be 1 to 300 seconds, not \(readTimeout)", code: ExitStatus.usage)
            }
            guard (1...8).contains(connections) else {
                throw InputError(message: "--connections must be 1 to 8, not \(connections)", code: ExitStatus.usage)
            }
            if let maxEventsPerCommit, maxEventsPerCommit < 1 {
                throw InputError(message: "--max-events-per-commit must be at least 1, not \(maxEventsPerCommit)", code: ExitStatus.usage)
            }
            // Checked (reachable, current schema, Herald's own login), then closed: the collector opens its own.
            let connector = try Environment.openDatabase(ownerOnly: "collecting events").connector
            var configuration = CollectorConfiguration(host: host, port: port)
            configuration.readTimeoutSeconds = Int64(readTimeout)
            configuration.activityLogSeconds = activityLogSeconds
            configuration.store.committers = connections
            if let maxEventsPerCommit { configuration.store.maxEventsPerCommit = maxEventsPerCommit }
            configuration.tasksOnEventLoops = !swiftPool
            configuration.store.eventsPerSecondPerKey = Double(keyRate)
            configuration.store.burstPerKey = Double(keyBurst ?? max(keyRate * 2, 1_000))
            do {
                try CollectorServer.run(configuration, connector: connector) { _ in }
            } catch let error as CollectorError {
                throw InputError(message: error.description, code: ExitStatus.unavailable)
            }
        }
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6).
    static func address(_ text: String) throws -> (String, Int) {
        let problem = InputError(
            message: "--listen must be HOST:PORT (like 127.0.0.1:8080, 0.0.0.0:8081 or [::1]:8080), not \(Excerpt.quoted(text))",
            code: ExitStatus.usage)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw problem
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw problem }
        return (host, port)
    }
}

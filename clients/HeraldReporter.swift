// HeraldReporter: the reference device client for `herald collect` (Foundation only: drop
// this one file into an iOS or macOS app; it also runs on Linux, where Herald's tests run it
// against a real collector).
//
//     let reporter = try HeraldReporter(configuration: .init(
//         endpoint: URL(string: "https://collect.example.com/v1/events")!,
//         appKey: "hrk_…",                                   // `herald app key create APP`
//         directory: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
//             .appendingPathComponent("HeraldReporter")))
//     reporter.record(campaign: "spring-sale", kind: .impression, device: deviceID, locale: "de", appVersion: "3.1.0")
//
// What it promises:
// - Every event is written to an on-disk queue when it is recorded (one JSON line, appended),
//   so it survives the app being killed; it leaves the queue only once the collector
//   answered 200 for it, which Herald gives only after the event is committed.
// - Each event's id is made once, when it is recorded: a batch sent again (a timeout, a crash
//   between the 200 and the queue's rewrite) comes back as duplicates, never a double count.
// - It sends when 20 events wait, or every 30 s while any wait, at most 500 per request.
// - Network errors, 408, 429 and 5xx are retried with exponential backoff and jitter, never
//   sooner than a Retry-After; other 4xx (a revoked key, a body refused) keep the events and
//   wait the longest backoff; a 413 halves the batch. Events the collector rejected in a
//   200 (malformed, an unknown campaign) are dropped, with their indexes and reasons logged.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public final class HeraldReporter: @unchecked Sendable {  // all state is confined to `queue`
    public enum Kind: String, Sendable {
        case delivered, impression, click, dismiss
    }

    public struct Configuration: @unchecked Sendable {
        /// The collector's events URL (`…/v1/events`).
        public var endpoint: URL
        /// The app key (`herald app key create APP`): it says the tenant and the app.
        public var appKey: String
        /// Where the queue is kept (created if missing).
        public var directory: URL
        public var flushCount = 20
        public var flushInterval: TimeInterval = 30
        public var maxBatch = 500
        /// Backoff: the first delay, and the longest.
        public var initialBackoff: TimeInterval = 1
        public var maxBackoff: TimeInterval = 300
        public var timeout: TimeInterval = 30
        public var session: URLSession = .shared
        /// Where the reporter says what went wrong (rejected events, refusals).
        public var log: @Sendable (String) -> Void = { print("HeraldReporter: \($0)") }

        public init(endpoint: URL, appKey: String, directory: URL) {
            self.endpoint = endpoint
            self.appKey = appKey
            self.directory = directory
        }
    }

    public let configuration: Configuration
    private let queue = DispatchQueue(label: "HeraldReporter")
    private let queueFile: URL
    private var queued: Int
    private var sending = false
    private var stopped = false
    private var failures = 0
    private var notBefore = Date.distantPast
    private var batchLimit: Int
    private var timer: DispatchSourceTimer?
    private let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        batchLimit = max(1, configuration.maxBatch)
        try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        queueFile = configuration.directory.appendingPathComponent("queue.ndjson")
        if !FileManager.default.fileExists(atPath: queueFile.path) {
            _ = FileManager.default.createFile(atPath: queueFile.path, contents: nil)
        }
        queued = Self.lines(of: queueFile).count
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + configuration.flushInterval, repeating: configuration.flushInterval)
        timer.setEventHandler { [weak self] in self?.send(force: true) }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer?.cancel()
    }

    /// Records an event: queued on disk before this returns. Returns its id.
    @discardableResult
    public func record(
        campaign: String, kind: Kind, device: String, locale: String, appVersion: String, osVersion: String? = nil, at: Date = Date()
    ) -> UUID {
        let id = UUID()
        var event: [String: String] = [
            "event_id": id.uuidString.lowercased(), "campaign": campaign, "kind": kind.rawValue, "device": device,
            "at": formatter.string(from: at), "locale": locale, "app_version": appVersion,
        ]
        if let osVersion { event["os_version"] = osVersion }
        guard let line = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else { return id }
        queue.sync {
            append(line + Data("\n".utf8))
            queued += 1
            if queued >= configuration.flushCount { send(force: false) }
        }
        return id
    }

    /// Sends what waits now (outside any backoff), as the timer does.
    public func flush() {
        queue.async { self.send(force: true) }
    }

    /// Events still waiting on disk.
    public var pendingCount: Int { queue.sync { queued } }

    /// Stops sending, as if the app ended: the queue stays on disk for the next start, and a
    /// request in flight is forgotten (its events are sent again then, and count once).
    public func stop() {
        queue.sync {
            stopped = true
            timer?.cancel()
            timer = nil
        }
    }

    // MARK: On `queue`

    private func append(_ data: Data) {
        if !FileManager.default.fileExists(atPath: queueFile.path) {
            _ = FileManager.default.createFile(atPath: queueFile.path, contents: nil)
        }
        guard let handle = try? FileHandle(forWritingTo: queueFile) else {
            configuration.log("cannot write the queue at \(queueFile.path): the event is lost")
            return
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: data)
    }

    private static func lines(of file: URL) -> [Data] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        // A line cut short by a kill mid-append has no newline yet: it is dropped, never sent half.
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Data($0) }
        if let last = data.last, last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }

    private func send(force: Bool) {
        guard !stopped, !sending, queued > 0, Date() >= notBefore, force || queued >= configuration.flushCount else { return }
        let batch = Array(Self.lines(of: queueFile).prefix(batchLimit))
        guard !batch.isEmpty else {
            queued = 0
            return
        }
        sending = true
        var request = URLRequest(url: configuration.endpoint, timeoutInterval: configuration.timeout)
        request.httpMethod = "POST"
        request.setValue("Bearer \(configuration.appKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = batch.reduce(into: Data()) { body, line in body += line + Data("\n".utf8) }
        configuration.session.dataTask(with: request) { data, response, error in
            self.queue.async { self.finished(batch, data: data, response: response as? HTTPURLResponse, error: error) }
        }.resume()
    }

    private func finished(_ batch: [Data], data: Data?, response: HTTPURLResponse?, error: (any Error)?) {
        sending = false
        guard !stopped else { return }
        guard let response, error == nil else {
            backOff(retryAfter: nil, "network error: \(error.map { "\($0.localizedDescription)" } ?? "no response")")
            return
        }
        switch response.statusCode {
        case 200:
            failures = 0
            notBefore = .distantPast
            batchLimit = max(1, configuration.maxBatch)
            if let data, let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let rejected = answer["rejected"] as? [[String: Any]], !rejected.isEmpty
            {
                for item in rejected {
                    configuration.log("event \(item["index"] ?? "?") of a batch of \(batch.count) rejected: \(item["reason"] ?? "?")")
                }
            }
            removeSent(batch.count)
            if queued >= configuration.flushCount { send(force: false) }
        case 408, 429, 500...599:
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
            backOff(retryAfter: retryAfter, "HTTP \(response.statusCode)")
        case 413:
            batchLimit = max(1, batch.count / 2)
            configuration.log("HTTP 413: sending at most \(batchLimit) events per request")
            if batch.count > 1 { send(force: true) } else { keep(response.statusCode, data) }
        default:
            keep(response.statusCode, data)
        }
    }

    /// A refusal a retry cannot fix soon (a revoked key, say): the events stay queued, and the
    /// next try waits the longest backoff.
    private func keep(_ status: Int, _ data: Data?) {
        failures += 1
        notBefore = Date().addingTimeInterval(configuration.maxBackoff)
        let message = data.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? ""
        configuration.log("HTTP \(status), events kept for a later try: \(message)")
    }

    private func backOff(retryAfter: TimeInterval?, _ why: String) {
        failures += 1
        let exponential = min(configuration.maxBackoff, configuration.initialBackoff * pow(2, Double(min(failures - 1, 30))))
        let jittered = exponential * Double.random(in: 0.5...1.0)
        let delay = max(jittered, retryAfter ?? 0)
        notBefore = Date().addingTimeInterval(delay)
        configuration.log("\(why): retrying in \(String(format: "%.1f", delay)) s")
        queue.asyncAfter(deadline: .now() + delay) { self.send(force: true) }
    }

    /// Drops the first `count` lines (the batch just stored) and keeps what was recorded since.
    private func removeSent(_ count: Int) {
        let remaining = Array(Self.lines(of: queueFile).dropFirst(count))
        let body = remaining.reduce(into: Data()) { body, line in body += line + Data("\n".utf8) }
        do {
            // Written beside it and renamed over it: a kill leaves the old queue or the new one.
            try body.write(to: queueFile, options: .atomic)
        } catch {
            configuration.log("cannot rewrite the queue (\(error.localizedDescription)): the events sent stay queued and count as duplicates")
        }
        queued = remaining.count
    }
}

import CoreMetrics
import Foundation
import HeraldCore
import HeraldJobs
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// `POST /v1/events`: every refusal with its status and nothing stored; 200 with the counts
/// only after the batch's transaction committed.
struct EventsEndpoint: Sendable {
    let collector: EventCollector
    let configuration: CollectorConfiguration
    let metrics: CollectorMetrics
    let activity: ActivityLog

    func handle(_ request: Request, channel: any Channel) async -> Response {
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let started = ContinuousClock.now
        let (response, outcome) = await respond(request, channel: channel)
        let seconds = (ContinuousClock.now - started).inSeconds
        let status = response.status.code
        metrics.requestFinished(status: status)
        metrics.requestSeconds.recordSeconds(seconds)
        if let outcome { metrics.events(accepted: outcome.accepted, duplicate: outcome.duplicate, rejected: outcome.rejected.count) }
        activity.record(
            status: status, seconds: seconds, accepted: outcome?.accepted ?? 0, duplicate: outcome?.duplicate ?? 0,
            rejected: outcome?.rejected.count ?? 0)
        return response
    }

    private func respond(_ request: Request, channel: any Channel) async -> (Response, CollectedOutcome?) {
        // Who first: a request without a key in force learns nothing else, and sends no body.
        guard let scope = collector.authenticate(authorization: request.headers[.authorization]) else {
            return (
                Self.refusal(
                    .unauthorized, "missing, unknown or revoked app key: send Authorization: Bearer <app key>",
                    extra: [.wwwAuthenticate: "Bearer realm=\"herald\""]), nil
            )
        }
        guard let format = Self.format(request.headers[.contentType]) else {
            return (
                Self.refusal(
                    .unsupportedMediaType,
                    "Content-Type must be application/x-ndjson (one event per line) or application/json (an array of events), in UTF-8"),
                nil
            )
        }
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
            return (Self.refusal(.unsupportedMediaType, "send the body uncompressed (no Content-Encoding)"), nil)
        }
        // A transfer coding besides chunked (gzip, say) would reach the parser still coded.
        if let coding = request.headers[.transferEncoding],
            coding.split(separator: ",").contains(where: { !["chunked", "identity"].contains($0.trimmingCharacters(in: .whitespaces).lowercased()) })
        {
            return (Self.refusal(.unsupportedMediaType, "send the body uncompressed (Transfer-Encoding: chunked at most)"), nil)
        }
        let limit = configuration.maxBodyBytes
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            return (Self.refusal(.contentTooLarge, Self.tooLarge(limit)), nil)
        }
        // A client that asks before sending its body (`Expect: 100-continue`, as curl does for a
        // large one) is told to go on once the head passed every check above; unanswered, it
        // would wait a second, then send.
        switch Self.expectation(request.headers[.expect]) {
        case .none: break
        case .continue: channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)), promise: nil)
        case .unknown:
            return (Self.refusal(.expectationFailed, "the only Expect this collector meets is 100-continue: nothing was stored"), nil)
        }
        let body: ByteBuffer
        switch await BodyDeadline.collect(request.body, upTo: limit, within: configuration.readTimeoutSeconds, channel: channel) {
        case .arrived(let whole): body = whole
        case .tooLarge: return (Self.refusal(.contentTooLarge, Self.tooLarge(limit)), nil)
        case .late:
            let seconds = configuration.readTimeoutSeconds
            return (Self.refusal(.requestTimeout, "the body did not arrive within \(seconds) s: nothing was stored", extra: [.connection: "close"]), nil)
        case .malformed:
            return (Self.refusal(.badRequest, "the body is not well-formed HTTP (its chunks, or its length): nothing was stored"), nil)
        case .abandoned:
            // No one to answer: counted apart from the answers (nginx's 499, "client closed request").
            return (Self.refusal(Self.clientClosedRequest, "the body did not arrive whole"), nil)
        }
        let records: [EventRecord]
        do {
            records = try CollectedBatch.records(
                Array(body.readableBytesView), format: format, tenant: scope.tenant, app: scope.app,
                receivedAt: Int64(Date().timeIntervalSince1970))
        } catch .tooManyEvents(let limit) {
            return (Self.refusal(.contentTooLarge, CollectedBodyProblem.tooManyEvents(limit: limit).description), nil)
        } catch {
            return (Self.refusal(.badRequest, error.description), nil)
        }
        // More than a key's burst never passes, however long it waits: 413 (a client halves its batch).
        let burst = Int(configuration.store.burstPerKey)
        if records.count > burst {
            return (
                Self.refusal(
                    .contentTooLarge,
                    "this collector takes at most \(burst) events a request from one app key (its --key-burst): send smaller batches"), nil
            )
        }
        if let wait = collector.admit(scope, events: records.count) {
            return (
                Self.refusal(
                    .tooManyRequests, "this app key sends more events than the collector takes: retry after \(wait) s",
                    extra: [.retryAfter: String(wait)]), nil
            )
        }
        metrics.queued.increment(by: Double(records.count))
        let result = await collector.store(records)
        metrics.queued.decrement(by: Double(records.count))
        switch result {
        case .success(let outcome):
            return (Self.json(.ok, Self.acknowledgement(outcome)), outcome)
        case .failure(.unavailable):
            let wait = String(configuration.unavailableRetryAfterSeconds)
            return (Self.refusal(.serviceUnavailable, "the event store is unavailable: nothing was stored; retry later", extra: [.retryAfter: wait]), nil)
        case .failure(.overloaded), .failure(.stopping):
            return (Self.refusal(.serviceUnavailable, "the collector is busy: nothing was stored; retry shortly", extra: [.retryAfter: "1"]), nil)
        case .failure(.failed):
            return (Self.refusal(.internalServerError, "the event store failed: nothing was stored; retry later"), nil)
        }
    }

    enum Expectation { case none, `continue`, unknown }

    /// What an `Expect` header asks for (RFC 9110 §10.1.1: 100-continue is the only expectation).
    static func expectation(_ value: String?) -> Expectation {
        guard let value else { return .none }
        return value.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" ? .continue : .unknown
    }

    /// What the metrics and the activity line count a request as whose client left before its
    /// body arrived (nginx's name and number for it): no answer reaches anyone.
    static let clientClosedRequest = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")

    /// The body format a Content-Type names; nil for another type, or a charset other than UTF-8
    /// (the only one JSON has: RFC 8259).
    static func format(_ contentType: String?) -> CollectedBodyFormat? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            let charset = parameter.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard charset == "utf-8" || charset == "utf8" else { return nil }
        }
        switch parts.first {
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines": return .ndjson
        case "application/json": return .jsonArray
        default: return nil
        }
    }

    private static func tooLarge(_ limit: Int) -> String {
        "the body is larger than \(limit >> 20) MiB: send fewer events per request"
    }

    /// `{"accepted":N,"duplicate":N,"rejected":[{"index":I,"reason":"…"}]}`
    static func acknowledgement(_ outcome: CollectedOutcome) -> String {
        let rejected = outcome.rejected.map { "{\"index\":\($0.index),\"reason\":\(JSONText.quoted($0.reason))}" }
        return "{\"accepted\":\(outcome.accepted),\"duplicate\":\(outcome.duplicate),\"rejected\":[\(rejected.joined(separator: ","))]}"
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        json(status, "{\"error\":\(JSONText.quoted(message))}", extra: extra)
    }

    static func json(_ status: HTTPResponse.Status, _ text: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

extension Duration {
    var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

extension CoreMetrics.Timer {
    func recordSeconds(_ seconds: Double) {
        recordNanoseconds(Int64(seconds * 1e9))
    }
}

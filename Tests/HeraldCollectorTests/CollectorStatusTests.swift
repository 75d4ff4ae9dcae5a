import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Testing

/// Every answer `herald collect` gives, from a real process on a real PostgreSQL: 200 only
/// once the events are committed and in the reports; every refusal with its status, and nothing
/// stored for it.
@Suite struct CollectorStatusTests {
    @Test func anAcknowledgedEventIsAlreadyInTheReportsAndDuplicatesCountOnce() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            for n in 0..<5 {
                let reply = try collector.post(CollectorFixture.events(1, first: n), key: key)
                #expect(reply.status == 200 && reply.accepted == 1 && reply.duplicate == 0, "\(reply)")
                // No lag: at the moment of the 200 the event is in reporting.campaign_summary.
                #expect(try CollectorFixture.stored(database).summary == n + 1)
            }
            let again = try collector.post(CollectorFixture.events(5), key: key)
            #expect(again.status == 200 && again.accepted == 0 && again.duplicate == 5, "\(again)")
            #expect(again.headers["content-type"] == "application/json")

            // A JSON array works as NDJSON does; an id twice in one batch counts once.
            let lines = CollectorFixture.events(3, first: 10).split(separator: "\n")
            let array = "[" + (lines + [lines[0]]).joined(separator: ",") + "]"
            let fromArray = try collector.post(array, key: key, contentType: "application/json; charset=utf-8")
            #expect(fromArray.status == 200 && fromArray.accepted == 3 && fromArray.duplicate == 1, "\(fromArray)")
            let stored = try CollectorFixture.stored(database)
            #expect(stored.ids == 8 && stored.raw == 8 && stored.summary == 8)
            #expect(try rollupDisagreements(Connection(configuration: database)).differences == 0)
        }
    }

    @Test func badEventsAreRejectedAloneWithTheirIndexAndTheRestLands() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let good = CollectorFixture.events(2, first: 100).split(separator: "\n").map(String.init)
            let otherTenant = good[0].replacingOccurrences(of: "00000000-0000-4000-8000-000000000100", with: "00000000-0000-4000-8000-000000000900")
                .replacingOccurrences(of: "{", with: #"{"tenant":"globex","#)
            let otherApp = good[0].replacingOccurrences(of: "00000000-0000-4000-8000-000000000100", with: "00000000-0000-4000-8000-000000000901")
                .replacingOccurrences(of: "{", with: #"{"app":"radar","#)
            let ownTenantNamed = good[1].replacingOccurrences(of: "{", with: #"{"tenant":"acme","app":"weather","#)
            let unknownCampaign = good[0].replacingOccurrences(of: "00000000-0000-4000-8000-000000000100", with: "00000000-0000-4000-8000-000000000902")
                .replacingOccurrences(of: #""campaign":"welcome""#, with: #""campaign":"no-such-campaign""#)
            let body = [good[0], "not json", otherTenant, "", otherApp, ownTenantNamed, unknownCampaign].joined(separator: "\n")
            let reply = try collector.post(body, key: key)
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.accepted == 2, "\(reply)")
            let rejected = reply.rejected
            #expect(rejected.map { $0["index"] as? Int } == [1, 2, 3, 5], "\(reply)")
            let reasons = rejected.compactMap { $0["reason"] as? String }
            #expect(reasons.count == 4 && reasons[1].contains("tenant \"globex\" is not this app key's tenant"), "\(reasons)")
            #expect(reasons.count == 4 && reasons[2].contains("app \"radar\" is not this app key's app"), "\(reasons)")
            #expect(reasons.count == 4 && reasons[3] == "unknown campaign \"no-such-campaign\" in acme/weather", "\(reasons)")
            #expect(try CollectorFixture.stored(database).ids == 2)
        }
    }

    @Test func everyRefusedRequestHasItsStatusAndStoresNothing() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let revoked = try CollectorFixture.newKey(database, tenant: "acme", app: "weather")
            let revokedID = try CollectorFixture.count(database, "SELECT max(id)::int AS n FROM app_keys")
            try HeraldCLI(database: database).succeed(["app", "key", "revoke", "weather", String(revokedID), "--tenant", "acme"])
            let collector = try RunningCollector(database: database)
            let before = try HeraldFixtures.fingerprint(database)
            let events = CollectorFixture.events(3)

            for badKey: String? in [nil, "hrk_" + String(repeating: "A", count: 43), "not-a-key", revoked] {
                let reply = try collector.post(events, key: badKey)
                #expect(reply.status == 401, "\(String(describing: badKey)): \(reply)")
                #expect(reply.headers["www-authenticate"]?.hasPrefix("Bearer") == true, "\(reply)")
                #expect(reply.json["error"] as? String == "missing, unknown or revoked app key: send Authorization: Bearer <app key>")
            }
            #expect(try collector.post(events, key: key, contentType: "text/plain").status == 415)
            #expect(try collector.post(events, key: key, contentType: "application/x-ndjson", headers: ["Content-Encoding": "gzip"]).status == 415)
            for type in ["application/x-ndjson; charset=utf-16", "application/json;charset=latin1", "application/json; charset=\"UTF-16\""] {
                #expect(try collector.post(events, key: key, contentType: type).status == 415, "\(type)")
            }
            #expect(try chunked(collector.port, key: key, body: events, codings: "gzip, chunked").status == 415)
            // A chunk whose size is no number: the body is no HTTP body (400, not a timeout).
            let broken = try RawHTTP.connect(port: collector.port)
            defer { close(broken) }
            try RawHTTP.send(
                broken,
                Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n".utf8))
            let brokenReply = try RawHTTP.parse(RawHTTP.readAll(broken))
            #expect(brokenReply.status == 400, "\(brokenReply)")
            // Over 1 MiB: refused by its Content-Length, and by its bytes when it has none (chunked).
            let big = String(repeating: " ", count: (1 << 20) + 1)
            #expect(try collector.post(big, key: key).status == 413)
            #expect(try chunked(collector.port, key: key, body: big).status == 413)
            let tooMany = CollectorFixture.events(1_001)
            let many = try collector.post(tooMany, key: key)
            #expect(many.status == 413 && (many.json["error"] as? String)?.contains("at most 1000 events") == true, "\(many)")
            for garbage in ["", "\n\n", "this is not json\nnor this", "<html></html>"] {
                let reply = try collector.post(garbage, key: key)
                #expect(reply.status == 400, "\(garbage.debugDescription): \(reply)")
            }
            for garbage in ["[", "[{}", "{\"a\":1} trailing", "[1,]"] {
                let reply = try collector.post(garbage, key: key, contentType: "application/json")
                #expect(reply.status == 400, "\(garbage.debugDescription): \(reply)")
            }
            #expect(try collector.get("/v1/nothing").status == 404)
            #expect(try HeraldFixtures.fingerprint(database) == before)
        }
    }

    @Test func aKeyPastItsRateGets429WithRetryAfterAndNothingStored() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database, arguments: ["--key-rate", "10", "--key-burst", "20"])
            // More than the burst at once never passes, however long it waits: 413, not 429.
            let tooMany = try collector.post(CollectorFixture.events(21), key: key)
            #expect(tooMany.status == 413, "\(tooMany)")
            #expect(
                tooMany.json["error"] as? String
                    == "this collector takes at most 20 events a request from one app key (its --key-burst): send smaller batches")
            #expect(try CollectorFixture.stored(database).ids == 0)
            // A burst of twice the rate, then refusals.
            let first = try collector.post(CollectorFixture.events(20), key: key)
            #expect(first.status == 200, "\(first)")
            let before = try HeraldFixtures.fingerprint(database)
            let refused = try collector.post(CollectorFixture.events(10, first: 20), key: key)
            #expect(refused.status == 429, "\(refused)")
            #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "\(refused)")
            #expect(try HeraldFixtures.fingerprint(database) == before)
        }
    }

    @Test func healthReadinessAndMetrics() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            #expect(try collector.get("/healthz").status == 200)
            #expect(try collector.get("/readyz").status == 200)
            #expect(try collector.post(CollectorFixture.events(4), key: key).status == 200)
            #expect(try collector.post(CollectorFixture.events(1), key: nil).status == 401)
            let metrics = try collector.get("/metrics")
            #expect(metrics.status == 200)
            for line in [
                #"herald_collect_requests_total{status="200"} 1"#, #"herald_collect_requests_total{status="401"} 1"#,
                #"herald_collect_events_total{outcome="accepted"} 4"#, "herald_collect_commit_seconds_count 1",
                "herald_collect_requests_in_flight", "herald_collect_request_seconds_bucket",
            ] {
                #expect(metrics.body.contains(line), "\(line) missing from:\n\(metrics.body)")
            }
        }
    }

    @Test func slowClientsAndEndlessBodiesAreCutOff() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database, arguments: ["--read-timeout", "1"])
            // Slowloris: a head that never ends.
            let slow = try RawHTTP.connect(port: collector.port)
            defer { close(slow) }
            try RawHTTP.send(slow, Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n".utf8))
            // A body that never ends.
            let endless = try RawHTTP.connect(port: collector.port)
            defer { close(endless) }
            try RawHTTP.send(
                endless,
                Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n{".utf8))
            // A body that comes a byte every 200 ms: each byte is in time, the whole never is.
            let trickling = try RawHTTP.connect(port: collector.port)
            defer { close(trickling) }
            try RawHTTP.send(
                trickling,
                Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n".utf8))
            let trickler = BackgroundWork {
                for _ in 0..<50 {
                    guard (try? RawHTTP.send(trickling, [UInt8(ascii: " ")])) != nil else { return }
                    usleep(200_000)
                }
            }
            // And one whose client gives up half-way.
            let quitter = try RawHTTP.connect(port: collector.port)
            try RawHTTP.send(
                quitter,
                Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100\r\n\r\n{".utf8))
            close(quitter)
            let started = Date()
            _ = RawHTTP.readAll(slow)
            let endlessAnswer = String(decoding: RawHTTP.readAll(endless), as: UTF8.self)
            let tricklingAnswer = String(decoding: RawHTTP.readAll(trickling), as: UTF8.self)
            let waited = Date().timeIntervalSince(started)
            try trickler.wait()
            #expect(waited < 5, "the connections were held \(waited) s")
            // The bodies are answered before their connections are closed.
            for answer in [endlessAnswer, tricklingAnswer] {
                #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
                #expect(answer.hasSuffix(#"{"error":"the body did not arrive within 1 s: nothing was stored"}"#), "\(answer)")
            }
            // The collector still serves.
            #expect(try collector.post(CollectorFixture.events(2), key: key).status == 200)
            #expect(try CollectorFixture.stored(database).ids == 2)
            // Two answered 408; the client that left is counted apart.
            let metrics = try collector.get("/metrics").body
            #expect(metrics.contains(#"herald_collect_requests_total{status="408"} 2"#), "\(metrics)")
            #expect(metrics.contains(#"herald_collect_requests_total{status="499"} 1"#), "\(metrics)")
        }
    }

    /// curl asks before sending a body (`Expect: 100-continue`) and, unanswered, waits a second
    /// and sends it anyway: a collector that never says 100 costs each such client a second.
    @Test func aClientThatAsksBeforeSendingItsBodyIsToldToGoOn() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let body = Array(CollectorFixture.events(3).utf8)
            let socket = try RawHTTP.connect(port: collector.port)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 3, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            try RawHTTP.send(
                socket,
                Array(
                    ("POST /v1/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(key)\r\n"
                        + "Content-Type: application/x-ndjson\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n").utf8))
            // Only the head was sent: the interim answer comes before any body byte.
            var interim: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !String(decoding: interim, as: UTF8.self).contains("\r\n\r\n") {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                interim += buffer[0..<count]
            }
            let text = String(decoding: interim, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(text)")
            try RawHTTP.send(socket, body)
            // Whatever came after the interim head belongs to the final answer.
            let leftover = text.range(of: "\r\n\r\n").map { Array(text[$0.upperBound...].utf8) } ?? []
            let final = try RawHTTP.parse(leftover + RawHTTP.readAll(socket))
            #expect(final.status == 200 && final.accepted == 3, "\(final)")
            #expect(try CollectorFixture.stored(database).ids == 3)
            // A head refused (an unknown key) gets its refusal, never a 100: its body is not asked for.
            let unknown = try collector.post(CollectorFixture.events(2, first: 20), key: "hk_unknown", headers: ["Expect": "100-continue"])
            #expect(unknown.status == 401, "\(unknown)")
            // Any other expectation is refused (RFC 9110: 417), and nothing is stored.
            let odd = try collector.post(CollectorFixture.events(2, first: 10), key: key, headers: ["Expect": "something-else"])
            #expect(odd.status == 417, "\(odd)")
            #expect(try CollectorFixture.stored(database).ids == 3)
        }
    }

    /// A request that does not keep its connection alive (HTTP/1.0 without keep-alive, or
    /// `Connection: close` however written) has its connection closed once answered, not held
    /// until the idle timeout (15 s here). An HTTP/1.0 request's Expect is ignored (no 100).
    @Test func connectionsNotKeptAliveAreClosedOnceAnswered() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let body = Array(CollectorFixture.events(2).utf8)
            for (version, connection) in [("HTTP/1.0", nil), ("HTTP/1.1", "Close"), ("HTTP/1.1", "keep-alive, close")] as [(String, String?)] {
                let socket = try RawHTTP.connect(port: collector.port)
                defer { close(socket) }
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let head = "POST /v1/events \(version)\r\nHost: x\r\n" + (connection.map { "Connection: \($0)\r\n" } ?? "Expect: 100-continue\r\n")
                    + "Authorization: Bearer \(key)\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(body.count)\r\n\r\n"
                let started = Date()
                try RawHTTP.send(socket, Array(head.utf8) + body)
                let reply = try RawHTTP.parse(RawHTTP.readAll(socket))
                let held = Date().timeIntervalSince(started)
                #expect(reply.status == 200, "\(version) \(connection ?? "-"): \(reply)")
                #expect(held < 3, "\(version) \(connection ?? "-"): the connection was held \(held) s after its answer")
            }
            #expect(try CollectorFixture.stored(database).ids == 2)
        }
    }

    @Test func eventsDatedFarAheadOrLongAgoAreRejectedAloneAndMakeNoPartition() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let partitions: SQL = "SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'delivery_events'::regclass"
            let before = try CollectorFixture.count(database, partitions)
            // One event for each of 40 months far ahead, one from two years ago, and one of yesterday.
            let template = CollectorFixture.events(1).trimmingCharacters(in: .newlines)
            let yesterday = RecentDays.day(1)
            var lines: [String] = []
            for month in 0..<40 {
                let at = String(format: "%04d-%02d-15T00:00:00Z", 3000 + month / 12, month % 12 + 1)
                lines.append(Self.event(template, id: 500 + month, at: at))
            }
            lines.append(Self.event(template, id: 600, at: RecentDays.day(731) + "T12:00:00Z"))
            lines.append(Self.event(template, id: 601, at: yesterday + "T12:00:00Z"))
            let reply = try collector.post(lines.joined(separator: "\n"), key: key)
            #expect(reply.status == 200 && reply.accepted == 1 && reply.rejected.count == 41, "\(reply)")
            let reasons = reply.rejected.compactMap { $0["reason"] as? String }
            #expect(reasons.prefix(40).allSatisfy { $0.hasSuffix("is more than a day ahead of the collector's clock: check the device's clock") })
            #expect(reasons.last?.contains("is more than 366 days old") == true, "\(reasons)")
            #expect(try CollectorFixture.count(database, partitions) <= before + 1)
            #expect(try CollectorFixture.stored(database).ids == 1)
        }
    }

    /// `template` (one collected event) with another id and time.
    static func event(_ template: String, id: Int, at: String) -> String {
        var event = template.replacingOccurrences(
            of: "00000000-0000-4000-8000-000000000000", with: String(format: "00000000-0000-4000-8000-%012d", id))
        if let start = event.range(of: #""at":""#), let end = event[start.upperBound...].firstIndex(of: "\"") {
            event.replaceSubrange(start.upperBound..<end, with: at)
        }
        return event
    }

    @Test func everyOtherPathAndMethodIsAnsweredInJSON() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            _ = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            for (method, path, allow) in [("GET", "/v1/events", "POST"), ("DELETE", "/v1/events", "POST"), ("POST", "/healthz", "GET")] {
                let reply = try RawHTTP.request(port: collector.port, method: method, path: path, headers: [:], body: [])
                #expect(reply.status == 405 && reply.headers["allow"] == allow, "\(method) \(path): \(reply)")
                #expect(reply.json["error"] as? String == "\(path) answers \(allow) only", "\(reply)")
            }
            let unknown = try collector.get("/v2/events")
            #expect(unknown.status == 404 && (unknown.json["error"] as? String)?.hasPrefix("no such endpoint") == true, "\(unknown)")
            #expect(try collector.get("/metrics").body.contains(#"herald_collect_requests_total{status="405"} 3"#))
        }
    }

    @Test func aNameTheMachineDoesNotKnowIsRefusedPlainly() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let result = try HeraldCLI(database: database).run(["collect", "--listen", "no-such-host.invalid:20001"])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("cannot listen on no-such-host.invalid:20001: no-such-host.invalid is no address or host name this machine knows"), "\(result)")
            #expect(!result.stderr.contains("stopped"), "\(result)")
        }
    }

    @Test func oneActivityLineAMinuteNeverOnePerRequest() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database, arguments: ["--activity-log-seconds", "2"])
            for n in 0..<30 { _ = try collector.post(CollectorFixture.events(1, first: n), key: key) }
            usleep(2_500_000)
            usleep(2_500_000)  // an idle window: no line
            let lines = collector.log.split(separator: "\n").filter { $0.contains("request(s)") }
            #expect(lines.count == 1, "\(collector.log)")
            #expect(lines.first?.contains("30 request(s) (200: 30) · events accepted 30") == true, "\(collector.log)")
            #expect(lines.first?.contains("p99") == true)
        }
    }

    /// A POST whose body comes chunked (no Content-Length).
    private func chunked(_ port: Int, key: String, body: String, codings: String = "chunked") throws -> HTTPReply {
        let socket = try RawHTTP.connect(port: port)
        defer { close(socket) }
        var request = "POST /v1/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(key)\r\n"
        request += "Content-Type: application/x-ndjson\r\nTransfer-Encoding: \(codings)\r\n\r\n"
        try RawHTTP.send(socket, Array(request.utf8))
        let bytes = Array(body.utf8)
        var offset = 0
        while offset < bytes.count {
            let chunk = bytes[offset..<min(offset + 65_536, bytes.count)]
            try? RawHTTP.send(socket, Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8))
            offset += chunk.count
        }
        try? RawHTTP.send(socket, Array("0\r\n\r\n".utf8))
        return try RawHTTP.parse(RawHTTP.readAll(socket))
    }
}

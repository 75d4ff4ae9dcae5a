import Foundation
import HeraldCore
import Testing

/// A device batch read for `herald collect`: the key's tenant and app filled in or enforced,
/// each event at its index, and whole-body problems told apart from bad events.
@Suite struct CollectedBatchTests {
    let tenant = try! Slug("acme")
    let app = try! Slug("weather")

    func line(_ id: Int, extra: String = "") -> String {
        #"{\#(extra)"event_id":"00000000-0000-4000-8000-\#(String(format: "%012d", id))","campaign":"tour","device":"d","kind":"click","at":"2026-11-23T09:30:00Z","locale":"en","app_version":"1.0"}"#
    }

    @Test func ndjsonLinesGetTheKeysTenantAndAppAndTheirIndex() throws {
        let body = [line(1), "", "  ", line(2, extra: #""tenant":"acme","app":"weather","#), #"{"event_id":"x"}"#].joined(separator: "\n")
        let records = try CollectedBatch.records(Array(body.utf8), format: .ndjson, tenant: tenant, app: app)
        #expect(records.map(\.line) == [0, 1, 2])
        let first = try records[0].event.get()
        #expect(first.tenant == tenant && first.app == app && first.campaign.rawValue == "tour")
        #expect(try records[1].event.get().eventID == "00000000-0000-4000-8000-000000000002")
        #expect(throws: EventProblem.self) { try records[2].event.get() }
    }

    @Test func anEventNamingAnotherTenantOrAppIsRejectedAlone() throws {
        let body = [line(1, extra: #""tenant":"globex","#), line(2, extra: #""app":"radar","#), line(3)].joined(separator: "\n")
        let records = try CollectedBatch.records(Array(body.utf8), format: .ndjson, tenant: tenant, app: app)
        #expect(records.count == 3)
        if case .failure(let problem) = records[0].event {
            #expect(problem.description == #"tenant "globex" is not this app key's tenant (leave tenant out: the key says it)"#)
        } else {
            Issue.record("another tenant's event was taken")
        }
        if case .failure(let problem) = records[1].event {
            #expect(problem.description.hasPrefix(#"app "radar" is not this app key's app"#))
        } else {
            Issue.record("another app's event was taken")
        }
        #expect(throws: Never.self) { try records[2].event.get() }
        // The general parser (an escape defeats the fast path) enforces the same.
        let escaped = line(4, extra: #""tenant":"glob\u0065x","#)
        let general = try CollectedBatch.records(Array(escaped.utf8), format: .ndjson, tenant: tenant, app: app)
        #expect(throws: EventProblem.self) { try general[0].event.get() }
    }

    @Test func aJSONArrayIsReadElementByElement() throws {
        let body = "[ " + [line(1), "42", #"{"event_id":"[not, a, bracket]"}"#, line(2)].joined(separator: " ,\n ") + " ]"
        let records = try CollectedBatch.records(Array(body.utf8), format: .jsonArray, tenant: tenant, app: app)
        #expect(records.map(\.line) == [0, 1, 2, 3])
        #expect(throws: Never.self) { try records[0].event.get() }
        #expect(throws: EventProblem.self) { try records[1].event.get() }
        #expect(throws: EventProblem.self) { try records[2].event.get() }
        #expect(throws: Never.self) { try records[3].event.get() }
    }

    @Test func bodiesThatAreNotEventsAtAllAreRefusedWhole() {
        for (body, format) in [
            ("", CollectedBodyFormat.ndjson), ("\n \n", .ndjson), ("hello\nworld", .ndjson), ("<html>", .ndjson),
            ("[]", .jsonArray), ("[", .jsonArray), ("[1,]", .jsonArray), ("[1] 2", .jsonArray), (line(1), .jsonArray),
            (#"["unterminated]"#, .jsonArray), ("[{]", .jsonArray),
        ] {
            #expect(throws: CollectedBodyProblem.self, "\(body.debugDescription)") {
                try CollectedBatch.records(Array(body.utf8), format: format, tenant: tenant, app: app)
            }
        }
    }

    /// 2026-11-23T09:30:00Z, the time `line` gives every event, in seconds since 1970.
    static let lineTime: Int64 = 1_795_426_200

    @Test func aCollectorTakesEventsFromTheLastYearToADayAhead() throws {
        func reasons(receivedAt: Int64?) throws -> [String?] {
            let body = [line(1), line(2), line(3)].joined(separator: "\n")
            return try CollectedBatch.records(Array(body.utf8), format: .ndjson, tenant: tenant, app: app, receivedAt: receivedAt).map {
                if case .failure(let problem) = $0.event { problem.description } else { nil }
            }
        }
        let day: Int64 = 86_400
        // Events a day ahead of the collector's clock, or a year and a day old, are taken.
        #expect(try reasons(receivedAt: Self.lineTime - day) == [nil, nil, nil])
        #expect(try reasons(receivedAt: Self.lineTime + 366 * day) == [nil, nil, nil])
        #expect(try reasons(receivedAt: nil) == [nil, nil, nil])
        // A second more, each is refused alone, saying why.
        let ahead = try reasons(receivedAt: Self.lineTime - day - 1)
        #expect(ahead.allSatisfy { $0 == #"at "2026-11-23T09:30:00Z" is more than a day ahead of the collector's clock: check the device's clock"# })
        let old = try reasons(receivedAt: Self.lineTime + 366 * day + 1)
        #expect(old.allSatisfy { $0?.hasPrefix(#"at "2026-11-23T09:30:00Z" is more than 366 days old"#) == true }, "\(old)")
    }

    @Test func aLineThatIsAnObjectWithADefectIsThatEventsProblemNotTheBodys() throws {
        let twice = line(1).replacingOccurrences(of: #""campaign":"tour""#, with: #""campaign":"tour","campaign":"tour""#)
        for body in [twice, "{\"event_id\":\"\u{FF}\"}".replacingOccurrences(of: "\u{FF}", with: "x\u{1}")] {
            let records = try CollectedBatch.records(Array(body.utf8), format: .ndjson, tenant: tenant, app: app)
            #expect(records.count == 1)
            #expect(throws: EventProblem.self) { try records[0].event.get() }
        }
        let records = try CollectedBatch.records(Array(twice.utf8), format: .ndjson, tenant: tenant, app: app)
        if case .failure(let problem) = records[0].event { #expect(problem.description.contains("appears twice"), "\(problem)") }
    }

    @Test func moreThanAThousandEventsAreTooMany() throws {
        let thousand = (0..<1_000).map { line($0) }.joined(separator: "\n")
        #expect(try CollectedBatch.records(Array(thousand.utf8), format: .ndjson, tenant: tenant, app: app).count == 1_000)
        let more = thousand + "\n" + line(1_000)
        #expect(throws: CollectedBodyProblem.tooManyEvents(limit: 1_000)) {
            try CollectedBatch.records(Array(more.utf8), format: .ndjson, tenant: tenant, app: app)
        }
        let array = "[" + (0...1_000).map { line($0) }.joined(separator: ",") + "]"
        #expect(throws: CollectedBodyProblem.tooManyEvents(limit: 1_000)) {
            try CollectedBatch.records(Array(array.utf8), format: .jsonArray, tenant: tenant, app: app)
        }
    }
}

@Suite struct AppKeySecretTests {
    @Test func generatedKeysHaveTheirShapeAndDiffer() throws {
        let one = AppKeySecret.generate()
        let two = AppKeySecret.generate()
        #expect(one != two)
        #expect(one.text.count == 47 && one.text.hasPrefix("hrk_"))
        #expect(AppKeySecret(presented: one.text) == one)
        #expect(one.hint == String(one.text.prefix(10)))
        #expect(one.digest.count == 64 && one.digest != two.digest)
    }

    @Test func onlyTheShapeOfAKeyIsTakenFromARequest() {
        let valid = "hrk_" + String(repeating: "a", count: 43)
        #expect(AppKeySecret(presented: valid) != nil)
        for text in ["", "hrk_", valid + "a", String(valid.dropLast()), "xrk_" + String(repeating: "a", count: 43),
                     "hrk_" + String(repeating: "a", count: 42) + "=", "hrk_" + String(repeating: "é", count: 43)] {
            #expect(AppKeySecret(presented: text) == nil, "\(text)")
        }
    }
}

@Suite struct TokenBucketTests {
    @Test func aBurstThenTheRateAndARetryAfterInWholeSeconds() {
        var bucket = TokenBucket(rate: 10, burst: 20, now: 0)
        #expect(bucket.take(20, now: 0).allowed)
        let refused = bucket.take(10, now: 0)
        #expect(!refused.allowed && refused.retryAfter == 1)
        #expect(!bucket.take(30, now: 0.5).allowed)
        #expect(bucket.take(10, now: 1.0).allowed)
        let later = bucket.take(25, now: 1.0)
        #expect(!later.allowed && later.retryAfter == 2)
        #expect(bucket.take(20, now: 100).allowed)
        #expect(!bucket.take(1, now: 100).allowed)
    }
}

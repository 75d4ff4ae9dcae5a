import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// One line the database would refuse is rejected alone, with its reason, and the rest of its
/// batch is stored (it used to abort the batch: exit 70, nothing stored, every rerun the same).
@Suite struct EventLineRejectsTests {
    /// A line for the example's acme/weather/welcome campaign; fields overridden by `overrides`.
    static func line(_ overrides: [String: String]) -> String {
        var fields = [
            "event_id": "00000000-0000-4000-8000-900000000001", "tenant": "acme", "app": "weather", "campaign": "welcome",
            "device": "d-bad", "kind": "click", "at": "2026-11-12T12:00:00Z", "locale": "en", "app_version": "1.0",
        ]
        for (key, value) in overrides { fields[key] = value }
        return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}"
    }

    /// "e" and a combining acute accent: one character to Swift, two code points to PostgreSQL.
    static let accented = "e\u{301}"

    /// (what, overrides, words the reason must contain, the day pruned before first)
    static let cases: [(String, [String: String], String, String)] = [
        ("a device of 100 characters and 200 code points", ["device": String(repeating: accented, count: 100)], "device is longer than 128", "2026-06-01"),
        ("a device of 70 flags (140 code points)", ["device": String(repeating: "🇩🇪", count: 70)], "device is longer than 128", "2026-06-01"),
        ("an app version of 40 characters and 80 code points", ["app_version": String(repeating: accented, count: 40)], "app_version must have 1 to 64", "2026-06-01"),
        ("an os version of 40 characters and 80 code points", ["os_version": String(repeating: accented, count: 40)], "os_version is longer than 64", "2026-06-01"),
        ("a time in UTC year 10000", ["at": "9999-12-31T23:59:59-14:00"], "outside the times Herald stores", "2026-06-01"),
        ("a time that rounds into year 10000", ["at": "9999-12-31T23:59:59.9999999Z"], "outside the times Herald stores", "2026-06-01"),
        // Pruned before 1990 only: the horizon alone would refuse it.
        ("a time before 2000", ["at": "1999-12-31T23:59:59+01:00"], "outside the times Herald stores", "1990-01-01"),
        // Refused before this change too: here to show it still is, alone.
        ("a time before the pruned horizon", ["at": "2026-05-31T23:59:59Z"], "before 2026-06-01", "2026-06-01"),
    ]

    @Test(arguments: 0..<cases.count)
    func aLineTheDatabaseWouldRefuseIsRejectedAloneAndTheBatchIsStored(_ index: Int) throws {
        let (what, overrides, reason, prunedBefore) = Self.cases[index]
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                try herald.succeed(["events", "prune", "--before", prunedBefore])
                // The bad line in the middle of one batch of eleven.
                let good = SampleEvents.ndjson(10).split(separator: "\n").map(String.init)
                let lines = Array(good[0..<5]) + [Self.line(overrides)] + Array(good[5...])
                let input = root.appendingPathComponent("events.ndjson")
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
                let rejects = root.appendingPathComponent("rejects.ndjson")

                for run in 1...2 {
                    let result = try herald.run(["events", "ingest", input.path, "--rejects", rejects.path, "--json"])
                    #expect(result.status == 65, "\(what), run \(run): \(result)")
                    let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                    #expect(summary?["read"] as? Int == 11, "\(what): \(result)")
                    #expect(summary?["inserted"] as? Int == (run == 1 ? 10 : 0), "\(what): \(result)")
                    #expect(summary?["duplicate"] as? Int == (run == 1 ? 0 : 10), "\(what): \(result)")
                    #expect(summary?["rejected"] as? Int == 1, "\(what): \(result)")
                    let rejected = try String(contentsOf: rejects, encoding: .utf8).split(separator: "\n")
                    #expect(rejected.count == 1, "\(what): \(rejected)")
                    let entry = try rejected.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                    #expect(entry?["line"] as? Int == 6, "\(what)")
                    #expect((entry?["reason"] as? String)?.contains(reason) == true, "\(what): \(entry ?? [:])")
                    #expect(entry?["record"] as? String == Self.line(overrides), "\(what)")
                }
                let stored: Int = try Connection(configuration: database).query("SELECT count(*)::int AS n FROM delivery_events")[0].decode("n")
                #expect(stored == 10, "\(what)")
            }
        }
    }
}

import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

@Suite struct EventsCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")

    /// `count` events for the example's acme/weather campaigns, numbered from `first`.
    static func events(_ count: Int, first: Int = 0) -> String {
        SampleEvents.ndjson(count, first: first)
    }

    @Test func ingestReportsCountsWritesRejectsAndExits65() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", Self.example.path])
                let input = root.appendingPathComponent("events.ndjson")
                try Data((Self.events(10) + "garbage\n" + Self.events(2)).utf8).write(to: input)
                let rejects = root.appendingPathComponent("rejects.ndjson")

                let first = try herald.run(["events", "ingest", input.path, "--rejects", rejects.path])
                #expect(first.status == 65, "\(first)")
                #expect(first.stdout.hasPrefix("read 13 · inserted 10 · duplicate 2 · rejected 1"), "\(first)")
                let rejected = try String(contentsOf: rejects, encoding: .utf8)
                #expect(rejected == #"{"line":11,"reason":"not a JSON object","record":"garbage"}"# + "\n")

                // Only good lines and duplicates now: exit 0; --json for scripts; - reads standard input.
                let again = try herald.run(["events", "ingest", "-", "--json"], stdin: Self.events(12))
                #expect(again.status == 0, "\(again)")
                let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
                #expect(summary["read"] as? Int == 12)
                #expect(summary["inserted"] as? Int == 2)
                #expect(summary["duplicate"] as? Int == 10)
                #expect(summary["rejected"] as? Int == 0)

                // Without --rejects the first reasons go to standard error, with their line numbers.
                let csv = "event_id,tenant,app,campaign,device,kind,at,locale,app_version\n"
                    + "00000000-0000-4000-8000-999999999999,acme,weather,nope,d,click,2026-11-10T00:00:00Z,en,1.0\n"
                let unknown = try herald.run(["events", "ingest", "-", "--format", "csv"], stdin: csv)
                #expect(unknown.status == 65)
                #expect(unknown.stderr.contains("line 2: unknown campaign \"nope\" in acme/weather"), "\(unknown)")

                let badHeader = try herald.run(["events", "ingest", "-", "--format", "csv"], stdin: "event_id,tenant\n")
                #expect(badHeader.status == 65)
                #expect(badHeader.stderr.contains("no \"app\" column"), "\(badHeader)")

                let daily = try herald.succeed(["report", "daily", "--since", "2026-11-01", "--until", "2026-11-30", "--format", "csv"])
                let lines = daily.stdout.split(separator: "\r\n").map(String.init)
                #expect(lines.first == "tenant,app,campaign,day,locale,event,events,unique_devices")
                // 12 events over 12 distinct (campaign, day, locale, kind) groups.
                #expect(lines.count == 13)
                let campaigns = try herald.succeed(["report", "campaigns", "--tenant", "acme", "--since", "2026-11-01", "--until", "2026-11-30", "--format", "json"])
                let rows = try #require(try JSONSerialization.jsonObject(with: Data(campaigns.stdout.utf8)) as? [[String: Any]])
                #expect(rows.map { $0["campaign"] as? String } == ["spring-sale", "tour", "welcome"])
                let total = rows.reduce(0) { sum, row in
                    sum + ["delivered", "impressions", "clicks", "dismissals"].reduce(0) { $0 + (row[$1] as? Int ?? -1000) }
                }
                #expect(total == 12)
                let device = try herald.succeed(["report", "device", "--device", "d-1", "--since", "2026-11-01", "--until", "2026-11-30"])
                #expect(device.stdout.contains("d-1") && device.stdout.contains("welcome"), "\(device)")
                let outside = try herald.succeed(["report", "campaigns", "--since", "2025-01-01", "--until", "2025-01-31"])
                #expect(outside.stdout == "no events in 2025-01-01 … 2025-01-31\n")
                #expect(try herald.run(["report", "device"]).status == 64)
            }
        }
    }

    /// An ingest stopped (SIGKILL from inside, as `kill -9` at that instant) inside a batch's
    /// transaction, or just after a commit, with two connections storing batches at once:
    /// what it committed is whole batches, history and rollups agreeing, and a rerun of the
    /// same input finishes it without counting anything twice.
    @Test(arguments: [(IngestCrashPoint.copied, 3), (.committed, 3)])
    func anIngestStoppedPartWayKeepsWhatItCommittedAndARerunFinishesWithoutDoubleCounting(
        _ phase: IngestCrashPoint, nth: Int
    ) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", Self.example.path])
                let total = 2_000
                let batch = 200
                let input = root.appendingPathComponent("events.ndjson")
                try Data(Self.events(total).utf8).write(to: input)

                let stopped = try herald.crashing(at: phase, nth: nth).run(
                    ["events", "ingest", input.path, "--batch-size", String(batch), "--jobs", "2"])
                #expect(stopped.killedBy == SIGKILL, "\(stopped)")

                // Exactly the committed batches: whole batches, history and rollups agreeing.
                let watcher = try Connection(configuration: database)
                let afterKill = try rollupDisagreements(watcher)
                #expect(afterKill.differences == 0)
                #expect(afterKill.raw % batch == 0, "a batch was half-stored: \(afterKill.raw)")
                // Stopped at the nth commit: those n, and perhaps the other connection's one more.
                let least = phase == .committed ? nth * batch : 0
                #expect(afterKill.raw >= least && afterKill.raw <= (nth + 1) * batch, "\(afterKill.raw) stored")
                let ids: Int = try watcher.query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
                #expect(ids == afterKill.raw)

                let rerun = try herald.succeed(["events", "ingest", input.path, "--batch-size", String(batch), "--json"])
                let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
                #expect(summary["inserted"] as? Int == total - afterKill.raw)
                #expect(summary["duplicate"] as? Int == afterKill.raw)
                let complete = try rollupDisagreements(watcher)
                #expect(complete.differences == 0)
                #expect(complete.raw == total)
                let rolled: Int = try watcher.query(
                    "SELECT sum(delivered + impressions + clicks + dismissals)::int AS n FROM campaign_rollup")[0].decode("n")
                #expect(rolled == total)
            }
        }
    }
}

import Foundation
import HeraldCore
import HeraldJobs
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

@Suite struct EventIngestJobTests {
    /// `count` NDJSON events for the example's campaigns, numbered from `first`.
    static func events(_ count: Int, first: Int = 0) -> String {
        SampleEvents.ndjson(count, first: first, devices: 7, germanToo: false)
    }

    static func write(_ text: String, to url: URL) throws -> URL {
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func storesGoodLinesCountsDuplicatesAndKeepsRejections() throws {
        try JobFixtures.withExample { database, root in
            // 20 events, a line that is not JSON as line 21, then 3 events already in the input.
            let input = try Self.write(Self.events(20) + "garbage\n" + Self.events(3), to: root.appendingPathComponent("events.ndjson"))
            var progress: [EventIngestJob.Progress] = []
            let job = EventIngestJob(
                database: database, format: .ndjson, batchSize: 3, jobs: 2, rejects: nil,
                progress: { progress.append($0) })
            let summary = try job.run(try EventInput(path: input.path))
            #expect(summary.read == 24)
            #expect(summary.inserted == 20)
            #expect(summary.duplicate == 3)
            #expect(summary.rejected == 1)
            #expect(summary.firstRejections.map(\.line) == [21])
            #expect(summary.firstRejections.map(\.reason) == ["not a JSON object"])
            #expect(summary.firstRejections.map(\.text) == ["garbage"])
            #expect(progress.count == 8, "a report per batch of 3")
            #expect(progress.last?.read == 24 && progress.last?.inserted == 20)

            let stored = try Connection(configuration: database.configuration)
                .query("SELECT count(*)::int AS n FROM delivery_events")[0].decode("n", as: Int.self)
            #expect(stored == 20)

            // The same input again, rejections to a file this time: nothing new, nothing kept in the summary.
            let rejectsURL = root.appendingPathComponent("rejects.ndjson")
            let again = try EventIngestJob(
                database: database, format: .ndjson, batchSize: 1000, jobs: 1, rejects: try RejectsFile(path: rejectsURL.path)
            ).run(try EventInput(path: input.path))
            #expect(again.read == 24 && again.inserted == 0 && again.duplicate == 23 && again.rejected == 1)
            #expect(again.firstRejections.isEmpty)
            #expect(try String(contentsOf: rejectsURL, encoding: .utf8) == #"{"line":21,"reason":"not a JSON object","record":"garbage"}"# + "\n")

            // --json's shape: the counts and the time, nothing else.
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(again)) as? [String: Any])
            #expect(Set(json.keys) == ["read", "inserted", "duplicate", "rejected", "seconds", "interrupted"])
        }
    }

    /// Ctrl-C's path: asked to stop, the job hands no further batch, stores the ones handed,
    /// and says so; the same input again finishes without counting anything twice.
    @Test func stopsBetweenBatchesAndTheRerunFinishes() throws {
        try JobFixtures.withExample { database, root in
            let input = try Self.write(Self.events(30), to: root.appendingPathComponent("events.ndjson"))
            let asked = Mutex(0)
            var job = EventIngestJob(database: database, format: .ndjson, batchSize: 5, jobs: 1, rejects: nil)
            // Stop when asked for the third batch.
            job.shouldStop = { asked.withLock { $0 += 1; return $0 > 2 } }
            let stopped = try job.run(try EventInput(path: input.path))
            #expect(stopped.interrupted)
            #expect(stopped.read == 10 && stopped.inserted == 10)

            let rejectsURL = root.appendingPathComponent("events.rejects")
            let rerun = try EventIngestJob(
                database: database, format: .ndjson, batchSize: 5, jobs: 2, rejects: try RejectsFile(path: rejectsURL.path)
            ).run(try EventInput(path: input.path))
            #expect(!rerun.interrupted)
            #expect(rerun.read == 30 && rerun.inserted == 20 && rerun.duplicate == 10 && rerun.rejected == 0)
            // Nothing rejected: no empty rejects file is left behind.
            #expect(!FileManager.default.fileExists(atPath: rejectsURL.path))
        }
    }

    @Test func progressKnowsHowFarAlongAFileIs() throws {
        try JobFixtures.withExample { database, root in
            let text = Self.events(12)
            let input = try Self.write(text, to: root.appendingPathComponent("events.ndjson"))
            var progress: [EventIngestJob.Progress] = []
            _ = try EventIngestJob(
                database: database, format: .ndjson, batchSize: 4, jobs: 1, rejects: nil, progress: { progress.append($0) }
            ).run(try EventInput(path: input.path))
            #expect(progress.count == 3)
            #expect(progress.allSatisfy { $0.totalBytes == text.utf8.count })
            #expect(progress.last?.bytesRead == text.utf8.count)
            // A pipe has no size to measure against.
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]); close(ends[1]) }
            #expect(try EventInput(path: "-", standardInput: ends[0]).size == nil)
            #expect(try EventInput(path: input.path).size == text.utf8.count)
        }
    }

    @Test func inputProblemsAreTypedErrors() throws {
        try JobFixtures.withExample { database, root in
            #expect {
                _ = try EventInput(path: root.appendingPathComponent("missing.ndjson").path)
            } throws: { error in
                guard case EventIngestError.inputUnreadable(let path, let reason) = error else { return false }
                return path.hasSuffix("missing.ndjson") && reason == "No such file or directory"
            }
            #expect {
                _ = try RejectsFile(path: root.appendingPathComponent("no/such/folder/rejects.ndjson").path)
            } throws: { error in
                guard case EventIngestError.rejectsUnwritable = error else { return false }
                return true
            }
            let csv = try Self.write("event_id,tenant\n1,acme\n", to: root.appendingPathComponent("events.csv"))
            #expect {
                _ = try EventIngestJob(database: database, format: .csv, batchSize: 10, jobs: 2, rejects: nil)
                    .run(try EventInput(path: csv.path))
            } throws: { error in
                guard case EventIngestError.malformedInput(let problem) = error else { return false }
                return problem.contains("no \"app\" column")
            }
        }
    }
}

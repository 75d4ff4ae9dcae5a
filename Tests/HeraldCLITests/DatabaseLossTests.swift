import Foundation
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

/// PostgreSQL going away in the middle of a publish or an ingest (every backend of the
/// database terminated, as a restart or an administrator does): exit 69 with a message that
/// names the database, and the next run completes.
@Suite struct DatabaseLossTests {
    /// Runs `body` while another thread waits for `ready` (SQL giving one boolean `go`) and
    /// then terminates every other backend of the database once. Returns the body's result
    /// and whether the backends were terminated before it returned.
    func terminatingBackends(
        _ database: ConnectionConfiguration, when ready: SQL, during body: () throws -> CommandResult
    ) throws -> (CommandResult, killed: Bool) {
        let state = Mutex((done: false, killed: false, problem: String?.none))
        let watcher = Thread {
            do {
                let connection = try Connection(configuration: database)
                while !state.withLock({ $0.done }) {
                    if try connection.query(ready)[0].decode("go", as: Bool.self) {
                        try connection.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
                        state.withLock { $0.killed = true }
                        return
                    }
                    usleep(2_000)
                }
            } catch {
                state.withLock { $0.problem = "\(error)" }
            }
        }
        watcher.start()
        let result = Result { try body() }
        let killed = state.withLock { state in
            state.done = true
            return state.killed
        }
        if let problem = state.withLock({ $0.problem }) { Issue.record("the watcher failed: \(problem)") }
        return (try result.get(), killed)
    }

    func databaseName(_ database: ConnectionConfiguration) throws -> String {
        try Connection(configuration: database).query("SELECT current_database() AS name")[0].decode("name")
    }

    @Test func anIngestWhoseDatabaseGoesAwayExits69AndTheNextRunCompletes() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                let total = 30_000
                let input = root.appendingPathComponent("events.ndjson")
                try Data(EventsCommandTests.events(total).utf8).write(to: input)
                let (result, killed) = try terminatingBackends(database, when: "SELECT count(*) >= 1000 AS go FROM event_ids") {
                    try herald.run(["events", "ingest", input.path, "--batch-size", "500", "--quiet"])
                }
                #expect(killed, "the ingest finished before the database went away; make the input larger")
                #expect(result.status == 69, "\(result)")
                #expect(result.stderr.hasPrefix("herald: database unavailable: lost the connection to "), "\(result)")
                #expect(result.stderr.contains("dbname=\(try databaseName(database))"), "\(result)")
                #expect(result.stderr.contains("event(s) were stored before this failure; run the same input again"), "\(result)")
                #expect(!result.stderr.contains("database error"), "\(result)")

                let rerun = try herald.succeed(["events", "ingest", input.path, "--json"])
                let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
                let inserted = try #require(summary["inserted"] as? Int)
                let duplicate = try #require(summary["duplicate"] as? Int)
                #expect(inserted + duplicate == total && duplicate >= 1000, "\(summary)")
                let stored: Int = try Connection(configuration: database).query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
                #expect(stored == total)
            }
        }
    }

    @Test func aPublishWhoseDatabaseGoesAwayExits69AndTheNextRunCompletes() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                try LargeSiteFixture.populate(try Connection(configuration: database), apps: 150, campaignsPerApp: 12)
                let out = root.appendingPathComponent("site")
                let herald = InProcessHerald(database: database)
                let publish = ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"]
                let (result, killed) = try terminatingBackends(
                    database, when: "SELECT EXISTS (SELECT FROM publish_runs WHERE outcome = 'running') AS go"
                ) {
                    try herald.run(publish)
                }
                #expect(killed, "the publish finished before the database went away; make the site larger")
                #expect(result.status == 69, "\(result)")
                #expect(result.stderr.hasPrefix("herald: database unavailable: lost the connection to "), "\(result)")
                #expect(result.stderr.contains("dbname=\(try databaseName(database))"), "\(result)")
                #expect(result.stderr.hasSuffix("; run the command again once the server is back\n"), "\(result)")

                let next = try herald.succeed(publish)
                #expect(next.stdout.contains("published"), "\(next)")
                let final = try herald.succeed(publish)
                #expect(final.stdout.contains(" 0 written"), "\(final)")
            }
        }
    }
}

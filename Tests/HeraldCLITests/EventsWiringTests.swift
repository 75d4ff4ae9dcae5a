import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// The binary's wiring for events: Ctrl-C (SIGINT) and the cron spool script, run as a
/// person and cron would run them.
@Suite struct EventsWiringTests {
    /// Waits until `connection` sees at least `count` stored events (at most 30 s).
    func waitForStoredEvents(_ count: Int, _ connection: Connection) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let stored: Int = try connection.query("SELECT count(*)::int AS n FROM event_ids")[0].decode("n")
            if stored >= count { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func ctrlCStopsAfterTheBatchBeingStoredAndSaysHowToFinish() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                // A FIFO: this test decides when each line reaches the ingest.
                let fifo = root.appendingPathComponent("events.fifo")
                #expect(mkfifo(fifo.path, 0o600) == 0)
                let outURL = root.appendingPathComponent("out"), errURL = root.appendingPathComponent("err")
                _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
                _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
                let process = Process()
                process.executableURL = try HeraldCLI.binaryURL()
                process.arguments = ["events", "ingest", fifo.path, "--batch-size", "5", "--jobs", "1"]
                process.environment = herald.environment
                process.standardOutput = try FileHandle(forWritingTo: outURL)
                process.standardError = try FileHandle(forWritingTo: errURL)
                try process.run()
                let writer = try FileHandle(forWritingTo: fifo)  // opens once herald has it open
                let lines = EventsCommandTests.events(15).split(separator: "\n").map { $0 + "\n" }
                try writer.write(contentsOf: Data(lines[0..<5].joined().utf8))
                let watcher = try Connection(configuration: database)
                #expect(try waitForStoredEvents(5, watcher), "the first batch was never stored")
                kill(process.processIdentifier, SIGINT)
                try writer.write(contentsOf: Data(lines[5...].joined().utf8))
                try writer.close()
                process.waitUntilExit()

                let stderr = try String(contentsOf: errURL, encoding: .utf8)
                #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationStatus) \(stderr)")
                #expect(stderr.contains("interrupted"), "\(stderr)")
                #expect(stderr.contains("run the same input again to finish"))
                let stored: Int = try watcher.query("SELECT count(*)::int AS n FROM event_ids")[0].decode("n")
                #expect(stored > 0 && stored < 15 && stored % 5 == 0, "whole batches only: \(stored)")
                #expect(try String(contentsOf: outURL, encoding: .utf8).contains("inserted \(stored)"))

                let rest = try herald.succeed(["events", "ingest", "-", "--json"], stdin: lines.joined())
                let summary = try #require(try JSONSerialization.jsonObject(with: Data(rest.stdout.utf8)) as? [String: Any])
                #expect(summary["inserted"] as? Int == 15 - stored)
                #expect(summary["duplicate"] as? Int == stored)
            }
        }
    }

    @Test func theSpoolScriptMovesDoneAndRejectedFilesAndLeavesNoEmptyRejects() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { spool in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                try Data(EventsCommandTests.events(6).utf8).write(to: spool.appendingPathComponent("a.ndjson"))
                try Data((EventsCommandTests.events(3, first: 6) + "not json\n").utf8).write(to: spool.appendingPathComponent("b.ndjson"))
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("deploy/ingest-spool")
                func runScript() throws -> Int32 {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments = [script.path, spool.path]
                    var environment = herald.environment
                    environment["PATH"] = try HeraldCLI.binaryURL().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                    process.environment = environment
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    process.waitUntilExit()
                    return process.terminationStatus
                }
                #expect(try runScript() == 0)
                func files(_ folder: String) throws -> [String] {
                    try FileManager.default.contentsOfDirectory(atPath: spool.appendingPathComponent(folder).path).sorted()
                }
                #expect(try files("done") == ["a.ndjson"])
                #expect(try files("rejected") == ["b.ndjson", "b.ndjson.rejects"])
                let leftovers = try files(".").filter { !["done", "rejected"].contains($0) }
                #expect(leftovers.isEmpty, "\(leftovers)")
                let rejects = try String(contentsOf: spool.appendingPathComponent("rejected/b.ndjson.rejects"), encoding: .utf8)
                #expect(rejects.contains(#""line":4"#))
                let stored: Int = try Connection(configuration: database).query("SELECT count(*)::int AS n FROM event_ids")[0].decode("n")
                #expect(stored == 9)
                // Nothing left to do: the next run changes nothing.
                #expect(try runScript() == 0)
                #expect(try files("done") == ["a.ndjson"])
            }
        }
    }
}

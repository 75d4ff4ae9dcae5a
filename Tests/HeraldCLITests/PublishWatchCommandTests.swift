import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// `herald publish --watch` as the built binary, as systemd runs it: signals, exit codes, the log.
@Suite struct PublishWatchCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")

    /// The binary started in the background, its standard error in a file.
    final class Background {
        let process = Process()
        let errorFile: URL

        init(_ arguments: [String], database: ConnectionConfiguration, scratch: URL) throws {
            errorFile = scratch.appendingPathComponent("watch.err")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = try HeraldCLI.binaryURL()
            process.arguments = arguments
            process.environment = HeraldCLI(database: database).environment
            process.standardError = try FileHandle(forWritingTo: errorFile)
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var log: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

        /// Waits for the process to end (killing it after `seconds`); its exit status.
        func exitStatus(within seconds: Double) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            guard !process.isRunning else {
                // One that ignores SIGTERM too is killed: the test fails instead of hanging.
                process.terminate()
                let killAt = Date().addingTimeInterval(5)
                while process.isRunning, Date() < killAt { usleep(10_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                return nil
            }
            return process.terminationStatus
        }

        func waitFor(_ what: String, seconds: Double = 10, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return }
                if !process.isRunning { break }
                usleep(10_000)
            }
            throw CLIRunnerError(message: "waited for \(what); herald's log:\n\(log)")
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalFinishesTheRunAndExitsZero(signal: Int32) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                try HeraldCLI(database: database).succeed(["apply", "-f", Self.example.path])
                let out = root.appendingPathComponent("site")
                let watch = try Background(["publish", "--watch", "--out", out.path], database: database, scratch: root)
                let alerts = out.appendingPathComponent("acme/weather/de/notifications.plist")
                try watch.waitFor("the first publish") { FileManager.default.fileExists(atPath: alerts.path) }
                try Connection(configuration: database).execute("UPDATE alert_contents SET title = 'Signal' WHERE locale = 'de'")
                try watch.waitFor("the edit") { (try? String(contentsOf: alerts, encoding: .utf8))?.contains("Signal") == true }
                kill(watch.process.processIdentifier, signal)
                let status = watch.exitStatus(within: 10)
                #expect(status == 0, "\(watch.log)")
                #expect(watch.process.terminationReason == .exit)
                // One line per run that changed something (two here), the start and the stop: nothing while
                // idle (the site's lint warnings are logged once each).
                let lines = watch.log.split(separator: "\n").filter { !$0.contains(" warning ") }
                #expect(lines.filter { $0.contains("published run") }.count == 2, "\(watch.log)")
                #expect(lines.count == 4, "\(watch.log)")
                #expect(lines.last?.contains("stopped") == true)
            }
        }
    }

    @Test func aFolderAnotherHeraldPublishedIsRefusedWithAMessageAndExit73() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                try HeraldCLI(database: database).succeed(["apply", "-f", Self.example.path])
                let out = root.appendingPathComponent("site")
                try HeraldCLI(database: database).succeed(["publish", "--out", out.path])
                // Another installation: the same folder from a database of its own.
                try HeraldFixtures.withMigratedDatabase { other in
                    // A copy of the same template: made another installation, as a fresh database is.
                    try Connection(configuration: other).execute("UPDATE herald_installation SET id = gen_random_uuid()")
                    let watch = try Background(["publish", "--watch", "--out", out.path], database: other, scratch: root)
                    #expect(watch.exitStatus(within: 20) == 73, "\(watch.log)")
                    #expect(watch.log.contains("was published from another Herald database"), "\(watch.log)")
                }
            }
        }
    }

    @Test func theDatabaseDownAtStartIsWaitedFor() throws {
        try withTemporaryDirectory { root in
            // Nothing listens there: the watcher retries instead of exiting 69, and stops on SIGTERM.
            let nowhere = ConnectionConfiguration(conninfo: "host=\(root.path) port=1 dbname=herald user=nobody connect_timeout=1")
            let watch = try Background(
                ["publish", "--watch", "--out", root.appendingPathComponent("site").path], database: nowhere, scratch: root)
            try watch.waitFor("a retry to be logged") { watch.log.contains("attempt 2") }
            kill(watch.process.processIdentifier, SIGTERM)
            #expect(watch.exitStatus(within: 10) == 0, "\(watch.log)")
        }
    }

    @Test func watchRefusesWhatItCannotDo() throws {
        let cli = HeraldCLI(database: nil)
        for arguments in [["--dry-run"], ["--at", "2026-06-01"], ["--full"], ["--json"]] {
            let result = try cli.run(["publish", "--watch", "--out", "/tmp/x"] + arguments)
            #expect(result.status == 64 && result.stderr.contains("--watch cannot be combined with"), "\(arguments): \(result)")
        }
        let then = try cli.run(["publish", "--out", "/tmp/x", "--then", "true"])
        #expect(then.status == 64 && then.stderr.contains("--then goes with --watch"), "\(then)")
    }
}

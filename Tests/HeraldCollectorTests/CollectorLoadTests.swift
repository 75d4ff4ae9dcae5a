import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PostgresServer
import Synchronization
import Testing

/// `herald collect` under concurrent devices, killed, drained, beside another collector, and
/// with its database going away: every acknowledged event stored exactly once.
@Suite struct CollectorLoadTests {
    /// Devices on threads of their own, each sending `batches` batches of `size` events (ids
    /// `device * 100_000 + …`), each batch again until it is acknowledged (at most `attempts`).
    /// Returns the events acknowledged as accepted or duplicate, and the statuses seen.
    static func devices(
        _ count: Int, batches: Int, size: Int, key: String, attempts: Int = 400,
        port: @escaping @Sendable () -> Int, pause: UInt32 = 0
    ) -> (acknowledged: Int, accepted: Int, statuses: [Int: Int]) {
        let totals = Mutex((acknowledged: 0, accepted: 0, statuses: [Int: Int]()))
        let group = DispatchGroup()
        for device in 0..<count {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for batch in 0..<batches {
                    let body = CollectorFixture.events(size, first: device * 100_000 + batch * size)
                    for _ in 0..<attempts {
                        let reply = try? RawHTTP.request(
                            port: port(), method: "POST", path: "/v1/events",
                            headers: ["Authorization": "Bearer \(key)", "Content-Type": "application/x-ndjson"], body: Array(body.utf8))
                        totals.withLock { $0.statuses[reply?.status ?? 0, default: 0] += 1 }
                        if let reply, reply.status == 200 {
                            totals.withLock {
                                $0.acknowledged += reply.accepted + reply.duplicate
                                $0.accepted += reply.accepted
                            }
                            break
                        }
                        usleep(50_000)
                    }
                    if pause > 0 { usleep(pause) }
                }
            }
        }
        group.wait()
        return totals.withLock { $0 }
    }

    @Test func concurrentDevicesGetExactCountsAndShareCommits() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let port = collector.port
            let result = Self.devices(24, batches: 10, size: 20, key: key, port: { port })
            #expect(result.statuses == [200: 240], "\(result.statuses)")
            #expect(result.accepted == 4_800)
            let stored = try CollectorFixture.stored(database)
            #expect(stored.ids == 4_800 && stored.raw == 4_800 && stored.summary == 4_800)
            #expect(try rollupDisagreements(Connection(configuration: database)).differences == 0)
            // Group commit: fewer transactions than requests.
            let metrics = try collector.get("/metrics").body
            let commits = RunningCollector.firstMatch(#"herald_collect_commit_seconds_count ([0-9]+)"#, in: metrics).flatMap { Int($0) }
            #expect(commits.map { $0 < 240 } == true, "commits: \(String(describing: commits))")
        }
    }

    @Test func killNineUnderLoadLosesNoAcknowledgedEventAndCountsNoneTwice() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let first = try RunningCollector(database: database)
            let port = Mutex(first.port)
            let replacement = Mutex<RunningCollector?>(nil)
            let killer = Thread {
                usleep(700_000)
                first.signal(SIGKILL)
                _ = first.waitForExit()
                if let next = try? RunningCollector(database: database) {
                    port.withLock { $0 = next.port }
                    replacement.withLock { $0 = next }
                }
            }
            killer.start()
            let result = Self.devices(12, batches: 15, size: 20, key: key, port: { port.withLock { $0 } }, pause: 30_000)
            #expect(replacement.withLock { $0 } != nil, "the collector did not come back")
            #expect(result.acknowledged == 12 * 15 * 20, "\(result)")
            let stored = try CollectorFixture.stored(database)
            #expect(stored.ids == 3_600 && stored.raw == 3_600 && stored.summary == 3_600, "\(stored)")
            #expect(try rollupDisagreements(Connection(configuration: database)).differences == 0)
            #expect(first.process.terminationReason == .uncaughtSignal)
        }
    }

    @Test func sigtermAnswersEveryRequestInFlightAndExitsZero() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let port = collector.port
            let answered = Mutex((ok: 0, other: [Int: Int](), accepted: 0))
            let group = DispatchGroup()
            for device in 0..<16 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    for batch in 0..<200 {
                        let body = CollectorFixture.events(20, first: device * 100_000 + batch * 20)
                        // A request whose connection was refused never reached the collector.
                        guard let reply = try? RawHTTP.request(
                            port: port, method: "POST", path: "/v1/events",
                            headers: ["Authorization": "Bearer \(key)", "Content-Type": "application/x-ndjson"], body: Array(body.utf8))
                        else { return }
                        answered.withLock {
                            if reply.status == 200 {
                                $0.ok += 1
                                $0.accepted += reply.accepted
                            } else {
                                $0.other[reply.status, default: 0] += 1
                            }
                        }
                    }
                }
            }
            usleep(800_000)
            collector.signal(SIGTERM)
            let status = collector.waitForExit()
            group.wait()
            #expect(status == 0, "\(collector.log)")
            let seen = answered.withLock { $0 }
            #expect(seen.ok > 0 && seen.other.isEmpty, "\(seen)")
            #expect(try CollectorFixture.stored(database).ids == seen.accepted)
            #expect(collector.log.contains("stopped: every request in flight was answered"), "\(collector.log)")
        }
    }

    @Test func twoCollectorsShareOneDatabaseAndARevokedKeyFailsOnBothWithinASecond() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let key = try CollectorFixture.prepare(database)
            let one = try RunningCollector(database: database)
            let two = try RunningCollector(database: database)
            let ports = [one.port, two.port]
            let result = Self.devices(8, batches: 10, size: 20, key: key, port: { ports.randomElement() ?? ports[0] })
            #expect(result.statuses == [200: 80])
            // The same events through the other collector: duplicates, counted once.
            let again = try two.post(CollectorFixture.events(20), key: key)
            let ones = try one.post(CollectorFixture.events(20), key: key)
            #expect(again.duplicate == 20 && ones.duplicate == 20, "\(again) \(ones)")
            #expect(try CollectorFixture.stored(database).ids == 1_600)

            let id = try CollectorFixture.count(database, "SELECT max(id)::int AS n FROM app_keys")
            try HeraldCLI(database: database).succeed(["app", "key", "revoke", "weather", String(id), "--tenant", "acme"])
            let revoked = Date()
            for collector in [one, two] {
                var status = 0
                while Date().timeIntervalSince(revoked) < 1 {
                    status = try collector.post(CollectorFixture.events(1, first: 5_000), key: key).status
                    if status == 401 { break }
                    usleep(20_000)
                }
                #expect(status == 401, "still \(status) a second after the revoke")
            }
            #expect(try CollectorFixture.stored(database).ids <= 1_601)
        }
    }

    @Test func theDatabaseStoppedMidLoadGives503sThenEverythingLands() throws {
        try Self.withPrivateServer { server, database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            let port = collector.port
            let stopper = Thread {
                usleep(600_000)
                try? server.stop()
                usleep(2_000_000)
                try? server.start()
            }
            stopper.start()
            let result = Self.devices(6, batches: 30, size: 20, key: key, port: { port }, pause: 40_000)
            #expect(result.statuses[503, default: 0] > 0, "\(result.statuses)")
            #expect(result.acknowledged == 3_600, "\(result)")
            // Recovered by itself: ready again, and every event stored once.
            #expect(try collector.get("/readyz").status == 200)
            let stored = try CollectorFixture.stored(database)
            #expect(stored.ids == 3_600 && stored.raw == 3_600 && stored.summary == 3_600, "\(stored)")
            #expect(try rollupDisagreements(Connection(configuration: database)).differences == 0)
        }
    }

    @Test func aRefusalWhileTheDatabaseIsAwayCarriesRetryAfterAndReadyzSaysSo() throws {
        try Self.withPrivateServer { server, database in
            let key = try CollectorFixture.prepare(database)
            let collector = try RunningCollector(database: database)
            try server.stop()
            var reply = try collector.post(CollectorFixture.events(2), key: key)
            // The first request after the stop may be the one that finds the connection gone.
            if reply.status != 503 { reply = try collector.post(CollectorFixture.events(2), key: key) }
            #expect(reply.status == 503 && reply.headers["retry-after"] == "5", "\(reply)")
            // Readiness follows within a second (the key reader looks twice a second).
            let stopped = Date()
            var ready = try collector.get("/readyz")
            while ready.status == 200, Date().timeIntervalSince(stopped) < 2 {
                usleep(100_000)
                ready = try collector.get("/readyz")
            }
            #expect(ready.status == 503 && ready.headers["retry-after"] == "1", "\(ready)")
            // Why goes to the log, not to whoever can reach /readyz (it names the database).
            #expect(!ready.body.contains("host=") && !ready.body.contains("user="), "\(ready)")
            #expect(collector.log.contains("not ready: "), "\(collector.log)")
            #expect(try collector.get("/healthz").status == 200)
            try server.start()
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, try collector.get("/readyz").status != 200 { usleep(100_000) }
            #expect(try collector.post(CollectorFixture.events(2), key: key).status == 200)
        }
    }

    /// A PostgreSQL of the test's own (the shared one cannot be stopped), migrated.
    static func withPrivateServer(_ body: (LocalPostgresServer, ConnectionConfiguration) throws -> Void) throws {
        let directory = URL(fileURLWithPath: "/tmp/herald-collect-pg-\(UUID().uuidString.prefix(8))")
        let server = LocalPostgresServer(
            directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment))
        server.settings = ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"]
        defer {
            try? server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        try server.initializeIfNeeded()
        try server.start()
        try Connection(configuration: server.configuration(database: "postgres")).execute("CREATE DATABASE herald")
        let database = server.configuration(database: "herald")
        try HeraldCLI(database: database).succeed(["migrate"])
        try body(server, database)
    }
}

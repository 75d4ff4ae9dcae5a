import Foundation
import HeraldReporter
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

/// clients/HeraldReporter.swift, run on Linux against a real `herald collect` while the
/// collector is killed and restarted mid-flush, PostgreSQL stops (503s), the key's rate runs
/// out (429s) and the app itself is killed: every recorded event is stored exactly once.
@Suite struct ReporterTests {
    @Test func everyRecordedEventIsStoredExactlyOnceThroughKillsOutagesAndRateLimits() throws {
        try CollectorLoadTests.withPrivateServer { server, database in
            let key = try CollectorFixture.prepare(database)
            let limits = ["--key-rate", "150", "--key-burst", "200"]
            var collector: RunningCollector? = try RunningCollector(database: database, arguments: limits)
            let port = try #require(collector?.port)
            try withTemporaryDirectory { folder in
                let logged = Mutex<[String]>([])
                func reporter() throws -> HeraldReporter {
                    var configuration = HeraldReporter.Configuration(
                        endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/v1/events")), appKey: key, directory: folder)
                    configuration.flushInterval = 0.3
                    configuration.initialBackoff = 0.05
                    configuration.maxBackoff = 0.8
                    configuration.timeout = 5
                    configuration.maxBatch = 150
                    configuration.log = { line in logged.withLock { $0.append(line) } }
                    return try HeraldReporter(configuration: configuration)
                }
                var ids: [UUID] = []
                var current: HeraldReporter? = try reporter()
                let campaigns = ["spring-sale", "welcome", "tour"]
                for n in 0..<900 {
                    ids.append(
                        try #require(current).record(
                            campaign: campaigns[n % 3], kind: n % 2 == 0 ? .impression : .click, device: "device-\(n % 40)", locale: "en",
                            appVersion: "3.1.0", osVersion: "17.4"))
                    usleep(2_000)
                    switch n {
                    case 150:
                        // The collector killed mid-flush, and back on the same port once the reporter
                        // has met the dead port (as with the outage below: under load it may still be
                        // waiting out a 429 when the loop gets here, and the kill must be seen).
                        collector?.signal(SIGKILL)
                        _ = collector?.waitForExit()
                        collector = nil
                        usleep(300_000)
                        let killDeadline = Date().addingTimeInterval(30)
                        while Date() < killDeadline, !logged.withLock({ $0.contains { $0.hasPrefix("network error") } }) {
                            current?.flush()
                            usleep(100_000)
                        }
                        collector = try RunningCollector(database: database, port: port, arguments: limits)
                    case 400:
                        try server.stop()
                    case 550:
                        // The outage lasts until the reporter has met it: under load it may still be
                        // waiting out a 429 when the loop gets here, and a 503 must be seen.
                        let outageDeadline = Date().addingTimeInterval(30)
                        while Date() < outageDeadline, !logged.withLock({ $0.contains { $0.hasPrefix("HTTP 503") } }) {
                            current?.flush()
                            usleep(100_000)
                        }
                        try server.start()
                    case 700:
                        // The app killed: a new reporter reads the same queue from disk.
                        current?.stop()
                        current = nil
                        current = try reporter()
                    default: break
                    }
                }
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline, try #require(current).pendingCount > 0 {
                    current?.flush()
                    usleep(200_000)
                }
                current?.stop()
                #expect(try #require(current).pendingCount == 0)
                let stored = Set(
                    try Connection(configuration: database).query("SELECT event_id::text AS id FROM event_ids").map {
                        try $0.decode("id", as: String.self)
                    })
                #expect(stored == Set(ids.map { $0.uuidString.lowercased() }))
                let totals = try CollectorFixture.stored(database)
                #expect(totals.ids == 900 && totals.raw == 900 && totals.summary == 900, "\(totals)")
                #expect(try rollupDisagreements(Connection(configuration: database)).differences == 0)
                let lines = logged.withLock { $0 }
                #expect(lines.contains { $0.hasPrefix("HTTP 429") }, "no 429 seen: \(lines)")
                #expect(lines.contains { $0.hasPrefix("HTTP 503") }, "no 503 seen: \(lines)")
                #expect(lines.contains { $0.hasPrefix("network error") }, "the kill was not seen: \(lines)")
            }
        }
    }
}

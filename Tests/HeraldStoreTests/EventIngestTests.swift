import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import PropertyBased
import Synchronization
import Testing

/// One NDJSON event line; every field can be overridden.
func eventLine(
    _ number: Int, tenant: String = "acme", app: String = "weather", campaign: String = "spring", device: String = "d-1",
    kind: String = "impression", at: String = "2026-11-20T10:00:00Z", locale: String = "en"
) -> String {
    let id = String(format: "00000000-0000-4000-8000-%012d", number)
    return #"{"event_id":"\#(id)","tenant":"\#(tenant)","app":"\#(app)","campaign":"\#(campaign)","device":"\#(device)","kind":"\#(kind)","at":"\#(at)","locale":"\#(locale)","app_version":"2.4.0"}"#
}

func parse(_ lines: [String]) -> [EventRecord] {
    var parser = EventStreamParser(format: .ndjson)
    return parser.feed(Array((lines.joined(separator: "\n") + "\n").utf8)) + parser.finish()
}

@Suite struct EventIngestTests {
    static let mixed = [
        eventLine(1),
        eventLine(2, kind: "click"),
        eventLine(1),  // the same event again
        "{",
        eventLine(3, campaign: "nope"),
        eventLine(4, app: "news"),  // globex's app and campaign
        eventLine(5, tenant: "initech"),
        eventLine(6, app: "radio"),
        eventLine(7, tenant: "globex", app: "news", device: "g-1"),
    ]

    @Test func aMixedFileLandsItsGoodLinesAndSaysWhyNotTheRest() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let ingestor = try EventIngestor(database: database)
            let (counts, rejections) = try ingestor.ingest(parse(Self.mixed))
            #expect(counts.read == 9)
            #expect(counts.inserted == 3)
            #expect(counts.duplicate == 1)
            #expect(counts.rejected == 5)
            #expect(rejections.map(\.line) == [4, 5, 6, 7, 8])
            #expect(rejections[0].reason.hasPrefix("invalid JSON"))
            #expect(rejections[1].reason == "unknown campaign \"nope\" in acme/weather")
            #expect(rejections[2].reason == "campaign \"news/spring\" belongs to another tenant, not \"acme\"")
            #expect(rejections[3].reason == "unknown tenant \"initech\"")
            #expect(rejections[4].reason == "unknown app \"radio\" in tenant \"acme\"")
            #expect(rejections[1].text == Self.mixed[4])
            try database.asOperator { session in
                let check = try rollupDisagreements(session.connection)
                #expect(check.differences == 0)
                #expect(check.raw == 3)
            }
        }
    }

    @Test func aTenantSessionSeesOnlyItsOwnHistoryAndRollups() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            _ = try EventIngestor(database: database).ingest(parse(Self.mixed))  // 2 acme events, 1 globex
            for (tenant, expected) in [(seeded.acme.slug, 2), (seeded.globex.slug, 1)] {
                try database.inTenant(tenant, readOnly: true) { session in
                    for table in ["delivery_events", "device_campaign_summary", "campaign_rollup", "campaign_daily_rollup"] {
                        let rows = try session.connection.query("SELECT DISTINCT tenant_id FROM \(UnsafeSQL(table))")
                        #expect(try rows.map { try $0.decode("tenant_id", as: Int64.self) } == [session.tenant.id], "\(table)")
                    }
                    let events: Int = try session.connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n")
                    #expect(events == expected)
                }
                // Raw ids and device-day marks are operator work only (refused: a transaction of its own).
                for table in ["event_ids", "campaign_device_days"] {
                    #expect(throws: (any Error).self, "\(table)") {
                        try database.inTenant(tenant, readOnly: true) { try $0.connection.query("SELECT count(*) FROM \(UnsafeSQL(table))") }
                    }
                }
            }
        }
    }

    @Test func theSameFileThreeTimesCountsEverythingOnce() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let ingestor = try EventIngestor(database: database)
            func totals() throws -> [String] {
                try database.asOperator { session in
                    try session.connection.query(
                        "SELECT concat_ws(' ', campaign, delivered, impressions, clicks, dismissals, unique_devices) AS line FROM reporting.campaign_summary ORDER BY 1"
                    ).map { try $0.decode("line") }
                }
            }
            let first = try ingestor.ingest(parse(Self.mixed)).counts
            let after = try totals()
            #expect(after == ["spring 0 1 1 0 1", "spring 0 1 0 0 1"].sorted())
            for _ in 0..<2 {
                let again = try ingestor.ingest(parse(Self.mixed)).counts
                #expect(again.read == first.read)
                #expect(again.inserted == 0)
                #expect(again.duplicate == first.inserted + first.duplicate)
                #expect(again.rejected == first.rejected)
                #expect(try totals() == after)
            }
        }
    }

    /// Random events (a few campaigns, devices, kinds, days either side of midnight UTC,
    /// locales, ids drawn from a small pool so duplicates happen within and across batches),
    /// ingested in random batches on one to three connections at once: the rollups always
    /// equal a GROUP BY over the raw rows.
    @Test func afterRandomIngestsTheRollupsEqualAGroupByOverTheRawRows() async throws {
        await propertyCheck(
            count: 12, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...80), Gen.int(in: 1...25), Gen.int(in: 1...3)
        ) { codes, batchSize, jobs in
                do {
                    try HeraldFixtures.withMigratedDatabase { fresh in
                        let database = try HeraldDatabase(configuration: fresh, actor: "test")
                        _ = try StoreFixtures.seedTwoTenants(database)
                        let campaigns = [("acme", "weather", "spring"), ("acme", "weather", "hello"), ("globex", "news", "tour")]
                        let kinds = ["delivered", "impression", "click", "dismiss"]
                        let times = ["2026-11-20T23:59:59Z", "2026-11-21T00:00:00Z", "2026-11-21T01:30:00+02:00", "2026-12-01T00:00:00Z"]
                        let lines = codes.map { code in
                            let target = campaigns[code % 3]
                            return eventLine(
                                (code / 3) % 60, tenant: target.0, app: target.1, campaign: target.2, device: "d-\((code / 7) % 5)",
                                kind: kinds[(code / 11) % 4], at: times[(code / 13) % 4], locale: (code / 17) % 2 == 0 ? "en" : "de")
                        }
                        let counts = try ingestInParallel(parse(lines), batchSize: batchSize, jobs: jobs, database)
                        try database.asOperator { session in
                            let check = try rollupDisagreements(session.connection)
                            #expect(check.differences == 0, "codes \(codes), batch \(batchSize), jobs \(jobs)")
                            #expect(counts.inserted == check.raw)
                            #expect(counts.inserted + counts.duplicate == codes.count)
                            let ids: Int = try session.connection.query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
                            #expect(ids == check.raw)
                        }
                    }
                } catch {
                    Issue.record(error)
                }
        }
    }

    /// Two ingests of overlapping input at the same moment, each on three connections, in
    /// small batches (so batches of both meet on the same ids, devices and rollup rows): every
    /// event is stored once, and the rollups agree with the raw rows.
    @Test func ingestsRunningAtTheSameTimeStoreEachEventOnce() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let kinds = ["delivered", "impression", "click", "dismiss"]
            let lines = (0..<600).map { (n: Int) -> String in
                let campaign = n % 2 == 0 ? "spring" : "hello"
                let at = String(format: "2026-11-%02dT%02d:00:00Z", 20 + n % 3, n % 24)
                let locale = n % 5 == 0 ? "de" : "en"
                return eventLine(n % 400, campaign: campaign, device: "d-\(n % 37)", kind: kinds[n % 4], at: at, locale: locale)
            }
            let first = parse(Array(lines[0..<450]))
            let second = parse(Array(lines[150..<600]))
            let results = Locked<[IngestCounts]>([])
            let failures = Locked<[String]>([])
            let group = DispatchGroup()
            for records in [first, second] {
                group.enter()
                Thread {
                    do {
                        let own = try HeraldDatabase(configuration: configuration, actor: "test")
                        let counts = try ingestInParallel(records, batchSize: 20, jobs: 3, own)
                        results.mutate { $0.append(counts) }
                    } catch {
                        failures.mutate { $0.append("\(error)") }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            #expect(failures.value.isEmpty, "\(failures.value)")
            let inserted = results.value.reduce(0) { $0 + $1.inserted }
            let duplicate = results.value.reduce(0) { $0 + $1.duplicate }
            #expect(inserted == 400)
            #expect(duplicate == 900 - 400)
            try database.asOperator { session in
                let check = try rollupDisagreements(session.connection)
                #expect(check.differences == 0)
                #expect(check.raw == 400)
            }
        }
    }

    /// Two ingestors on one connection (the staging tables are made once per connection).
    @Test func aSecondIngestorOnTheSameConnectionWorks() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            #expect(try EventIngestor(database: database).ingest(parse([eventLine(1)])).counts.inserted == 1)
            #expect(try EventIngestor(database: database).ingest(parse([eventLine(1), eventLine(2)])).counts.inserted == 1)
        }
    }

    /// An id PostgreSQL would refuse is rejected on its own line; the rest of the batch lands.
    @Test func anIdThatIsNotAUUIDIsRejectedAlone() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let bad = eventLine(2).replacingOccurrences(of: "00000000-0000-4000-8000-000000000002", with: "-f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071")
            let (counts, rejections) = try EventIngestor(database: database).ingest(parse([eventLine(1), bad]))
            #expect(counts.inserted == 1)
            #expect(rejections.map(\.line) == [2])
            #expect(rejections.first?.reason.contains("is not a UUID") == true)
        }
    }

    /// Times go to PostgreSQL in its binary form, computed here: they must be exactly what
    /// PostgreSQL makes of the text (zones, fractions rounded to the microsecond, the UTC day).
    @Test func timesAreStoredExactlyAsPostgreSQLReadsTheirText() throws {
        let times = [
            "2026-11-20T10:00:00Z", "2026-11-20T23:59:59.9999996Z", "2026-11-21T00:30:00+01:00", "2026-11-20T22:30:00-0230",
            "2026-11-20T10:00:00.0000005Z", "2026-11-20T10:00:00.0000015Z", "2026-11-20T10:00:00.123456789+14:00",
            "2026-12-31T23:59:59.5-12", "2028-02-29T12:00:00.25Z", "2026-11-20 10:00:00.1Z",
            "2026-11-30T23:59:59.9999997Z",  // rounds into December: its partition too
        ]
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let records = parse(times.enumerated().map { eventLine($0.offset, device: "t-\($0.offset)", at: $0.element) })
            #expect(try EventIngestor(database: database).ingest(records).counts.inserted == times.count)
            try database.asOperator { session in
                for (number, text) in times.enumerated() {
                    let row = try session.connection.query(
                        """
                        SELECT e.at = $2::timestamptz AS same, e.event_id::text AS id,
                               d.day = ($2::timestamptz AT TIME ZONE 'UTC')::date AS same_day
                        FROM delivery_events e JOIN campaign_device_days d ON d.campaign_id = e.campaign_id AND d.device = e.device
                        WHERE e.device = $1
                        """, ["t-\(number)", text])
                    #expect(row.count == 1)
                    #expect(try row.first?.decode("same", as: Bool.self) == true, "\(text)")
                    #expect(try row.first?.decode("same_day", as: Bool.self) == true, "\(text)")
                    #expect(try row.first?.decode("id", as: String.self) == String(format: "00000000-0000-4000-8000-%012d", number))
                }
            }
        }
    }

    @Test func pruningDropsWholeMonthsKeepsRollupsAndRefusesOlderEvents() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let ingestor = try EventIngestor(database: database)
            _ = try ingestor.ingest(parse([
                eventLine(1, at: "2026-01-15T00:00:00Z"), eventLine(2, at: "2026-02-15T00:00:00Z"),
                eventLine(3, at: "2026-03-15T00:00:00Z", locale: "de"),
            ]))
            func summary() throws -> String {
                try database.asOperator {
                    try $0.connection.query("SELECT concat_ws(' ', impressions, unique_devices) AS s FROM reporting.campaign_summary")[0].decode("s")
                }
            }
            #expect(try summary() == "3 1")
            let dropped = try database.asOperator { try $0.eventRetention.prune(before: "2026-03-10") }
            #expect(dropped == ["delivery_events_2026_01", "delivery_events_2026_02"])
            #expect(try summary() == "3 1")
            try database.asOperator { (session: OperatorSession) throws in
                #expect(try session.connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n", as: Int.self) == 1)
                #expect(try session.eventRetention.prunedBefore() == "2026-03-01")
            }
            let (counts, rejections) = try ingestor.ingest(parse([eventLine(4, at: "2026-02-28T23:00:00Z"), eventLine(5, at: "2026-03-01T00:00:00Z")]))
            #expect(counts.inserted == 1)
            #expect(rejections.map(\.line) == [1])
            #expect(rejections.first?.reason.contains("before 2026-03-01") == true)
            // Pruning the same months again drops nothing and keeps the horizon.
            #expect(try database.asOperator { try $0.eventRetention.prune(before: "2026-01-01") }.isEmpty)
            #expect(try database.asOperator { try $0.eventRetention.prunedBefore() } == "2026-03-01")
        }
    }
}

/// `records` stored by `ParallelEventIngest` on `jobs` connections (the first is `database`),
/// in batches of `batchSize`; the summed counts.
func ingestInParallel(_ records: [EventRecord], batchSize: Int, jobs: Int, _ database: HeraldDatabase) throws -> IngestCounts {
    var databases = [database]
    for _ in 1..<jobs { databases.append(try database.connectAgain()) }
    let batches = Locked(stride(from: 0, to: records.count, by: batchSize).map { Array(records[$0..<min($0 + batchSize, records.count)]) })
    var total = IngestCounts()
    try ParallelEventIngest(databases: databases).run(next: {
        batches.mutate { $0.isEmpty ? nil : $0.removeFirst() }
    }) { counts, _ in
        total += counts
    }
    return total
}

/// A value behind a lock, for tests that run work on several threads.
final class Locked<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    init(_ value: Value) { stored = Mutex(value) }

    var value: Value { stored.withLock { $0 } }

    func mutate<T: Sendable>(_ body: (inout Value) -> T) -> T {
        stored.withLock { body(&$0) }
    }
}

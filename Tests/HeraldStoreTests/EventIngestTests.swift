import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PropertyBased
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
                        let rows = try session.connection.query("SELECT DISTINCT tenant_id FROM \(table)")
                        #expect(try rows.map { try $0.decode("tenant_id", as: Int64.self) } == [session.tenant.id], "\(table)")
                    }
                    let events: Int = try session.connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n")
                    #expect(events == expected)
                }
                // Raw ids and device-day marks are operator work only (refused: a transaction of its own).
                for table in ["event_ids", "campaign_device_days"] {
                    #expect(throws: (any Error).self, "\(table)") {
                        try database.inTenant(tenant, readOnly: true) { try $0.connection.query("SELECT count(*) FROM \(table)") }
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
    /// ingested in random batches: the rollups always equal a GROUP BY over the raw rows.
    @Test func afterRandomIngestsTheRollupsEqualAGroupByOverTheRawRows() async throws {
        await propertyCheck(count: 12, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...80), Gen.int(in: 1...25)) { codes, batchSize in
                do {
                    try HeraldFixtures.withMigratedDatabase { fresh in
                        let database = try HeraldDatabase(configuration: fresh, actor: "test")
                        _ = try StoreFixtures.seedTwoTenants(database)
                        let ingestor = try EventIngestor(database: database)
                        let campaigns = [("acme", "weather", "spring"), ("acme", "weather", "hello"), ("globex", "news", "tour")]
                        let kinds = ["delivered", "impression", "click", "dismiss"]
                        let times = ["2026-11-20T23:59:59Z", "2026-11-21T00:00:00Z", "2026-11-21T01:30:00+02:00", "2026-12-01T00:00:00Z"]
                        let lines = codes.map { code in
                            let target = campaigns[code % 3]
                            return eventLine(
                                (code / 3) % 60, tenant: target.0, app: target.1, campaign: target.2, device: "d-\((code / 7) % 5)",
                                kind: kinds[(code / 11) % 4], at: times[(code / 13) % 4], locale: (code / 17) % 2 == 0 ? "en" : "de")
                        }
                        let records = parse(lines)
                        var start = 0
                        while start < records.count {
                            let end = min(start + batchSize, records.count)
                            _ = try ingestor.ingest(Array(records[start..<end]))
                            start = end
                        }
                        try database.asOperator { session in
                            let check = try rollupDisagreements(session.connection)
                            #expect(check.differences == 0, "codes \(codes), batch \(batchSize)")
                            let ids: Int = try session.connection.query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
                            #expect(ids == check.raw)
                        }
                    }
                } catch {
                    Issue.record(error)
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

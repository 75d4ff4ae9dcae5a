import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// Event ids are each tenant's own (0017_event_ids_per_tenant.sql): clients make them, so two
/// tenants may send the same id for two different events, and each is stored and counted once
/// in its own tenant.
@Suite struct EventIDsPerTenantTests {
    /// The same five ids for acme and for globex.
    static func sameIDs(tenant: String, app: String) -> [String] {
        (1...5).map { eventLine($0, tenant: tenant, app: app, device: "\(tenant)-\($0 % 2)", kind: $0 % 2 == 0 ? "click" : "impression") }
    }

    static func impressionsAndClicks(_ database: HeraldDatabase) throws -> [String] {
        try database.asOperator { session in
            try session.connection.query(
                "SELECT concat_ws(' ', tenant, campaign, impressions, clicks) AS line FROM reporting.campaign_summary ORDER BY 1"
            ).map { try $0.decode("line") }
        }
    }

    @Test(arguments: [true, false])
    func twoTenantsSendingTheSameIdsEachStoreTheirOwnAndCountThemOnce(oneBatch: Bool) throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let ingestor = try EventIngestor(database: database)
            let acme = Self.sameIDs(tenant: "acme", app: "weather")
            let globex = Self.sameIDs(tenant: "globex", app: "news")
            var first = IngestCounts()
            if oneBatch {
                first = try ingestor.ingest(parse(acme + globex)).counts
            } else {
                first += try ingestor.ingest(parse(acme)).counts
                first += try ingestor.ingest(parse(globex)).counts
            }
            #expect(first.inserted == 10)
            #expect(first.duplicate == 0)
            let counted = ["acme spring 3 2", "globex spring 3 2"]
            #expect(try Self.impressionsAndClicks(database) == counted)

            // Again, whole or per tenant, and in the other order: nothing more is counted.
            for lines in [acme + globex, globex, acme, globex + acme] {
                let again = try ingestor.ingest(parse(lines)).counts
                #expect(again.inserted == 0)
                #expect(again.duplicate == lines.count)
            }
            // A line repeated inside a batch is still one event of its tenant.
            let repeated = try ingestor.ingest(parse([eventLine(9, tenant: "globex", app: "news"), eventLine(9, tenant: "globex", app: "news")])).counts
            #expect(repeated.inserted == 1 && repeated.duplicate == 1)
            #expect(try Self.impressionsAndClicks(database) == ["acme spring 3 2", "globex spring 4 2"])
            try database.asOperator { session in
                #expect(try rollupDisagreements(session.connection).differences == 0)
                let ids = try session.connection.query(
                    "SELECT t.slug::text AS tenant, count(*)::int AS n FROM event_ids i JOIN tenants t ON t.id = i.tenant_id GROUP BY 1 ORDER BY 1"
                ).map { "\(try $0.decode("tenant", as: String.self)) \(try $0.decode("n", as: Int.self))" }
                #expect(ids == ["acme 5", "globex 6"])
            }
        }
    }

    /// On several connections at once, in small batches, two tenants' overlapping inputs with
    /// the same ids: every event is stored once per tenant.
    @Test func twoTenantsOnSeveralConnectionsStoreEachOfTheirEventsOnce() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let lines = (0..<200).flatMap { n in
                [eventLine(n % 120, device: "d-\(n % 7)"), eventLine(n % 120, tenant: "globex", app: "news", device: "d-\(n % 7)")]
            }
            let counts = try ingestInParallel(parse(lines), batchSize: 15, jobs: 3, database)
            #expect(counts.inserted == 240)
            #expect(counts.duplicate == 400 - 240)
            try database.asOperator { session in
                let check = try rollupDisagreements(session.connection)
                #expect(check.differences == 0)
                #expect(check.raw == 240)
            }
        }
    }
}

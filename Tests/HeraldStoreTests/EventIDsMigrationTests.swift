import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// Upgrading from 0016 (ids unique across tenants) to 0017 (ids per tenant) with ids already
/// stored, some of them pruned, by Herald's own login (not a superuser: row security is
/// forced on it).
@Suite struct EventIDsMigrationTests {
    static func id(_ number: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", number)
    }

    /// Three tenants with a campaign each; stored ids 1 (acme, January), 2 (acme, March),
    /// 3 (globex, March), 4 (initech, February); then January and February pruned.
    static func seedBefore0017(_ connection: Connection) throws {
        try connection.transaction { tx in
            try tx.execute("SET LOCAL ROLE herald_operator")
            try tx.execute(
                """
                WITH t AS (INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme'), ('globex', 'Globex'), ('initech', 'Initech') RETURNING id, slug),
                a AS (INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales)
                      SELECT id, 'weather', 'Weather', 'ios', 'com.' || slug || '.weather', 'en', '{en}' FROM t RETURNING tenant_id, id)
                INSERT INTO campaigns (tenant_id, app_id, key, kind, name) SELECT tenant_id, id, 'spring', 'alert', 'Spring' FROM a
                """)
            for month in ["2026-01-01", "2026-02-01", "2026-03-01"] {
                try tx.execute("SELECT herald_ensure_event_partitions($1::date)", [month])
            }
            try tx.execute(
                """
                INSERT INTO delivery_events (tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version)
                SELECT c.tenant_id, c.app_id, c.id, e.id::uuid, 'd-1', 'impression', e.at::timestamptz, 'en', '1.0'
                FROM unnest($1::text[], $2::text[], $3::text[]) AS e (tenant, id, at)
                JOIN tenants t ON t.slug = e.tenant JOIN campaigns c ON c.tenant_id = t.id
                """,
                [["acme", "acme", "globex", "initech"], [id(1), id(2), id(3), id(4)],
                 ["2026-01-15T00:00:00Z", "2026-03-15T00:00:00Z", "2026-03-20T00:00:00Z", "2026-02-10T00:00:00Z"]])
            try tx.execute("INSERT INTO event_ids (event_id) SELECT event_id FROM delivery_events")
            try tx.execute(
                """
                INSERT INTO campaign_rollup (tenant_id, app_id, campaign_id, impressions, unique_devices, first_at, last_at)
                SELECT tenant_id, app_id, campaign_id, count(*), 1, min(at), max(at) FROM delivery_events GROUP BY 1, 2, 3
                """)
            let dropped = try tx.query("SELECT herald_prune_events('2026-03-01') AS name").map { try $0.decode("name", as: String.self) }
            #expect(dropped == ["delivery_events_2026_01", "delivery_events_2026_02"])
        }
    }

    @Test func storedIdsKeepTheirTenantAndPrunedOnesGoToEveryTenantWithEventsBeforeTheHorizon() throws {
        let through0016 = Migration.bundled.filter { $0.name < "0017" }
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin(migrations: through0016) { configuration, _ in
            let owner = try Connection(configuration: configuration)
            try Self.seedBefore0017(owner)
            #expect(try Migrator().migrate(owner) == Migration.bundled.map(\.name).filter { $0 >= "0017" })

            func stored() throws -> [String] {
                try owner.transaction { tx in
                    try tx.execute("SET LOCAL ROLE herald_operator")
                    return try tx.query(
                        """
                        SELECT t.slug::text || ' ' || right(i.event_id::text, 1) AS row
                        FROM event_ids i JOIN tenants t ON t.id = i.tenant_id ORDER BY 1
                        """
                    ).map { try $0.decode("row") }
                }
            }
            // 2 and 3 from the raw history; 1 (acme's) and 4 (initech's) were pruned, and both
            // tenants had events before the horizon, 2026-03-01; globex did not.
            #expect(try stored() == ["acme 1", "acme 2", "acme 4", "globex 3", "initech 1", "initech 4"])
            let table = try owner.query(
                """
                SELECT c.relrowsecurity AND c.relforcerowsecurity AS forced, to_regclass('event_ids_across_tenants') IS NULL AS old_gone,
                       (SELECT relforcerowsecurity FROM pg_class WHERE oid = 'delivery_events'::regclass)
                       AND (SELECT relforcerowsecurity FROM pg_class WHERE oid = 'campaign_rollup'::regclass) AS still_forced
                FROM pg_class c WHERE c.oid = 'event_ids'::regclass
                """)[0]
            #expect(try table.decode("forced", as: Bool.self))
            #expect(try table.decode("old_gone", as: Bool.self))
            #expect(try table.decode("still_forced", as: Bool.self))

            // Ingest after the upgrade (at or after the horizon): a tenant's own ids, pruned or
            // not, are duplicates; another tenant's are new events.
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let march = "2026-03-05T00:00:00Z"
            let (counts, rejections) = try EventIngestor(database: database).ingest(parse([
                eventLine(1, at: march), eventLine(2, at: "2026-03-15T00:00:00Z"), eventLine(3, at: march),
                eventLine(1, tenant: "globex", at: march), eventLine(3, tenant: "globex", at: "2026-03-20T00:00:00Z"),
                eventLine(4, tenant: "initech", at: march), eventLine(2, tenant: "initech", at: march),
            ]))
            #expect(rejections.isEmpty)
            #expect(counts.inserted == 3)
            #expect(counts.duplicate == 4)
            #expect(try stored() == ["acme 1", "acme 2", "acme 3", "acme 4", "globex 1", "globex 3", "initech 1", "initech 2", "initech 4"])
        }
    }
}

import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// A tenant's analyst logs in with their own role and tries everything: the database must
/// show them their tenant's reporting rows and nothing else, whatever they SET.
@Suite struct ReportingRoleTests {
    static let views = ["campaign_summary", "campaign_daily", "device_history", "app_summary"]
    static let rawTables = [
        "tenants", "apps", "campaigns", "campaign_conditions", "alert_contents", "audit_log", "delivery_events",
        "delivery_events_2026_11", "event_ids", "device_campaign_summary", "campaign_rollup", "campaign_daily_rollup",
        "campaign_device_days", "event_retention", "reporting_grants", "publish_runs", "publish_blobs", "herald_migrations",
    ]

    /// Two tenants with events; `body` gets the database and a way to connect as a role.
    func withTwoTenantsReporting(_ body: (HeraldDatabase, (String) throws -> Connection) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            _ = try EventIngestor(database: database).ingest(parse([
                eventLine(1), eventLine(2, kind: "click"), eventLine(3, campaign: "hello", device: "d-2"),
                eventLine(4, tenant: "globex", app: "news", device: "secret-device"),
                eventLine(5, tenant: "globex", app: "news", campaign: "tour", device: "secret-device", kind: "dismiss"),
            ]))
            let name: String = try database.connection.query("SELECT current_database() AS n")[0].decode("n")
            try body(database) { role in
                try Connection(configuration: PostgresTestServer.shared().configuration(database: name, user: role))
            }
        }
    }

    func uniqueRole(_ base: String) -> String {
        "\(base)_\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func anAnalystSeesTheirTenantAndNothingElseWhateverTheyTry() throws {
        try withTwoTenantsReporting { database, connect in
            let role = uniqueRole("acme_analyst")
            let outcome = try database.asOperator {
                try $0.reportingAccess.grant(role: role, tenant: try Slug("acme"), password: "s3cret 'quoted'")
            }
            #expect(outcome == .created)
            let analyst = try connect(role)

            func tenantsSeen() throws -> [String: Set<String>] {
                var seen: [String: Set<String>] = [:]
                for view in Self.views {
                    seen[view] = Set(try analyst.query("SELECT tenant FROM reporting.\(UnsafeSQL(view))").map { try $0.decode("tenant", as: String.self) })
                }
                return seen
            }
            let expected = Dictionary(uniqueKeysWithValues: Self.views.map { ($0, Set(["acme"])) })
            #expect(try tenantsSeen() == expected)
            #expect(try analyst.query("SELECT * FROM reporting.campaign_summary WHERE tenant = 'globex'").isEmpty)
            #expect(try analyst.query("SELECT * FROM reporting.device_history WHERE device = 'secret-device'").isEmpty)

            // Settings the analyst can change change nothing; roles they might switch to are refused.
            let globexID: Int64 = try database.asOperator {
                try $0.connection.query("SELECT id FROM tenants WHERE slug = 'globex'")[0].decode("id")
            }
            try analyst.execute("SELECT set_config('herald.tenant_id', $1, false)", [String(globexID)])
            try analyst.execute("SET search_path = reporting, public")
            try analyst.execute("SET row_security = off")  // allowed to set, and no row appears because of it
            #expect(try tenantsSeen() == expected)
            for statement: SQL in [
                "SET ROLE herald_operator", "SET ROLE herald_tenant", "SET ROLE postgres", "SET SESSION AUTHORIZATION postgres",
            ] {
                #expect(throws: PostgresError.self, "\(statement)") { try analyst.execute(statement) }
            }
            #expect(try tenantsSeen() == expected)

            // No raw table, not even their own tenant's rows of one.
            for table in Self.rawTables {
                #expect(throws: PostgresError.self, "\(table)") { try analyst.query("SELECT * FROM public.\(UnsafeSQL(table)) LIMIT 1") }
            }
            // No writes, through the views or around them.
            for statement: SQL in [
                "DELETE FROM reporting.campaign_summary", "UPDATE reporting.campaign_daily SET events = 0",
                "INSERT INTO reporting.app_summary (tenant) VALUES ('x')", "INSERT INTO public.event_ids (tenant_id, event_id) VALUES (1, gen_random_uuid())",
                "UPDATE public.campaign_rollup SET clicks = 0", "DELETE FROM public.delivery_events",
                "TRUNCATE public.campaign_rollup",
            ] {
                #expect(throws: PostgresError.self, "\(statement)") { try analyst.execute(statement) }
            }
            // Nothing of their own: tables, temporary tables, schemas, functions, views, roles.
            for statement: SQL in [
                "CREATE TABLE public.mine (x int)", "CREATE TEMP TABLE mine (x int)", "CREATE SCHEMA mine",
                "CREATE VIEW reporting.mine AS SELECT 1", "CREATE FUNCTION pg_temp.leak(text) RETURNS bool LANGUAGE sql AS 'SELECT true'",
                "CREATE ROLE mine", "SELECT herald_grant_reporting('mine', 1, NULL)", "SELECT herald_prune_events('2100-01-01')",
                "SELECT herald_ensure_event_partitions('2030-01-01')",
            ] {
                #expect(throws: PostgresError.self, "\(statement)") { try analyst.execute(statement) }
            }
            #expect(try tenantsSeen() == expected)
        }
    }

    /// Two ways around the views that used to work: storage of one's own (large objects), and
    /// the plan of a view, which said how many of other tenants' rows a filter removed. Every
    /// count in a plan is now of the analyst's own rows (ReportingByIndexTests tries each
    /// question beside tenants with far more rows).
    @Test func anAnalystCanNeitherCreateLargeObjectsNorCountOtherTenantsInAPlan() throws {
        try withTwoTenantsReporting { database, connect in
            // Globex gets far more events (and days) than Acme has, so that a count of them shows.
            _ = try EventIngestor(database: database).ingest(parse((0..<100).map {
                eventLine(100 + $0, tenant: "globex", app: "news", device: "g-\($0)", at: String(format: "2026-11-%02dT10:00:00Z", 1 + $0 % 28))
            }))
            let role = uniqueRole("acme_analyst")
            _ = try database.asOperator { try $0.reportingAccess.grant(role: role, tenant: try Slug("acme"), password: nil) }
            let analyst = try connect(role)
            for statement in ["SELECT lo_from_bytea(0, 'x')", "SELECT lo_create(0)", "SELECT lo_creat(-1)"] {
                #expect(throws: PostgresError.self, "\(statement)") { try analyst.query("\(UnsafeSQL(statement))") }
            }
            for view in Self.views {
                let plan = try analyst.query("EXPLAIN (ANALYZE, VERBOSE, BUFFERS) SELECT * FROM reporting.\(UnsafeSQL(view))")
                    .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
                let own = try analyst.query("SELECT count(*) AS n FROM reporting.\(UnsafeSQL(view))")[0].decode("n", as: Int.self)
                #expect(plan.contains("rows=\(own) loops=1"), "\(view):\n\(plan)")
                #expect(!plan.contains("Seq Scan") && !plan.contains("globex"), "\(view):\n\(plan)")
                // No node of the plan read or removed another tenant's row: Acme has 3 events,
                // 3 campaigns, 1 app and 2 daily rows (4 each, unfolded); Globex over 100 events.
                let counted = PlanCounts(plan).above(12)
                #expect(counted.isEmpty, "\(view): \(counted)\n\(plan)")
            }
        }
    }

    @Test func eachTenantsAnalystSeesOnlyTheirOwnNumbers() throws {
        try withTwoTenantsReporting { database, connect in
            let acme = uniqueRole("acme")
            let globex = uniqueRole("globex")
            try database.asOperator { session in
                _ = try session.reportingAccess.grant(role: acme, tenant: try Slug("acme"), password: nil)
                _ = try session.reportingAccess.grant(role: globex, tenant: try Slug("globex"), password: nil)
            }
            func summary(_ role: String) throws -> [String] {
                try connect(role).query(
                    "SELECT concat_ws(' ', tenant, app, campaign, impressions, clicks, dismissals, unique_devices) AS s FROM reporting.campaign_summary ORDER BY 1"
                ).map { try $0.decode("s") }
            }
            #expect(try summary(acme) == ["acme weather hello 1 0 0 1", "acme weather spring 1 1 0 1"])
            #expect(try summary(globex) == ["globex news spring 1 0 0 1", "globex news tour 0 0 1 1"])
            // Herald's operator role sees both; a role with no grant sees nothing at all.
            let operatorRows = try database.asOperator { try $0.connection.query("SELECT tenant FROM reporting.campaign_summary").count }
            #expect(operatorRows == 4)
        }
    }

    @Test func grantingIsCheckedAndRevokingDropsTheRole() throws {
        try withTwoTenantsReporting { database, connect in
            let role = uniqueRole("acme")
            let acme = try Slug("acme")
            let globex = try Slug("globex")
            #expect(try database.asOperator { try $0.reportingAccess.grant(role: role, tenant: acme, password: nil) } == .created)
            #expect(try database.asOperator { try $0.reportingAccess.grant(role: role, tenant: acme, password: "new") } == .updated)
            #expect(try database.asOperator { try $0.reportingAccess.roles(tenant: acme) } == [role])
            // Another tenant cannot take it over; roles Herald did not make are never touched.
            for (name, tenant, words) in [
                (role, globex, "already reads another tenant"), ("postgres", acme, "is not a Herald reporting role"),
                ("herald_operator", acme, "invalid reporting role name"), ("Robert'); DROP TABLE tenants;--", acme, "invalid reporting role name"),
            ] {
                do {
                    _ = try database.asOperator { try $0.reportingAccess.grant(role: name, tenant: tenant, password: nil) }
                    Issue.record("granted \(name)")
                } catch {
                    #expect("\(error)".contains(words), "\(name): \(error)")
                }
            }
            #expect(
                performing: { try database.asOperator { try $0.reportingAccess.revoke(role: role, tenant: globex) } },
                throws: isStoreError(.invalid))
            #expect(try database.asOperator { try $0.reportingAccess.revoke(role: role, tenant: acme) })
            #expect(throws: PostgresError.self) { try connect(role) }
            #expect(try database.asOperator { try $0.reportingAccess.revoke(role: role, tenant: acme) } == false)
            #expect(try database.asOperator { try $0.connection.query("SELECT count(*) AS n FROM tenants")[0].decode("n", as: Int.self) } == 2)
        }
    }
}

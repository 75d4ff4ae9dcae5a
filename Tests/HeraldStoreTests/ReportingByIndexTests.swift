import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// The reporting views answer the documented questions through indexes that lead with the
/// caller's tenant (0025), for every login that reads them, before and after ANALYZE; and a
/// plan counts the caller's rows only. Acme, the caller, has a few rows; two other tenants
/// have hundreds, some under the same app, campaign and device names as Acme's.
@Suite struct ReportingByIndexTests {
    /// More than any plan of Acme's rows counts in one node; less than the other tenants' rows
    /// in every table a view reads (240 campaigns and 61 apps, 1,100 events, hundreds of daily rows).
    static let ownBound = 60

    struct Question {
        let label: String
        let sql: String
        /// A line of the plan that shows the question answered by an index (a regular expression):
        /// the tenant leads it, and beside it the device or the days where the question names
        /// them. (Which of the tenant's indexes answers a campaign's or an app's question depends
        /// on how many rows the tenant has: Acme's few are read whole; the benchmark's plans at
        /// 10,000,000 events use the campaign's index.)
        let indexed: String
    }

    static let questions = [
        Question(
            label: "one device's history", sql: "SELECT * FROM reporting.device_history WHERE device = 'd-1' ORDER BY at, event_id",
            indexed: #"Index Cond: .*device = 'd-1'"#),
        Question(
            label: "one campaign's days",
            sql: "SELECT * FROM reporting.campaign_daily WHERE app = 'weather' AND campaign = 'spring' ORDER BY day, locale, event",
            indexed: #"Index Cond: \(+tenant_id = "#),
        Question(
            label: "an app's last 7 days",
            sql: "SELECT * FROM reporting.campaign_daily WHERE app = 'weather' AND day >= '2026-11-14' ORDER BY campaign, day, locale, event",
            indexed: #"Index Cond: \(+tenant_id = "#),
        Question(
            label: "a day range", sql: "SELECT * FROM reporting.campaign_daily WHERE day BETWEEN '2026-11-19' AND '2026-11-20' ORDER BY campaign, day, locale, event",
            indexed: #"Index Cond: .*day >= "#),
        Question(
            label: "one campaign's summary", sql: "SELECT * FROM reporting.campaign_summary WHERE app = 'weather' AND campaign = 'spring'",
            indexed: #"Index Cond: \(+tenant_id = "#),
        Question(label: "every campaign", sql: "SELECT * FROM reporting.campaign_summary ORDER BY app, campaign", indexed: #"Index Cond: \(?tenant_id = "#),
        Question(label: "every app", sql: "SELECT * FROM reporting.app_summary ORDER BY app", indexed: #"Index Cond: \(?tenant_id = "#),
        Question(label: "every day", sql: "SELECT * FROM reporting.campaign_daily", indexed: #"Index Cond: \(?tenant_id = "#),
        Question(label: "the whole history", sql: "SELECT * FROM reporting.device_history", indexed: #"Index Cond: \(?tenant_id = "#),
    ]

    struct Setup {
        let admin: Connection
        let database: HeraldDatabase
        /// Connects as a role (its login's own settings apply).
        let connect: (String) throws -> Connection
    }

    /// Acme (8 events), Globex (its own app "weather" with a campaign "spring", 300 events,
    /// devices "d-1" and "secret-device") and bench (60 apps × 4 campaigns, 800 events).
    func withThreeTenants(_ body: (Setup) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            try database.inTenant(try Slug("globex")) { session in
                let app = try session.apps.create(try StoreFixtures.app("weather"))
                _ = try session.campaigns.create(try StoreFixtures.banner("spring"), in: app)
            }
            let admin = try Connection(configuration: configuration)
            try LargeSiteFixture.populate(admin, apps: 60, campaignsPerApp: 4)
            var lines = [
                eventLine(1, device: "d-1", kind: "delivered", at: "2026-11-19T08:00:00Z"),
                eventLine(2, device: "d-1", at: "2026-11-19T08:01:00Z"),
                eventLine(3, device: "d-1", kind: "click", at: "2026-11-19T08:02:00Z"),
                eventLine(4, campaign: "hello", device: "d-1", at: "2026-11-20T09:00:00Z", locale: "de"),
                eventLine(5, campaign: "hello", device: "d-2", at: "2026-11-20T09:30:00Z"),
                eventLine(6, device: "d-2", kind: "dismiss", at: "2026-11-21T10:00:00Z"),
                eventLine(7, campaign: "tour", device: "d-3", at: "2026-11-02T10:00:00Z"),
                eventLine(8, device: "d-3", at: "2026-11-25T23:59:59Z"),
            ]
            for n in 0..<300 {
                lines.append(
                    eventLine(
                        1000 + n, tenant: "globex", device: n % 2 == 0 ? "d-1" : "secret-device", kind: ["delivered", "impression", "click"][n % 3],
                        at: String(format: "2026-11-%02dT%02d:00:00Z", 1 + n % 30, n % 24), locale: n % 3 == 0 ? "de" : "en"))
            }
            for n in 0..<800 {
                lines.append(
                    eventLine(
                        5000 + n, tenant: "bench", app: "app-\(1 + n % 60)", campaign: "c-\(1 + n % 4)", device: n % 5 == 0 ? "d-1" : "b-\(n % 97)",
                        at: String(format: "2026-11-%02dT12:00:00Z", 1 + n % 30)))
            }
            let summary = try EventIngestor(database: database).ingest(parse(lines))
            #expect(summary.counts.inserted == lines.count, "\(summary)")
            let name: String = try admin.query("SELECT current_database() AS n")[0].decode("n")
            try body(
                Setup(admin: admin, database: database) { role in
                    try Connection(configuration: PostgresTestServer.shared().server.configuration(database: name, user: role))
                })
        }
    }

    /// The lines of `plan`'s nodes that read one of `tables` (the node and its details).
    static func nodes(of plan: String, reading tables: [String]) -> String {
        var kept: [Substring] = []
        var keeping = false
        for line in plan.split(separator: "\n") {
            if line.contains("->") { keeping = tables.contains { line.contains(" on \($0)") } }
            if keeping { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    func plan(_ connection: Connection, _ sql: String) throws -> String {
        try connection.query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) \(UnsafeSQL(sql))")
            .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
    }

    func rows(_ connection: Connection, _ sql: String) throws -> [String] {
        let result = try connection.query("\(UnsafeSQL(sql))")
        return try result.map { row in try result.columns.map { try row.decode($0, as: String?.self) ?? "∅" }.joined(separator: " ") }
    }

    /// Every question as each of Acme's logins, then as Herald's operator role (every tenant,
    /// narrowed to Acme by the analyst's own condition): the same rows, each answered by an
    /// index, no scan of a whole table, and a tenant's login's plan counting its rows only.
    func checkEveryQuestion(_ setup: Setup, analyst: Connection, tenantOperator: Connection, herald: Connection, when: String) throws {
        for question in Self.questions {
            let expected = try rows(herald, "SELECT * FROM (\(question.sql)) q WHERE tenant = 'acme'")
            #expect(!expected.isEmpty, "\(question.label)")
            for (login, connection) in [("analyst", analyst), ("tenant operator", tenantOperator)] {
                #expect(try rows(connection, question.sql).sorted() == expected.sorted(), "\(login), \(question.label), \(when)")
                let plan = PlanCounts.executed(try plan(connection, question.sql))
                #expect(!plan.contains("Seq Scan") && !plan.contains(" on tenants"), "\(login), \(question.label), \(when):\n\(plan)")
                #expect(plan.range(of: question.indexed, options: .regularExpression) != nil, "\(login), \(question.label), \(when):\n\(plan)")
                let counted = PlanCounts(plan).above(Self.ownBound)
                #expect(counted.isEmpty, "\(login), \(question.label), \(when): \(counted)\n\(plan)")
            }
        }
    }

    @Test func everyQuestionIsAnsweredByTheCallersIndexBeforeAndAfterAnalyze() throws {
        try withThreeTenants { setup in
            let analystRole = "acme_analyst_\(UInt32.random(in: 0...UInt32.max))"
            let operatorRole = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
            try setup.database.asOperator { session in
                _ = try session.reportingAccess.grant(role: analystRole, tenant: try Slug("acme"), password: nil)
                _ = try session.operatorAccess.grant(role: operatorRole, tenant: try Slug("acme"), password: nil)
            }
            let analyst = try setup.connect(analystRole)
            let tenantOperator = try setup.connect(operatorRole)
            try tenantOperator.execute("SET ROLE herald_tenant")
            let herald = try setup.connect("postgres")
            try herald.execute("SET ROLE herald_operator")

            // Partitioned parents have no statistics until someone runs ANALYZE (autovacuum
            // never does); the rollups and partitions may or may not have theirs yet.
            let parentAnalyzed: Bool = try setup.admin.query(
                "SELECT count(*) > 0 AS analyzed FROM pg_stats WHERE tablename = 'delivery_events'")[0].decode("analyzed")
            #expect(!parentAnalyzed)
            try checkEveryQuestion(setup, analyst: analyst, tenantOperator: tenantOperator, herald: herald, when: "before ANALYZE")
            try setup.admin.execute("ANALYZE")
            try checkEveryQuestion(setup, analyst: analyst, tenantOperator: tenantOperator, herald: herald, when: "after ANALYZE")
        }
    }

    /// What the analyst's own SQL can do with another tenant's rows: nothing. Conditions that
    /// could fail on a row (division by zero) or call a function of theirs run on Acme's rows
    /// only; names shared with other tenants find Acme's rows only.
    @Test func anAnalystsConditionsNeverMeetAnotherTenantsRows() throws {
        try withThreeTenants { setup in
            let role = "acme_analyst_\(UInt32.random(in: 0...UInt32.max))"
            _ = try setup.database.asOperator { try $0.reportingAccess.grant(role: role, tenant: try Slug("acme"), password: nil) }
            let analyst = try setup.connect(role)
            let own: Int = try setup.admin.query(
                "SELECT count(*) AS n FROM delivery_events WHERE tenant_id = (SELECT id FROM tenants WHERE slug = 'acme')")[0].decode("n")
            for condition in [
                "1 / (CASE WHEN device = 'secret-device' THEN 0 ELSE 1 END) = 1",
                "1 / (CASE WHEN app = 'app-1' THEN 0 ELSE 1 END) = 1",
                "1 / (CASE WHEN tenant = 'bench' THEN 0 ELSE 1 END) = 1",
                "1 / (CASE WHEN campaign = 'c-1' THEN 0 ELSE 1 END) = 1",
                "length(event_id::text) / (CASE WHEN at < '2026-11-02' AND device <> 'd-3' THEN 0 ELSE 1 END) > 0",
            ] {
                let count: Int = try analyst.query("SELECT count(*) AS n FROM reporting.device_history WHERE \(UnsafeSQL(condition))")[0].decode("n")
                #expect(count == own, "\(condition)")
            }
            #expect(try analyst.query("SELECT * FROM reporting.device_history WHERE device = 'secret-device'").isEmpty)
            #expect(try analyst.query("SELECT * FROM reporting.campaign_daily WHERE tenant IN ('bench', 'globex')").isEmpty)
            #expect(try analyst.query("SELECT * FROM reporting.campaign_summary WHERE app LIKE 'app-%'").isEmpty)
            let devices = try rows(analyst, "SELECT DISTINCT tenant, device FROM reporting.device_history WHERE device = 'd-1'")
            #expect(devices == ["acme d-1"])
            // The setting that narrows Herald's operator role to one tenant cannot move a tenant's login.
            try analyst.execute("SET herald.reporting_tenant = 'globex'")
            #expect(try rows(analyst, "SELECT DISTINCT tenant, device FROM reporting.device_history WHERE device = 'd-1'") == ["acme d-1"])
            #expect(try rows(analyst, "SELECT DISTINCT tenant FROM reporting.campaign_summary") == ["acme"])
            try analyst.execute("RESET herald.reporting_tenant")
            // The views' own functions tell the analyst nothing it does not know.
            #expect(try rows(analyst, "SELECT herald_reporting_every_tenant('herald_operator')::text AS every, herald_login_tenant_slug() AS slug")
                == ["false acme"])
            // The login's planner settings: no sequential scans, no plain index scans (a full
            // index scan filters other tenants' rows as a sequential scan does); bitmap scans
            // need an index condition, which leads with the tenant. No JIT (the branch of the
            // views that does not run would make every plan costly enough to compile).
            #expect(try rows(analyst, "SELECT concat_ws(' ', current_setting('enable_seqscan'), current_setting('enable_indexscan'), current_setting('jit')) AS s")
                == ["off off off"])
        }
    }
}

extension ReportingByIndexTests {
    /// `herald report` (and the board, which reads `report daily`) runs as Herald's operator
    /// role over the same views; the tenant it is given (`herald.reporting_tenant`, set by each
    /// report) narrows the views' list of tenants to that one, and the tenant and app it is
    /// given are index conditions too.
    @Test func heraldsReportsReadOneTenantsRowsByIndex() throws {
        try withThreeTenants { setup in
            let acme = try Slug("acme")
            try setup.database.asOperator(readOnly: true) { session in
                let device = try session.reports.device(ReportFilter(tenant: acme, device: "d-1", since: "2026-11-01", until: "2026-11-30"))
                #expect(device.rows.count == 4 && device.rows.allSatisfy { $0.first == "acme" }, "\(device.rows)")
                let daily = try session.reports.daily(ReportFilter(tenant: acme, app: try Slug("weather"), since: "2026-11-14", until: "2026-11-30"))
                #expect(!daily.rows.isEmpty && daily.rows.allSatisfy { $0.first == "acme" }, "\(daily.rows)")
                let reports: [(Query, [any PostgresEncodable], String)] = [
                    (.reportDevice, ["d-1"], #"Index Cond: \(\(tenant_id = ANY \(\$[0-9]+\)\) AND \((device = 'd-1'|campaign_id = )"#),
                    (.reportDaily, [], #"Index Cond: \(\(tenant_id = ANY \(\$[0-9]+\)\) AND \(day >= "#),
                ]
                // As each report sets it for its transaction (ReportScope).
                try session.connection.execute("SELECT set_config('herald.reporting_tenant', 'acme', true)")
                for (query, extra, indexed) in reports {
                    let parameters: [any PostgresEncodable] = ["acme", "weather", nil as String?, "2026-11-14", "2026-11-30"] + extra
                    let plan = PlanCounts.executed(
                        try session.connection.query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) \(UnsafeSQL(query.sql.text))", parameters)
                            .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n"))
                    #expect(plan.range(of: indexed, options: .regularExpression) != nil, "\(query):\n\(plan)")
                    // Only Acme's rows of the history and the rollups are read: their nodes count none
                    // of the other tenants' hundreds (Herald's own session may read small tables whole).
                    let counted = PlanCounts(Self.nodes(of: plan, reading: ["delivery_events", "campaign_daily_rollup"])).above(Self.ownBound)
                    #expect(counted.isEmpty, "\(query): \(counted)\n\(plan)")
                }
            }
        }
    }
}

extension ReportingByIndexTests {
    /// As in production, the views belong to Herald's own login, which is no superuser: row
    /// security applies inside them too, and holds each tenant's login to its tenant (0025's
    /// bounds); Herald's operator role sees every tenant, the owner itself none.
    @Test func inADatabaseOwnedByHeraldsLoginEachLoginReadsWhatItShould() throws {
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin { configuration, name in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            _ = try EventIngestor(database: database).ingest(parse([
                eventLine(1, device: "d-1"), eventLine(2, device: "d-1", kind: "click"),
                eventLine(3, tenant: "globex", app: "news", device: "d-1"),
            ]))
            let analystRole = "acme_analyst_\(UInt32.random(in: 0...UInt32.max))"
            let operatorRole = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
            try database.asOperator { session in
                _ = try session.reportingAccess.grant(role: analystRole, tenant: try Slug("acme"), password: nil)
                _ = try session.operatorAccess.grant(role: operatorRole, tenant: try Slug("acme"), password: nil)
            }
            func connect(_ role: String) throws -> Connection {
                try Connection(configuration: PostgresTestServer.shared().server.configuration(database: name, user: role))
            }
            let tenantOperator = try connect(operatorRole)
            try tenantOperator.execute("SET ROLE herald_tenant")
            let herald = try Connection(configuration: configuration)
            for (login, connection) in [("analyst", try connect(analystRole)), ("tenant operator", tenantOperator)] {
                #expect(try rows(connection, "SELECT tenant, device, event FROM reporting.device_history WHERE device = 'd-1' ORDER BY at, event")
                    == ["acme d-1 click", "acme d-1 impression"], "\(login)")
                #expect(try rows(connection, "SELECT tenant, app, campaign, clicks FROM reporting.campaign_summary") == ["acme weather spring 1"], "\(login)")
                #expect(try rows(connection, "SELECT DISTINCT tenant FROM reporting.campaign_daily") == ["acme"], "\(login)")
                #expect(try rows(connection, "SELECT tenant, app FROM reporting.app_summary") == ["acme weather"], "\(login)")
            }
            // Herald's own login without SET ROLE would read nothing: it is told who reads the
            // views (issue #23), not given an empty answer that looks like no events.
            for view in ["campaign_summary", "campaign_daily", "device_history", "app_summary"] {
                #expect {
                    _ = try herald.query("SELECT * FROM reporting.\(UnsafeSQL(view))")
                } throws: { error in
                    let failure = error as? PostgresError
                    return failure?.sqlState == .insufficientPrivilege && failure?.hint?.contains("SET ROLE herald_operator") == true
                }
            }
            try herald.execute("SET ROLE herald_operator")
            #expect(try rows(herald, "SELECT tenant FROM reporting.device_history ORDER BY tenant, event") == ["acme", "acme", "globex"])
        }
    }
}

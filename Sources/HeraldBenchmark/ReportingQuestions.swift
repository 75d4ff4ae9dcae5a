import Foundation
import HeraldTestSupport
import PostgresClient

/// The questions reporting is for, timed as the tenant's analyst (through the `reporting`
/// views, the way psql sends them) beside the same question asked of the tables by a superuser
/// (the floor: no view, no row security), and `herald report device` end to end.
struct ReportingQuestions {
    let configuration: ConnectionConfiguration
    let analyst: Connection
    let superuser: Connection
    let heraldBinary: URL
    let scratch: URL
    /// One slow statement ends there (the views read through functions before 0025 took minutes).
    static let statementTimeoutMilliseconds = 30_000
    /// Runs of one question stop at 20 or once this much time went into it.
    static let budgetSeconds = 60.0

    struct Question {
        let label: String
        let goalMilliseconds: Double?
        let view: SQL
        let floor: SQL
        let parameters: [any PostgresEncodable]
    }

    /// The analyst login `role` of tenant `bench` (made once), connected.
    static func connect(
        server: PostgresTestServer, database: String, admin: Connection, heraldBinary: URL, scratch: URL
    ) throws -> ReportingQuestions {
        let role = "bench_analyst"
        let tenant: Int64 = try admin.query("SELECT id FROM tenants WHERE slug = 'bench'")[0].decode("id")
        _ = try admin.query("SELECT herald_grant_reporting($1, $2, NULL)", [role, tenant])
        let configuration = server.configuration(database: database)
        let analyst = try Connection(configuration: server.server.configuration(database: database, user: role))
        let superuser = try Connection(configuration: configuration)
        for connection in [analyst, superuser] {
            try connection.execute("SELECT set_config('statement_timeout', $1, false)", [String(statementTimeoutMilliseconds)])
        }
        return ReportingQuestions(
            configuration: configuration, analyst: analyst, superuser: superuser, heraldBinary: heraldBinary, scratch: scratch)
    }

    /// The four questions of issue #29, on the benchmark's tenant (one device of 200,000, one
    /// campaign of 1,000, the last 7 days of one app of 50, every campaign).
    static var questions: [Question] {
        [
        Question(
            label: "one device's history", goalMilliseconds: 10,
            view: "SELECT * FROM reporting.device_history WHERE device = $1 ORDER BY at, event_id",
            floor: """
                SELECT t.slug::text AS tenant, a.slug::text AS app, e.device, e.at, c.key::text AS campaign, c.kind::text AS kind,
                       e.kind::text AS event, e.locale::text AS locale, e.app_version, e.os_version, e.event_id
                FROM delivery_events e JOIN campaigns c ON c.id = e.campaign_id JOIN apps a ON a.id = e.app_id
                JOIN tenants t ON t.id = e.tenant_id
                WHERE e.tenant_id = (SELECT id FROM tenants WHERE slug = 'bench') AND e.device = $1 ORDER BY e.at, e.event_id
                """,
            parameters: ["device-17"]),
        Question(
            label: "one campaign's daily rows", goalMilliseconds: 10,
            view: "SELECT * FROM reporting.campaign_daily WHERE app = $1 AND campaign = $2 ORDER BY day, locale, event",
            floor: """
                SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign, d.day, d.locale::text AS locale,
                       k.event, k.events, k.unique_devices
                FROM campaign_daily_rollup d
                CROSS JOIN LATERAL (VALUES ('delivered', d.delivered, d.delivered_devices), ('impression', d.impressions, d.impression_devices),
                                           ('click', d.clicks, d.click_devices), ('dismiss', d.dismissals, d.dismiss_devices)) k (event, events, unique_devices)
                JOIN campaigns c ON c.id = d.campaign_id JOIN apps a ON a.id = d.app_id JOIN tenants t ON t.id = d.tenant_id
                WHERE k.events > 0 AND a.slug = $1 AND c.key = $2 ORDER BY d.day, locale, k.event
                """,
            parameters: ["app-7", "c-1"]),
        Question(
            label: "an app's last 7 days (daily rows)", goalMilliseconds: 20,
            view: "SELECT * FROM reporting.campaign_daily WHERE app = $1 AND day >= $2::date ORDER BY campaign, day, locale, event",
            floor: """
                SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign, d.day, d.locale::text AS locale,
                       k.event, k.events, k.unique_devices
                FROM campaign_daily_rollup d
                CROSS JOIN LATERAL (VALUES ('delivered', d.delivered, d.delivered_devices), ('impression', d.impressions, d.impression_devices),
                                           ('click', d.clicks, d.click_devices), ('dismiss', d.dismissals, d.dismiss_devices)) k (event, events, unique_devices)
                JOIN campaigns c ON c.id = d.campaign_id JOIN apps a ON a.id = d.app_id JOIN tenants t ON t.id = d.tenant_id
                WHERE k.events > 0 AND a.slug = $1 AND d.day >= $2::date ORDER BY campaign, d.day, locale, k.event
                """,
            parameters: ["app-7", "2026-12-25"]),
        Question(
            label: "campaign summary (every campaign)", goalMilliseconds: nil,
            view: "SELECT * FROM reporting.campaign_summary ORDER BY app, campaign",
            floor: """
                SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign, c.kind::text AS kind, r.delivered,
                       r.impressions, r.clicks, r.dismissals, r.unique_devices,
                       CASE WHEN r.impressions > 0 THEN round(r.clicks::numeric / r.impressions, 4) END AS click_through_rate,
                       r.first_at AS first_event, r.last_at AS last_event
                FROM campaign_rollup r JOIN campaigns c ON c.id = r.campaign_id JOIN apps a ON a.id = r.app_id
                JOIN tenants t ON t.id = r.tenant_id
                ORDER BY app, campaign
                """,
            parameters: []),
        ]
    }

    /// The view's and the floor's runs taken in turn (view, floor, view, …), so that both meet
    /// the same moments of the machine (autovacuum starting, a page read from disk) rather than
    /// one of them all of a passing slowdown.
    func timedSideBySide(_ question: Question) -> (view: Timing, floor: Timing) {
        var view = Timing()
        var floor = Timing()
        var spent = 0.0
        while view.latencies.count < 20 && spent < Self.budgetSeconds && !view.timedOut && !floor.timedOut {
            spent += view.run(analyst, question.view, question.parameters)
            spent += floor.run(superuser, question.floor, question.parameters)
        }
        return (view, floor)
    }

    /// One side's runs: their times, the rows of the last, and whether one hit the statement timeout.
    struct Timing {
        var latencies: [Double] = []
        var rows = 0
        var timedOut = false

        /// Median seconds (the statement timeout once one run hit it).
        var median: Double {
            timedOut || latencies.isEmpty ? Double(ReportingQuestions.statementTimeoutMilliseconds) / 1000 : latencies.sorted()[latencies.count / 2]
        }

        /// Runs `sql` once; returns the seconds it took.
        mutating func run(_ connection: Connection, _ sql: SQL, _ parameters: [any PostgresEncodable]) -> Double {
            do {
                var count = 0
                let elapsed = try seconds { count = try connection.query(sql, parameters).count }
                latencies.append(elapsed)
                rows = count
                return elapsed
            } catch {
                timedOut = true
                return Double(ReportingQuestions.statementTimeoutMilliseconds) / 1000
            }
        }
    }

    static func milliseconds(_ result: Timing) -> String {
        if result.timedOut { return String(format: "> %.0f s (timed out)", result.median) }
        return String(format: "%.2f ms", result.median * 1000) + (result.latencies.count < 20 ? " (\(result.latencies.count) runs)" : "")
    }

    /// Waits (up to 15 minutes) until no autovacuum worker runs: on 2 cores, its passes over
    /// the millions of rows just stored would be timed with every question (most of all the
    /// end-to-end run, a new process and connection each time). Returns the seconds waited.
    func waitForAutovacuum() throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        while elapsed() < 900 {
            let workers: Int = try superuser.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'")[0].decode("n")
            if workers == 0 { break }
            usleep(500_000)
        }
        return elapsed()
    }

    /// Every question as the analyst beside the floor, then `herald report device`.
    func measure(_ when: String) throws {
        let waited = try waitForAutovacuum()
        print("reporting questions, \(when) (median of 20, taken in turn; analyst through the views | superuser on the tables)"
            + (waited > 1 ? String(format: "; after autovacuum's %.0f s on what the ingest stored", waited) : ""))
        for question in Self.questions {
            let (view, floor) = timedSideBySide(question)
            let ratio = view.timedOut || floor.timedOut ? "" : String(format: "   %.1f× the floor", view.median / floor.median)
            let goal = question.goalMilliseconds.map { String(format: "   goal ≤ %.0f ms, ≤ 2×", $0) } ?? ""
            line(
                "  \(question.label)",
                "\(Self.milliseconds(view)) | \(Self.milliseconds(floor))   \(view.rows) rows\(view.rows == floor.rows ? "" : " (floor: \(floor.rows)!)")\(ratio)\(goal)")
        }
        var latencies: [Double] = []
        var spent = 0.0
        let output = scratch.appendingPathComponent("report.out")
        let errors = scratch.appendingPathComponent("report.err")
        while latencies.count < 20 && spent < Self.budgetSeconds {
            let (elapsed, status) = try timedRun(
                heraldBinary, ["report", "device", "--device", "device-17", "--tenant", "bench", "--since", "2026-11-01", "--until", "2026-12-31"],
                environment: [
                    "HERALD_DATABASE_URL": configuration.conninfo, "PATH": "/usr/bin:/bin",
                    "PGOPTIONS": "-c statement_timeout=\(Self.statementTimeoutMilliseconds)",
                ],
                output: output, errors: errors)
            guard status == 0 else {
                line("  herald report device (end to end)", "exited \(status): \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
                return
            }
            latencies.append(elapsed)
            spent += elapsed
        }
        let shown = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").count
        line(
            "  herald report device (end to end)",
            Self.milliseconds(Timing(latencies: latencies, rows: shown)) + "   \(shown) lines   goal ≤ 50 ms")
    }
}

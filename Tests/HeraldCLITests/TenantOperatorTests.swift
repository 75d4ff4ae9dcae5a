import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// A tenant's own team logs in as its own role (`herald tenant grant-operator`) and tries to
/// reach another tenant every way PostgreSQL and Herald offer: the database must hold it in
/// its tenant, and Herald must say so in words (exit 77).
///
/// The victim is the demo tenant (apps, campaigns, 468 events, a published site, its audit
/// log); the attacker operates tenant `acme`.
@Suite struct TenantOperatorTests {
    struct Setup {
        let database: ConnectionConfiguration
        let owner: InProcessHerald
        /// herald as acme's operator: its own URL, no HERALD_TENANT.
        let attacker: InProcessHerald
        let role: String
        let attackerConfiguration: ConnectionConfiguration
        let demoID: Int64
        let site: URL
    }

    /// The demo (as Herald's owner), tenant acme with one app, and an operator login for acme.
    func withAttacker(_ body: (Setup) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let owner = InProcessHerald(database: database)
                let site = root.appendingPathComponent("site")
                try owner.succeed(["demo", "--yes", "--out", site.path, "--board", root.appendingPathComponent("review").path])
                try owner.succeed(["tenant", "create", "acme", "--name", "Acme"])
                let role = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
                let granted = try owner.succeed(
                    ["tenant", "grant-operator", "acme", "--role", role, "--password-from-stdin"], stdin: "s3cret 'quoted'\n")
                #expect(granted.stdout.contains("created role \(role)"), "\(granted)")
                defer { _ = try? owner.run(["tenant", "revoke-operator", "acme", "--role", role]) }
                let admin = try Connection(configuration: database)
                let name: String = try admin.query("SELECT current_database() AS n")[0].decode("n")
                let demoID: Int64 = try admin.query("SELECT id FROM tenants WHERE slug = 'demo'")[0].decode("id")
                let attackerConfiguration = try PostgresTestServer.shared().configuration(database: name, user: role)
                let attacker = InProcessHerald(
                    database: attackerConfiguration, environment: ["HERALD_ACTOR": "someone-else"])
                try attacker.succeed(
                    ["app", "create", "radio", "--name", "Radio", "--platform", "ios", "--bundle-id", "com.acme.radio",
                     "--default-locale", "en", "--locales", "en,de"])
                try attacker.succeed(
                    ["campaign", "create", "hello", "--app", "radio", "--kind", "alert", "--name", "Hello", "--title", "Hi",
                     "--message", "There"])
                try body(
                    Setup(
                        database: database, owner: owner, attacker: attacker, role: role,
                        attackerConfiguration: attackerConfiguration, demoID: demoID, site: site))
            }
        }
    }

    /// The demo tenant's rows (and every Herald table's), read as the superuser.
    static func victimFingerprint(_ database: ConnectionConfiguration) throws -> String {
        let connection = try Connection(configuration: database)
        var parts = [try HeraldFixtures.fingerprint(database)]
        for table in [
            "delivery_events", "device_campaign_summary", "campaign_rollup", "campaign_daily_rollup", "publish_runs",
            "publish_blobs", "tenant_publish_blobs", "reporting_grants", "operator_grants", "event_ids",
        ] {
            parts.append(try connection.query("SELECT count(*)::text || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM \(UnsafeSQL(table)) t")[0].decode("d"))
        }
        return parts.joined(separator: " ")
    }

    /// Every escape from a tenant that PostgreSQL offers a login, tried over libpq: settings,
    /// roles, session authorization, security-definer functions, sequences, COPY, large
    /// objects, temporary objects, plans and errors. None reads, counts or changes a row of
    /// the demo tenant.
    @Test func overLibpqNoEscapeReachesAnotherTenant() throws {
        try withAttacker { setup in
            let before = try Self.victimFingerprint(setup.database)
            let demo = setup.demoID
            let admin = try Connection(configuration: setup.database)
            let demoApp: Int64 = try admin.query("SELECT id FROM apps WHERE tenant_id = $1", [demo])[0].decode("id")
            let demoCampaign: Int64 = try admin.query("SELECT min(id) AS id FROM campaigns WHERE tenant_id = $1", [demo])[0].decode("id")
            let demoRun: Int64 = try admin.query("SELECT max(id) AS id FROM publish_runs")[0].decode("id")
            // A month of raw events: a partition, which carries no policy of its own.
            let partition: String = try admin.query(
                "SELECT min(c.relname::text) AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'delivery_events'::regclass"
            )[0].decode("name")
            let tenantTables = [
                "apps", "campaigns", "alert_message_keys", "campaign_conditions", "banner_contents", "banner_views", "alert_contents",
                "story_contents", "story_pages", "local_notifications", "local_contents", "audit_log", "delivery_events", "device_campaign_summary", "campaign_rollup",
                "campaign_daily_rollup", "tenant_publish_blobs", "tenant_locks",
            ]
            var attempts = 0
            var held = 0

            /// What one session, set up as `setup` says, can see of the demo tenant: every way of
            /// reading, counting and writing its rows must come back empty, zero or refused.
            /// `plans`: whether the views' plans count acme's rows only (not with the planner
            /// settings acme's login starts with turned back on: then a plan may count a whole
            /// table's rows, which pg_class shows any login anyway).
            func probe(_ label: String, _ connection: Connection, plans: Bool = true) {
                func seen(_ sql: String, _ parameters: [any PostgresEncodable] = []) {
                    attempts += 1
                    do {
                        let rows = try connection.query("\(UnsafeSQL(sql))", parameters)
                        let value = try rows.first.map { row in try row.decode(rows.columns[0], as: String?.self) } ?? nil
                        let nothing = rows.isEmpty || value == nil || value == "0" || value == "false"
                        #expect(nothing, "\(label): \(sql) gave \(value ?? "a row")")
                        if nothing { held += 1 }
                    } catch {
                        held += 1  // refused
                    }
                }
                func refused(_ sql: String, _ parameters: [any PostgresEncodable] = []) {
                    attempts += 1
                    do {
                        try connection.execute("\(UnsafeSQL(sql))", parameters)
                        Issue.record("\(label): \(sql) was allowed")
                    } catch {
                        held += 1
                    }
                }
                for table in tenantTables {
                    seen("SELECT count(*)::text FROM \(table) WHERE tenant_id = $1", [demo])
                }
                seen("SELECT count(*)::text FROM tenants WHERE slug = 'demo'")
                seen("SELECT count(*)::text FROM publish_runs WHERE tenant_id IS DISTINCT FROM (SELECT id FROM tenants WHERE slug = 'acme')")
                for view in ["campaign_summary", "campaign_daily", "device_history", "app_summary"] {
                    seen("SELECT count(*)::text FROM reporting.\(view) WHERE tenant <> 'acme'")
                    seen("SELECT count(*)::text FROM reporting.\(view) WHERE app IN ('weather', 'news') OR campaign IN ('welcome', 'spring-sale')")
                    // Conditions that could fail on a row run on acme's rows only.
                    seen("SELECT count(*)::text FROM reporting.\(view) WHERE 1 / (CASE WHEN app = 'weather' THEN 0 ELSE 1 END) = 0")
                    // A plan counts only what the caller may see: acme has one app, one campaign
                    // and no events; a node that read or removed a demo row counts more than 1.
                    guard plans else { continue }
                    attempts += 1
                    if let plan = try? connection.query("EXPLAIN (ANALYZE, VERBOSE, BUFFERS) SELECT * FROM reporting.\(UnsafeSQL(view))")
                        .map({ try $0.decode("QUERY PLAN", as: String.self) }).joined(separator: "\n")
                    {
                        let counted = PlanCounts(plan).above(1)
                        #expect(counted.isEmpty && !plan.contains("Seq Scan"), "\(label): \(counted)\n\(plan)")
                        if counted.isEmpty { held += 1 }
                    } else {
                        held += 1
                    }
                }
                // The views' own functions: the login's tenant, never every tenant.
                seen("SELECT herald_reporting_every_tenant('herald_operator')::text")
                seen("SELECT herald_reporting_every_tenant(current_user)::text")
                seen("SELECT (herald_login_tenant_slug() IS DISTINCT FROM 'acme')::text")
                seen("SELECT (tenant IS DISTINCT FROM 'acme' OR tenant_ids <> ARRAY[(SELECT id FROM tenants WHERE slug = 'acme')])::text FROM herald_reporting_scope()")
                // The setting that narrows herald_operator's views to one tenant moves no tenant's login
                // (set_config's value compared to 'x': false, so `seen` runs it as a step).
                seen("SELECT (set_config('herald.reporting_tenant', 'demo', false) = 'x')::text")
                seen("SELECT (tenant IS DISTINCT FROM 'acme' OR cardinality(tenant_ids) <> 1)::text FROM herald_reporting_scope()")
                seen("SELECT count(*)::text FROM reporting.campaign_summary WHERE tenant <> 'acme'")
                seen("SELECT (set_config('herald.reporting_tenant', '', false) = 'x')::text")
                seen("SELECT (herald_login_tenant() IS DISTINCT FROM (SELECT id FROM tenants WHERE slug = 'acme'))::text")
                seen("SELECT (kind <> 'operator' OR tenant <> 'acme')::text FROM herald_login()")
                seen("SELECT (coalesce(herald_first_visible_tenant(), 0) = $1 OR coalesce(herald_last_visible_tenant(), 0) = $1)::text", [demo])
                // Writes across the border: no row changes (0 rows) or a refusal.
                seen("WITH u AS (UPDATE apps SET name = 'Stolen' WHERE tenant_id = $1 RETURNING 1) SELECT count(*)::text FROM u", [demo])
                seen("WITH u AS (UPDATE campaigns SET status = 'archived' WHERE id = $1 RETURNING 1) SELECT count(*)::text FROM u", [demoCampaign])
                seen("WITH d AS (DELETE FROM campaign_conditions WHERE tenant_id = $1 RETURNING 1) SELECT count(*)::text FROM d", [demo])
                seen("WITH d AS (DELETE FROM alert_contents WHERE tenant_id = $1 RETURNING 1) SELECT count(*)::text FROM d", [demo])
                seen("WITH u AS (UPDATE publish_runs SET outcome = 'failed' WHERE id = $1 RETURNING 1) SELECT count(*)::text FROM u", [demoRun])
                seen("SELECT count(*)::text FROM (SELECT 1 FROM tenant_locks WHERE tenant_id = $1 FOR UPDATE) l", [demo])
                refused("INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales) VALUES ($1, 'evil', 'Evil', 'ios', 'com.evil.app', 'en', '{en}')", [demo])
                refused("INSERT INTO campaigns (tenant_id, app_id, key, kind, name) VALUES ($1, $2, 'evil', 'alert', 'Evil')", [demo, demoApp])
                refused("INSERT INTO audit_log (tenant_id, actor, action, entity) VALUES ($1, 'forged', 'insert', 'apps')", [demo])
                refused("INSERT INTO tenant_locks (tenant_id, purpose) VALUES ($1, 'apply')", [demo])
                refused("INSERT INTO tenant_publish_blobs (tenant_id, digest, content) VALUES ($1, repeat('a', 64), 'x')", [demo])
                refused("INSERT INTO publish_runs (actor, out_dir, publish_at, outcome, tenant_id) VALUES ('x', '/tmp', now(), 'running', $1)", [demo])
                refused("INSERT INTO publish_runs (actor, out_dir, publish_at, outcome, rollback_of, tenant_id) VALUES ('x', '/tmp', now(), 'running', $1, (SELECT id FROM tenants WHERE slug = 'acme'))", [demoRun])
                refused("UPDATE tenants SET name = 'Stolen' WHERE id = $1", [demo])
                // A taken id must not say "exists": naming an id is not allowed at all.
                refused("INSERT INTO campaigns (id, app_id, key, kind, name) OVERRIDING SYSTEM VALUE VALUES ($1, (SELECT id FROM apps WHERE slug = 'radio'), 'probe', 'alert', 'Probe')", [demoCampaign])
                // Functions that run with more rights than the caller.
                refused("SELECT herald_grant_operator('stolen_ops', $1, NULL)", [demo])
                refused("SELECT herald_grant_reporting('stolen_analyst', $1, NULL)", [demo])
                refused("SELECT herald_revoke_operator($1, $2)", [setup.role, demo])
                refused("SELECT herald_prune_events('2100-01-01')")
                refused("SELECT herald_ensure_event_partitions('2030-01-01')")
                refused("SELECT * FROM herald_ensure_access()")
                refused("SELECT herald_grant_login_access($1)", [setup.role])
                // Sequences: neither read nor advanced.
                refused("SELECT nextval('campaigns_id_seq')")
                refused("SELECT last_value FROM audit_log_id_seq")
                refused("SELECT setval('apps_id_seq', 1)")
                // COPY: never into a row-secured table, never to or from the server's files.
                refused("COPY apps FROM '/etc/hostname'")
                refused("COPY (SELECT * FROM apps) TO '/tmp/herald-stolen'")
                refused("COPY apps TO PROGRAM 'true'")
                // Large objects, temporary objects, objects of its own, other roles.
                refused("SELECT lo_from_bytea(0, 'x')")
                refused("SELECT lo_create(0)")
                refused("SELECT lo_import('/etc/hostname')")
                refused("CREATE TEMP TABLE audit_log (x int)")
                refused("CREATE FUNCTION pg_temp.herald_session_tenant() RETURNS bigint LANGUAGE sql AS 'SELECT 1'")
                refused("CREATE TABLE public.operator_grants_copy (x int)")
                refused("CREATE SCHEMA stolen")
                refused("CREATE TRIGGER stolen AFTER INSERT ON apps FOR EACH ROW EXECUTE FUNCTION herald_audit_row()")
                refused("CREATE ROLE stolen")
                refused("GRANT herald_operator TO \(setup.role)")
                refused("ALTER ROLE \(setup.role) SUPERUSER")
                // Holding up Herald's own publishes and migrations.
                refused("SELECT pg_advisory_lock($1::bigint)", [AdvisoryLock.publish.rawValue])
                refused("SELECT pg_try_advisory_lock($1::bigint)", [AdvisoryLock.migrate.rawValue])
                // Tables no tenant reads.
                for table in ["event_ids", "campaign_device_days", "publish_blobs", "reporting_grants", "operator_grants", partition, "event_retention"] {
                    refused("SELECT * FROM \(table) LIMIT 1")
                }
            }

            /// A fresh session as the attacker, set up by `statements` (each may be refused).
            func session(_ statements: [String]) throws -> Connection {
                let connection = try Connection(configuration: setup.attackerConfiguration)
                for statement in statements {
                    _ = try? connection.execute("\(UnsafeSQL(statement))")
                }
                return connection
            }
            let escapes: [(String, [String])] = [
                ("its own tenant", ["SET ROLE herald_tenant", "SELECT set_config('herald.tenant_id', (SELECT id FROM tenants)::text, false)"]),
                ("SET herald.tenant_id", ["SET ROLE herald_tenant", "SET herald.tenant_id = '\(demo)'"]),
                ("set_config", ["SET ROLE herald_tenant", "SELECT set_config('herald.tenant_id', '\(demo)', false)"]),
                ("SET ROLE herald_operator", ["SET ROLE herald_tenant", "SET ROLE herald_operator"]),
                ("RESET ROLE", ["SET ROLE herald_tenant", "SET herald.tenant_id = '\(demo)'", "RESET ROLE"]),
                ("SET SESSION AUTHORIZATION", ["SET SESSION AUTHORIZATION postgres", "SET ROLE postgres"]),
                ("row_security off", ["SET ROLE herald_tenant", "SET herald.tenant_id = '\(demo)'", "SET row_security = off"]),
                ("temporary objects first", ["SET ROLE herald_tenant", "SET search_path = pg_temp, public", "SET herald.tenant_id = '\(demo)'"]),
                ("a forged actor", ["SET ROLE herald_tenant", "SET herald.actor = 'postgres'", "SET herald.tenant_id = '\(demo)'"]),
            ]
            for (label, statements) in escapes {
                probe(label, try session(statements))
            }
            // The planner settings acme's login starts with, turned back on: what a view shows
            // stays acme's (the plans then may count a whole table's rows; see `probe`).
            probe(
                "planner settings",
                try session(["SET ROLE herald_tenant", "SET enable_seqscan = on", "SET enable_indexscan = on", "SET enable_bitmapscan = off"]),
                plans: false)

            // COPY … TO STDOUT (what psql's \copy uses) goes through the same policies.
            for copy in ["COPY apps TO STDOUT", "COPY (SELECT slug FROM tenants) TO STDOUT", "COPY campaigns TO STDOUT"] {
                attempts += 1
                let (_, output) = try BackupRestoreTests.run(
                    "psql", ["-X", "-q", "-c", "SET ROLE herald_tenant", "-c", "SET herald.tenant_id = '\(demo)'", "-c", copy, setup.attackerConfiguration.conninfo])
                #expect(!output.contains("demo") && !output.contains("weather") && !output.contains("spring-sale"), "\(copy): \(output)")
                if !output.contains("demo") && !output.contains("weather") { held += 1 }
            }

            // Errors say nothing more about another tenant's ids than about ids that do not exist.
            let own = try session(["SET ROLE herald_tenant", "SET herald.tenant_id = '\(demo)'"])
            func failure(_ sql: String, _ parameters: [any PostgresEncodable]) -> String {
                do {
                    try own.execute("\(UnsafeSQL(sql))", parameters)
                    return "allowed"
                } catch let error as PostgresError {
                    return "\(error.sqlState?.rawValue ?? "") \(error.constraint ?? "")"
                } catch {
                    return "\(error)"
                }
            }
            let insertCampaign = "INSERT INTO campaigns (app_id, key, kind, name) VALUES ($1, 'probe', 'alert', 'Probe')"
            attempts += 1
            #expect(failure(insertCampaign, [demoApp]) == failure(insertCampaign, [Int64(999_999_999)]))
            held += 1
            let rollbackOf = "INSERT INTO publish_runs (actor, out_dir, publish_at, outcome, rollback_of, tenant_id) VALUES ('x', '/tmp', now(), 'running', $1, (SELECT id FROM tenants))"
            attempts += 1
            #expect(failure(rollbackOf, [demoRun]) == failure(rollbackOf, [Int64(999_999_999)]))
            held += 1

            #expect(try Self.victimFingerprint(setup.database) == before)
            #expect(held == attempts)
            FileHandle.standardError.write(Data("tenant operator over libpq: \(attempts) attempts, \(held) held\n".utf8))
        }
    }

    /// Every herald command, aimed at the demo tenant (by flag, by HERALD_TENANT, by file) or
    /// doing what only Herald's own login does: refused with 77 and a sentence, nothing changed.
    @Test func everyCommandAimedAtAnotherTenantIsRefused() throws {
        try withAttacker { setup in
            try withTemporaryDirectory { root in
                let before = try Self.victimFingerprint(setup.database)
                let other = root.appendingPathComponent("other.yaml")
                try Data("version: 1\ntenants:\n  - slug: demo\n    name: Demo\n    apps: []\n".utf8).write(to: other)
                let events = root.appendingPathComponent("events.ndjson")
                try Data().write(to: events)
                let out = root.appendingPathComponent("mine").path
                let demo = ["--tenant", "demo"]
                let inApp = demo + ["--app", "weather"]
                let aimed: [[String]] = [
                    ["tenant", "show", "demo"],
                    ["app", "list"] + demo,
                    ["app", "show", "weather"] + demo,
                    ["app", "create", "evil", "--name", "Evil", "--bundle-id", "com.evil.app", "--default-locale", "en"] + demo,
                    ["app", "update", "weather", "--name", "Stolen"] + demo,
                    ["campaign", "list"] + demo,
                    ["campaign", "show", "welcome"] + inApp,
                    ["campaign", "create", "evil", "--kind", "alert", "--name", "Evil", "--title", "x", "--message", "y"] + inApp,
                    ["campaign", "update", "welcome", "--name", "Stolen"] + inApp,
                    ["campaign", "activate", "welcome"] + inApp,
                    ["campaign", "pause", "welcome"] + inApp,
                    ["campaign", "archive", "welcome"] + inApp,
                    ["campaign", "condition", "add", "welcome", "--all", "minAppVersion=9.0"] + inApp,
                    ["campaign", "condition", "remove", "welcome", "--all", "minAppVersion"] + inApp,
                    ["export"] + demo,
                    ["apply", "-f", other.path],
                    ["apply", "-f", other.path, "--dry-run"],
                    ["preview", "--locale", "en", "--app-version", "3.1.0", "--os-version", "17.4"] + inApp,
                    ["report", "campaigns"] + demo,
                    ["report", "device", "--device", "A1B2-C3"] + demo,
                    ["audit"] + demo,
                    ["publish", "--out", out] + demo,
                    ["publish", "--out", out, "--dry-run"] + demo,
                    // Herald's own login's work.
                    ["tenant", "create", "evil", "--name", "Evil"],
                    ["tenant", "grant-operator", "demo", "--role", "evil_ops"],
                    ["tenant", "grant-operator", "acme", "--role", "evil_ops"],
                    ["tenant", "revoke-operator", "acme", "--role", setup.role],
                    ["tenant", "grant-reporting", "demo", "--role", "evil_analyst"],
                    ["tenant", "revoke-reporting", "demo", "--role", "evil_analyst"],
                    ["tenant", "operators", "acme"],
                    ["migrate"],
                    ["events", "ingest", events.path],
                    ["events", "prune", "--before", "2100-01-01"],
                    ["demo", "--yes", "--out", out],
                ]
                for arguments in aimed {
                    let result = try setup.attacker.run(arguments)
                    #expect(result.status == 77, "herald \(arguments.joined(separator: " ")): \(result)")
                    #expect(result.stderr.contains("\(setup.role) operates tenant acme only"), "herald \(arguments.joined(separator: " ")): \(result)")
                }
                // HERALD_TENANT naming another tenant is another tenant too.
                var elsewhere = setup.attacker
                elsewhere.environment["HERALD_TENANT"] = "demo"
                for arguments in [["campaign", "list"], ["app", "list"], ["audit"], ["export"]] {
                    #expect(try elsewhere.run(arguments).status == 77, "HERALD_TENANT=demo herald \(arguments.joined(separator: " "))")
                }
                // What the attacker is shown of everything: its own tenant only.
                #expect(try setup.attacker.succeed(["tenant", "list"]).stdout.contains("acme"))
                #expect(try !setup.attacker.succeed(["tenant", "list"]).stdout.contains("demo"))
                for arguments in [["report", "campaigns"], ["report", "daily"], ["audit"], ["publish", "--history"], ["export"], ["campaign", "list"]] {
                    let result = try setup.attacker.succeed(arguments)
                    #expect(!result.stdout.contains("demo") && !result.stdout.contains("weather") && !result.stdout.contains("welcome"), "herald \(arguments.joined(separator: " ")): \(result)")
                }
                // Another tenant's run is as unknown as a run that never was.
                let demoRun: Int64 = try Connection(configuration: setup.database).query("SELECT max(id) AS id FROM publish_runs")[0].decode("id")
                let theirs = try setup.attacker.run(["publish", "--rollback", String(demoRun), "--out", out])
                let none = try setup.attacker.run(["publish", "--rollback", "999999", "--out", out])
                #expect(theirs.status == 65 && none.status == 65, "\(theirs)\n\(none)")
                #expect(theirs.stderr.replacingOccurrences(of: String(demoRun), with: "N") == none.stderr.replacingOccurrences(of: "999999", with: "N"))
                #expect(try Self.victimFingerprint(setup.database) == before)
            }
        }
    }

    /// The README's first session, as a tenant's own team with its own URL and no --tenant;
    /// every change is audited under its login, whatever HERALD_ACTOR says.
    @Test func aTenantOperatorDoesTheFirstSessionAndIsAuditedByName() throws {
        try withAttacker { setup in
            try withTemporaryDirectory { root in
                let herald = setup.attacker
                let whoami = try herald.succeed(["whoami"])
                #expect(whoami.stdout.contains("login    \(setup.role)") && whoami.stdout.contains("tenants  acme"), "\(whoami)")
                let steps: [[String]] = [
                    ["app", "create", "weather", "--name", "Weather", "--platform", "ios", "--bundle-id", "com.acme.weather",
                     "--default-locale", "en", "--locales", "en,de,pt-BR", "--base-url", "https://static.example.com/acme/weather"],
                    ["campaign", "create", "spring-sale", "--app", "weather", "--kind", "banner", "--name", "Spring sale",
                     "--view", "id=banner,file=https://cdn.example.com/banner.html,height=88,origin=top",
                     "--view", "id=fullscreen,html=<h1>Spring sale</h1>", "--entry", "banner",
                     "--all", "appVersionLessThan=2.4.0", "--any", "onWifi=true", "--any", "lastDisplayMinimumLaunches=5",
                     "--starts", "2026-05-01", "--ends", "2027-06-01"],
                    ["campaign", "update", "spring-sale", "--app", "weather", "--locale", "de",
                     "--view", "id=banner,file=https://cdn.example.com/de/banner.html,height=88,origin=top", "--entry", "banner"],
                    ["campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "Welcome",
                     "--title", "Welcome", "--message", "Thanks for installing", "--action-url", "weather://tour",
                     "--action-button", "Take the tour", "--all", "minAppVersion=1.0", "--all", "maxAppVersion=3.9.9"],
                    ["campaign", "update", "welcome", "--app", "weather", "--locale", "de", "--title", "Willkommen", "--message", "Danke fürs Installieren"],
                    ["campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Product tour", "--locales", "en,de",
                     "--push-title", "New", "--push-text", "See what's new",
                     "--page", "image=https://cdn.example.com/1.jpg,duration=5,link=weather://radar,button_title=Open,title=Radar"],
                    ["campaign", "create", "storm-check", "--app", "weather", "--kind", "local", "--name", "Storm check",
                     "--body", "A storm is on its way.", "--action", "See Forecast", "--fire-at", "2030-12-24T09:00", "--repeat", "day",
                     "--user-info", "screen=radar"],
                    ["campaign", "update", "storm-check", "--app", "weather", "--locale", "de", "--body", "Ein Sturm zieht auf."],
                    ["campaign", "activate", "spring-sale", "--app", "weather"],
                    ["campaign", "activate", "welcome", "--app", "weather"],
                    ["campaign", "activate", "tour", "--app", "weather"],
                    ["campaign", "activate", "storm-check", "--app", "weather"],
                    ["campaign", "list"],
                    ["campaign", "show", "spring-sale", "--app", "weather"],
                    ["campaign", "condition", "add", "welcome", "--app", "weather", "--all", "minAppVersion=1.1"],
                    ["preview", "--app", "weather", "--locale", "de", "--app-version", "2.3.1", "--os-version", "17.4"],
                    ["report", "campaigns"],
                ]
                for step in steps { try herald.succeed(step) }
                let empty = try herald.run(["campaign", "activate", "radio-empty", "--app", "radio"])
                #expect(empty.status == 65, "\(empty)")
                let file = root.appendingPathComponent("campaigns.yaml")
                try herald.succeed(["export", "-o", file.path])
                #expect(try herald.succeed(["validate", "-f", file.path]).stdout.contains("is valid"))
                #expect(try herald.succeed(["apply", "-f", file.path]).stdout.contains("no changes"))

                // The audit: every change under the login, field by field, filtered as asked.
                let audit = try #require(try JSONSerialization.jsonObject(with: Data(herald.succeed(["audit", "--json"]).stdout.utf8)) as? [[String: Any]])
                #expect(!audit.isEmpty)
                // (The tenant itself was created by Herald's own login, as cli-test.)
                let byOperator = audit.filter { $0["entity"] as? String != "tenants" }
                #expect(byOperator.count > 20 && byOperator.allSatisfy { $0["actor"] as? String == setup.role }, "\(audit.map { $0["actor"] ?? "-" })")
                let german = try #require(audit.first { ($0["entityId"] as? String) == "welcome de" && $0["action"] as? String == "insert" })
                #expect((german["changes"] as? [[String: Any]])?.contains { $0["field"] as? String == "title" && $0["to"] as? String == "Willkommen" } == true, "\(german)")
                let local = try #require(audit.first { ($0["entityId"] as? String) == "storm-check de" && $0["entity"] as? String == "local_contents" })
                #expect((local["changes"] as? [[String: Any]])?.contains { $0["field"] as? String == "body" && $0["to"] as? String == "Ein Sturm zieht auf." } == true, "\(local)")
                #expect(audit.contains { ($0["entityId"] as? String) == "storm-check" && $0["entity"] as? String == "local_notifications" })
                let condition = try #require(audit.first { ($0["entityId"] as? String) == "welcome all.minAppVersion" && $0["action"] as? String == "update" })
                let change = try #require((condition["changes"] as? [[String: Any]])?.first)
                #expect(change["field"] as? String == "value" && change["from"] as? String == "1.0" && change["to"] as? String == "1.1", "\(condition)")
                let text = try herald.succeed(["audit", "--campaign", "welcome", "--app", "weather", "--since", "1h"]).stdout
                #expect(text.contains("value: \"1.0\" → \"1.1\""), "\(text)")
                #expect(!text.contains("spring-sale"), "\(text)")
                #expect(try herald.succeed(["audit", "--actor", "someone-else"]).stdout.contains("no changes recorded"))
                #expect(try herald.succeed(["audit", "--since", "yesterday", "--limit", "1", "--json"]).stdout.components(separatedBy: "\"actor\"").count == 2)
                #expect(try herald.run(["audit", "--since", "a while"]).status == 64)
                // Nor can the login write itself out of the log, or in as someone else, with SQL.
                let connection = try Connection(configuration: setup.attackerConfiguration)
                try connection.execute("SET ROLE herald_tenant")
                try connection.execute("SET herald.actor = 'postgres'")
                try connection.execute("SELECT set_config('herald.tenant_id', (SELECT id FROM tenants)::text, false)")
                try connection.execute("UPDATE campaigns SET name = 'Renamed' WHERE key = 'tour'")
                let last: String = try connection.query("SELECT actor FROM audit_log ORDER BY id DESC LIMIT 1")[0].decode("actor")
                #expect(last == setup.role)
            }
        }
    }

    /// A tenant operator publishes its own folder (its own manifest, history, incremental runs
    /// and rollbacks) into the same site as Herald's whole-site cron: the two run concurrently
    /// and neither corrupts the other; a tenant holding its lock holds up no one else.
    @Test func aTenantPublishesItsOwnFolderBesideTheWholeSiteCron() throws {
        try withAttacker { setup in
            let at = ISO8601DateFormatter().string(from: Date())
            let admin = try Connection(configuration: setup.database)
            try LargeSiteFixture.populate(admin, apps: 8, campaignsPerApp: 4)
            let site = setup.site
            try setup.attacker.succeed(["campaign", "activate", "hello", "--app", "radio"])
            let owner = HeraldCLI(database: setup.database)
            let attacker = HeraldCLI(database: setup.attackerConfiguration)
            func publish(_ herald: HeraldCLI, _ extra: [String] = []) throws -> [String: Any] {
                let result = try herald.succeed(["publish", "--out", site.path, "--at", at, "--json"] + extra)
                return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
            }
            _ = try publish(owner)
            // The tenant's first run finds its files as the site run left them, and starts its own manifest.
            let first = try publish(attacker)
            #expect(first["written"] as? [String] == [], "\(first)")
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("acme/.herald-manifest").path))
            let unchanged = try #require(first["unchanged"] as? Int)
            #expect(unchanged > 0)
            // Incremental: nothing changed, nothing compiled or written.
            let again = try publish(attacker)
            #expect(again["written"] as? [String] == [] && again["unchanged"] as? Int == unchanged, "\(again)")
            try setup.attacker.succeed(["campaign", "update", "hello", "--app", "radio", "--title", "Hi again"])
            let edited = try publish(attacker)
            let written = try #require(edited["written"] as? [String])
            #expect(!written.isEmpty && written.allSatisfy { $0.hasPrefix("acme/radio/") && $0.hasSuffix("notifications.plist") }, "\(edited)")
            let plist = site.appendingPathComponent("acme/radio/en/notifications.plist")
            #expect(try String(contentsOf: plist, encoding: .utf8).contains("Hi again"))

            // Its history is its own; Herald's shows both, the tenant's runs under its login.
            let history = try #require(try JSONSerialization.jsonObject(with: Data(attacker.succeed(["publish", "--history", "--json"]).stdout.utf8)) as? [[String: Any]])
            // (The run that changed nothing is counted on the first, not recorded on its own.)
            #expect(history.count == 2 && history.allSatisfy { $0["scope"] as? String == "acme" && $0["actor"] as? String == setup.role }, "\(history)")
            #expect(history.first?["repeats"] as? Int == 1, "\(history)")
            let all = try #require(try JSONSerialization.jsonObject(with: Data(owner.succeed(["publish", "--history", "--json"]).stdout.utf8)) as? [[String: Any]])
            #expect(all.count == history.count + 2)
            // A rollback of its own run puts its folder back.
            let firstRun = try #require(history.first?["id"] as? Int)
            try attacker.succeed(["publish", "--rollback", String(firstRun), "--out", site.path])
            #expect(try !String(contentsOf: plist, encoding: .utf8).contains("Hi again"))

            // While the tenant's lock is held (its own publish, say), the site run leaves its
            // folder alone and says so; the tenant's next publish is told it is busy.
            let holder = try Connection(configuration: setup.attackerConfiguration)
            try holder.transaction { tx in
                try tx.execute("SET LOCAL ROLE herald_tenant")
                #expect(try tx.query("SELECT tenant_id FROM tenant_locks WHERE purpose = 'publish' FOR UPDATE").count == 1)
                let skipping = try owner.run(["publish", "--out", site.path, "--at", at, "--json"])
                #expect(skipping.status == 0, "\(skipping)")
                #expect(skipping.stderr.contains("tenant acme's own publish was running"), "\(skipping)")
                #expect(!skipping.stdout.contains("acme/"), "\(skipping)")
                #expect(try attacker.run(["publish", "--out", site.path]).status == 75)
            }

            // Both at once, three times, with changes on both sides in between.
            for round in 1...3 {
                try owner.succeed(["campaign", "update", "welcome", "--tenant", "demo", "--app", "weather", "--title", "Welcome \(round)"])
                try attacker.succeed(["campaign", "update", "hello", "--app", "radio", "--title", "Hello \(round)"])
                let results = Collected<Result<CommandResult, any Error>>()
                let group = DispatchGroup()
                for herald in [owner, attacker] {
                    group.enter()
                    DispatchQueue.global().async {
                        defer { group.leave() }
                        results.add(Result { try herald.run(["publish", "--out", site.path, "--at", at, "--wait"]) })
                    }
                }
                group.wait()
                for result in results.values {
                    let run = try result.get()
                    #expect(run.status == 0, "round \(round): \(run)")
                }
            }
            #expect(try String(contentsOf: plist, encoding: .utf8).contains("Hello 3"))
            // Nothing is left to write or remove for either: both folders are exactly the database.
            for herald in [owner, attacker] {
                let full = try publish(herald, ["--full"])
                #expect(full["written"] as? [String] == [] && full["removed"] as? [String] == [], "\(full)")
            }
            for (path, data) in try PublishCommandTests().snapshot(site) where !PublishCommandTests().isHidden(path) {
                if path.hasSuffix(".json") {
                    #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(path)")
                } else if path.hasSuffix(".plist") {
                    #expect((try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil, "\(path)")
                }
            }
        }
    }
}

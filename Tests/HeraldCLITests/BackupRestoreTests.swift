import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PostgresServer
import Testing

/// The README's backup and restore, end to end: Herald at work (its owner not a superuser, a
/// tenant operator and an analyst with passwords), pg_dump, a new server that has none of
/// Herald's roles, pg_restore, `herald migrate` — then everything works as before, the
/// tenants' logins included, with their passwords.
@Suite struct BackupRestoreTests {
    /// Runs a PostgreSQL client program; its exit status and what it said.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try runProgram(try postgresProgram(tool), arguments)
    }

    @Test func dumpNewServerRestoreMigrateAndHeraldWorksWithItsLogins() throws {
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin { source, owner in
            try withTemporaryDirectory { root in
                // Herald at work on the old server.
                let old = InProcessHerald(database: source)
                try old.succeed(["demo", "--yes", "--out", root.appendingPathComponent("old-site").path, "--board", root.appendingPathComponent("review").path])
                try old.succeed(["tenant", "create", "acme", "--name", "Acme"])
                let operatorRole = "ops_\(UInt32.random(in: 0...UInt32.max))"
                let analystRole = "analyst_\(UInt32.random(in: 0...UInt32.max))"
                try old.succeed(["tenant", "grant-operator", "acme", "--role", operatorRole, "--password-from-stdin"], stdin: "ops pass\n")
                try old.succeed(["tenant", "grant-reporting", "demo", "--role", analystRole, "--password-from-stdin"], stdin: "analyst pass\n")
                defer {
                    _ = try? old.run(["tenant", "revoke-operator", "acme", "--role", operatorRole])
                    _ = try? old.run(["tenant", "revoke-reporting", "demo", "--role", analystRole])
                }
                let report = ["report", "campaigns", "--tenant", "demo", "--since", "2020-01-01", "--until", "2030-12-31", "--json"]
                let oldReport = try old.succeed(report).stdout

                // pg_dump, as the README says (as a superuser: Herald's tables force row security on their owner too).
                let dump = root.appendingPathComponent("herald.dump")
                let superuser = try PostgresTestServer.shared().configuration(database: owner, user: "postgres")
                let dumped = try Self.run("pg_dump", ["--format=custom", "--file", dump.path, superuser.conninfo])
                #expect(dumped.status == 0, "\(dumped.output)")

                // A new server: none of Herald's roles, only its owner's login made by the DBA.
                let directory = URL(fileURLWithPath: "/tmp/herald-restore-\(UUID().uuidString.prefix(8))")
                let server = LocalPostgresServer(
                    directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment))
                server.settings = ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"]
                defer {
                    try? server.stop()
                    try? FileManager.default.removeItem(at: directory)
                }
                try server.initializeIfNeeded()
                let osUser = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
                try server.restrictToOwner(osUser: osUser)
                try server.start()
                let admin = try Connection(configuration: server.configuration(database: "postgres"))
                #expect(try admin.query("SELECT 1 FROM pg_roles WHERE rolname LIKE 'herald%'").isEmpty)
                // Names made by the fixture and this test, never input.
                try admin.execute("CREATE ROLE \(UnsafeSQL(owner)) LOGIN CREATEROLE PASSWORD 'owner pass'")
                try admin.execute("CREATE DATABASE herald OWNER \(UnsafeSQL(owner))")
                let newSuperuser = server.configuration(database: "herald")
                let restored = try Self.run("pg_restore", ["--dbname", newSuperuser.conninfo, "--no-owner", "--no-acl", dump.path])
                #expect(restored.status == 0 && restored.output.isEmpty, "\(restored.output)")

                let asOwner = ConnectionConfiguration(keywords: [
                    "host": directory.path, "dbname": "herald", "user": owner, "password": "owner pass",
                ])
                let herald = InProcessHerald(database: asOwner)
                // Before `herald migrate`, commands say what is missing.
                let before = try herald.run(["tenant", "list"])
                #expect(before.status != 0 && before.stderr.contains("herald migrate"), "\(before)")
                #expect(!before.stderr.contains("22023") && !before.stderr.contains("database error"), "\(before)")
                // Herald's own login cannot migrate yet either: it is told who can.
                let ownerMigrate = try herald.run(["migrate"])
                #expect(ownerMigrate.status == 77 && ownerMigrate.stderr.contains("once as a superuser"), "\(ownerMigrate)")

                // `herald migrate`, once as a superuser: roles, owners, rights and the tenants' logins.
                let migrated = try InProcessHerald(database: newSuperuser).succeed(["migrate"])
                for expected in [
                    "database is up to date", "created role herald_operator", "created role herald_tenant",
                    "handed Herald's tables, views, types and functions to \(owner)",
                    "recreated login \(operatorRole) (operates acme, with its password)",
                    "recreated login \(analystRole) (reads the reports of demo, with its password)",
                ] {
                    #expect(migrated.stdout.contains(expected), "missing \(expected):\n\(migrated)")
                }
                // After which Herald's own login finds nothing left to repair.
                #expect(try herald.succeed(["migrate"]).stdout == "database is up to date\n")

                // The restored database is the same Herald: it publishes into the folder the old one
                // published, and a change made after the restore reaches it at once (the old
                // server's change tracking, far ahead in transaction ids, means nothing here).
                let oldSite = root.appendingPathComponent("old-site")
                let story = oldSite.appendingPathComponent("demo/weather/de/stories/tour.json")
                #expect(FileManager.default.fileExists(atPath: story.path))
                try herald.succeed(["campaign", "pause", "tour", "--tenant", "demo", "--app", "weather"])
                let republished = try herald.succeed(["publish", "--out", oldSite.path])
                #expect(!republished.stdout.contains("nothing changed"), "\(republished)")
                #expect(!FileManager.default.fileExists(atPath: story.path), "\(republished)")
                try herald.succeed(["campaign", "activate", "tour", "--tenant", "demo", "--app", "weather"])

                // Herald works: list, publish, report, as before.
                #expect(try herald.succeed(["tenant", "list"]).stdout.contains("acme"))
                let published = try herald.succeed(["publish", "--out", root.appendingPathComponent("new-site").path])
                #expect(published.stdout.contains("13 written"), "\(published)")
                #expect(try herald.succeed(report).stdout == oldReport)
                try herald.succeed(["campaign", "update", "welcome", "--tenant", "demo", "--app", "weather", "--title", "Welcome back"])

                // The tenant operator, with its password, operates its tenant and nothing else.
                var operatorLogin = ["host": directory.path, "dbname": "herald", "user": operatorRole, "password": "ops pass"]
                let tenantOperator = InProcessHerald(database: ConnectionConfiguration(keywords: operatorLogin))
                #expect(try tenantOperator.succeed(["whoami"]).stdout.contains("tenants  acme"))
                try tenantOperator.succeed(["app", "create", "radio", "--name", "Radio", "--bundle-id", "com.acme.radio", "--default-locale", "en"])
                #expect(try tenantOperator.run(["campaign", "list", "--tenant", "demo"]).status == 77)
                operatorLogin["password"] = "wrong"
                // A wrong password is a login to fix (77), not a server that is down (69), said on one line.
                let refused = try InProcessHerald(database: ConnectionConfiguration(keywords: operatorLogin)).run(["whoami"])
                #expect(refused.status == 77 && refused.stderr.contains("refused the login"), "\(refused)")
                #expect(!refused.stderr.contains("\\u{") && refused.stderr.split(separator: "\n").count == 1, "\(refused)")

                // The analyst, with its password, reads its tenant's reports.
                let analyst = try Connection(configuration: ConnectionConfiguration(keywords: [
                    "host": directory.path, "dbname": "herald", "user": analystRole, "password": "analyst pass",
                ]))
                let tenants = try analyst.query("SELECT DISTINCT tenant FROM reporting.campaign_summary").map { try $0.decode("tenant", as: String.self) }
                #expect(tenants == ["demo"])
                // ... and is told so by herald, which it does not run.
                let analystHerald = InProcessHerald(database: ConnectionConfiguration(keywords: [
                    "host": directory.path, "dbname": "herald", "user": analystRole, "password": "analyst pass",
                ]))
                let asAnalyst = try analystHerald.run(["report", "campaigns"])
                #expect(asAnalyst.status == 77 && asAnalyst.stderr.contains("is an analyst login"), "\(asAnalyst)")
            }
        }
    }
}

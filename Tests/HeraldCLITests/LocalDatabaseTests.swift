import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore
@testable import PostgresServer

/// Nothing configured: Herald makes, starts and migrates its own PostgreSQL under HERALD_HOME.
@Suite struct LocalDatabaseTests {
    @Test func theLocalDatabaseIsCreatedStartedOnDemandStoppedAndReachableByItsURL() throws {
        try withTemporaryDirectory { root in
            let home = root.appendingPathComponent("home")
            let herald = HeraldCLI(database: nil, environment: ["HERALD_HOME": home.path])
            defer { _ = try? herald.run(["db", "stop"]) }

            let first = try herald.succeed(["tenant", "list"])
            #expect(first.stdout.contains("no tenants yet"))
            #expect(first.stderr.contains("created a local PostgreSQL in \(home.path)/postgres"), "\(first)")
            #expect(first.stderr.contains("applied \(Migration.bundled.count) migration(s)"), "\(first)")
            // Only a unix socket in its folder: no TCP.
            #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("postgres/.s.PGSQL.5432").path))

            let status = try #require(
                try JSONSerialization.jsonObject(with: Data(herald.succeed(["db", "status", "--json"]).stdout.utf8)) as? [String: Any])
            #expect(status["mode"] as? String == "local")
            #expect(status["running"] as? Bool == true)
            #expect(status["pendingMigrations"] as? Int == 0)

            // Who the local login is, known without asking on the quick path, is what the database says.
            let opened = try EmbeddedDatabase(environment: ["HERALD_HOME": home.path]).open(actor: "test").database
            #expect(opened.knownLogin == EmbeddedDatabase.login)
            #expect(try HeraldLogin.read(opened.connection, functionIsKnown: true) == EmbeddedDatabase.login)

            // `db url` is a conninfo libpq (and so psql) accepts.
            let url = try herald.succeed(["db", "url"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let connection = try Connection(configuration: ConnectionConfiguration(conninfo: url))
            #expect(try connection.query("SELECT count(*) AS n FROM herald_migrations")[0].decode("n", as: Int.self) == Migration.bundled.count)
            // PL/pgSQL, which every Herald session runs, is loaded by the server when it starts.
            #expect(try connection.query("SHOW shared_preload_libraries")[0].decode("shared_preload_libraries", as: String.self) == "plpgsql")

            #expect(try herald.succeed(["db", "stop"]).stdout.contains("stopped the local PostgreSQL"))
            #expect(Connection.ping(ConnectionConfiguration(conninfo: url)) != .ok)
            #expect(try herald.succeed(["db", "stop"]).stdout.contains("was not running"))
            // The next command starts it again, with what was stored.
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            let again = try herald.succeed(["tenant", "list"])
            #expect(again.stdout.contains("acme"))
            #expect(try herald.succeed(["db", "start"]).stdout.contains("is running"))
            let conf = home.appendingPathComponent("postgres/data/postgresql.conf")
            #expect(try String(contentsOf: conf, encoding: .utf8).components(separatedBy: EmbeddedDatabase.preloadMarker).count == 2)

            // Libraries the operator names to preload are theirs: Herald adds none beside them.
            try herald.succeed(["db", "stop"])
            let ours = "\n\(EmbeddedDatabase.preloadMarker)\nshared_preload_libraries = 'plpgsql'\n"
            let text = try String(contentsOf: conf, encoding: .utf8)
            #expect(text.contains(ours))
            try Data((text.replacingOccurrences(of: ours, with: "") + "shared_preload_libraries = ''  # the operator's\n").utf8).write(to: conf)
            try herald.succeed(["tenant", "list"])
            let operators = try Connection(configuration: ConnectionConfiguration(conninfo: url))
            #expect(try operators.query("SHOW shared_preload_libraries")[0].decode("shared_preload_libraries", as: String.self) == "")
            #expect(try !String(contentsOf: conf, encoding: .utf8).contains(EmbeddedDatabase.preloadMarker))
        }
    }

    /// A configuration Herald cannot read as text may name libraries to preload: it adds none.
    @Test func aConfigurationItCannotReadGetsNoPreload() throws {
        try withTemporaryDirectory { root in
            let server = LocalPostgresServer(directory: root, binaries: PostgresServerBinaries(directory: root))
            try FileManager.default.createDirectory(at: server.dataDirectory, withIntermediateDirectories: true)
            let conf = server.dataDirectory.appendingPathComponent("postgresql.conf")
            let auto = server.dataDirectory.appendingPathComponent("postgresql.auto.conf")
            // Latin-1 in a comment, then the operator's line: not UTF-8.
            let latin1 = Data("# caf".utf8) + Data([0xE9]) + Data("\nshared_preload_libraries = 'pg_stat_statements'\n".utf8)
            try latin1.write(to: conf)
            #expect(try !server.preloadIfNoneNamed(library: "plpgsql", marker: "# test"))
            #expect(try Data(contentsOf: conf) == latin1)

            try Data("listen_addresses = ''\n".utf8).write(to: conf)
            try latin1.write(to: auto)
            #expect(try !server.preloadIfNoneNamed(library: "plpgsql", marker: "# test"))
            // Readable, naming none: written once.
            try FileManager.default.removeItem(at: auto)
            #expect(try server.preloadIfNoneNamed(library: "plpgsql", marker: "# test"))
            #expect(try !server.preloadIfNoneNamed(library: "plpgsql", marker: "# test"))
            #expect(try String(contentsOf: conf, encoding: .utf8) == "listen_addresses = ''\n\n# test\nshared_preload_libraries = 'plpgsql'\n")
        }
    }

    /// What counts as a configuration that already names libraries to preload.
    @Test func aClusterThatNamesItsOwnPreloadsIsRecognised() {
        for naming in ["shared_preload_libraries = 'pg_stat_statements'", "  shared_preload_libraries='a,b'", "\tSHARED_PRELOAD_LIBRARIES = ''",
            "shared_preload_libraries 'auto_explain'", "listen_addresses = ''\nshared_preload_libraries = 'x'  # ours"]
        {
            #expect(LocalPostgresServer.setsPreloadLibraries(naming), "\(naming)")
        }
        for not in ["", "#shared_preload_libraries = 'x'", "  # shared_preload_libraries = 'x'", "shared_preload_libraries_extra = 'x'",
            "shared_preload_libraries", "shared_preload_libraries   # nothing set", "local_preload_libraries = 'x'"]
        {
            #expect(!LocalPostgresServer.setsPreloadLibraries(not), "\(not)")
        }
        // A file that includes others may name them there: Herald then writes none.
        for including in ["include 'more.conf'", "  include_if_exists = 'local.conf'", "include_dir 'conf.d'"] {
            #expect(LocalPostgresServer.includesOtherFiles(including), "\(including)")
        }
        for not in ["# include 'more.conf'", "included = 1", "shared_preload_libraries = 'x'"] {
            #expect(!LocalPostgresServer.includesOtherFiles(not), "\(not)")
        }
    }

    /// Issue #11, item 9: the local cluster used to trust every local user as its superuser.
    /// Now its folder (with the socket) is the server's alone, the superuser is the OS user
    /// who made it (peer), and every other role needs its password.
    @Test(.enabled(if: geteuid() == 0, "switching to another OS user needs root"))
    func onlyTheOwnerGetsInAndOtherRolesNeedTheirPasswords() throws {
        try withTemporaryDirectory { root in
            let home = root.appendingPathComponent("home")
            let herald = HeraldCLI(database: nil, environment: ["HERALD_HOME": home.path])
            defer { _ = try? herald.run(["db", "stop"]) }
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            let role = "acme_analyst_\(UInt32.random(in: 0...UInt32.max))"
            try herald.succeed(["tenant", "grant-reporting", "acme", "--role", role, "--password-from-stdin"], stdin: "right horse\n")
            let cluster = home.appendingPathComponent("postgres")
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: cluster.path)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "the socket's folder is open to others: \(String(mode, radix: 8))")

            // Another OS user does not even reach the socket, as the superuser or as anyone.
            let psql = try postgresProgram("psql")
            for user in ["postgres", role] {
                let (_, other) = try runProgram(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", psql.path, "-X", "-c", "SELECT 1",
                     "host=\(cluster.path) dbname=herald user=\(user) password=right\\ horse"])
                #expect(other.contains("Permission denied") && !other.contains("(1 row)"), "as nobody, user \(user): \(other)")
            }
            // The owner gets in as the superuser without a password (`herald db url`); any other
            // role needs its own password, and a wrong one is refused.
            let url = try herald.succeed(["db", "url"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try Connection(configuration: ConnectionConfiguration(conninfo: url)).query("SELECT 1 AS one").count == 1)
            let analyst = ["host": cluster.path, "dbname": "herald", "user": role]
            for wrong in [nil, "wrong horse"] {
                var keywords = analyst
                keywords["password"] = wrong
                #expect(throws: PostgresError.self, "password \(wrong ?? "none")") { try Connection(configuration: ConnectionConfiguration(keywords: keywords)) }
            }
            var keywords = analyst
            keywords["password"] = "right horse"
            let connection = try Connection(configuration: ConnectionConfiguration(keywords: keywords))
            #expect(try connection.query("SELECT * FROM reporting.campaign_summary").isEmpty)
        }
    }

    /// Issue #11, item 10: as root the server runs as `postgres`, which cannot enter a 0700
    /// folder of root's: said in words (73), not an initdb failure (70).
    @Test(.enabled(if: geteuid() == 0, "only root hands the server to the postgres user"))
    func aHomeThePostgresUserCannotEnterIsExplained() throws {
        try withTemporaryDirectory { root in
            chmod(root.path, 0o700)
            let home = root.appendingPathComponent("home")
            let result = try InProcessHerald(database: nil, environment: ["HERALD_HOME": home.path]).run(["tenant", "list"])
            #expect(result.status == 73, "\(result)")
            #expect(result.stderr.contains("postgres cannot enter \(root.path) (mode 700, owner root)"), "\(result)")
            #expect(result.stderr.contains("chmod o+x \(root.path)") && result.stderr.contains("HERALD_HOME"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("postgres/data/PG_VERSION").path))
        }
    }

    @Test func dbStartRefusesWhenADatabaseIsConfigured() throws {
        let herald = HeraldCLI(database: ConnectionConfiguration(conninfo: "host=/nonexistent dbname=x"))
        let result = try herald.run(["db", "start"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("manages only Herald's local PostgreSQL"))
    }

    @Test func theDemoDoesItsWholeJobAndASecondRunChangesNothing() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                let first = try herald.succeed(["demo", "--yes"], in: root)
                for expected in [
                    "1. campaigns: applied 5 change(s)", "+ campaign demo/weather/spring-sale (banner)",
                    "2. delivery events: read 468 · inserted 468 · duplicate 0 · rejected 0",
                    "3. published to public/: 13 written, 0 unchanged, 0 removed", "public/demo/weather/de/control.json",
                    "stories           tour", "spring-sale  all.appVersionLessThan: build 3.1.0 is not below 3.0",
                    "welcome      already seen (message key 2026/11/01)",
                    "demo    weather  welcome      alert   60         48           12      36          0.2500              60",
                ] {
                    #expect(first.stdout.contains(expected), "missing \(expected)\n\(first)")
                }
                let site = root.appendingPathComponent("public")
                let control = try JSONSerialization.jsonObject(with: Data(contentsOf: site.appendingPathComponent("demo/weather/de/control.json")))
                #expect((control as? [String: Any])?["spring-sale"] != nil)
                func mtimes() throws -> [String: Date] {
                    var result: [String: Date] = [:]
                    for path in try FileManager.default.subpathsOfDirectory(atPath: site.path) {
                        result[path] = try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(path).path)[.modificationDate] as? Date
                    }
                    return result
                }
                let before = try mtimes()

                let second = try herald.succeed(["demo", "--yes"], in: root)
                #expect(second.stdout.contains("1. campaigns: up to date (no changes)"), "\(second)")
                #expect(second.stdout.contains("read 468 · inserted 0 · duplicate 468 · rejected 0"))
                #expect(second.stdout.contains("0 written, 13 unchanged, 0 removed"))
                #expect(try mtimes() == before)
                let connection = try Connection(configuration: database)
                #expect(try connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n", as: Int.self) == 468)
            }
        }
    }
}

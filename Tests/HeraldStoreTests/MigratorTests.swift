import Foundation
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

@Suite struct MigratorTests {
    @Test func freshDatabaseHasEverythingPendingAndMigrateAppliesItOnce() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let migrator = Migrator()
            let fresh = try migrator.status(connection)
            #expect(fresh.applied.isEmpty)
            #expect(fresh.pending.map(\.name) == Migration.bundled.map(\.name))
            #expect(!fresh.isCurrent)

            let applied = try migrator.migrate(connection)
            #expect(applied == Migration.bundled.map(\.name))
            #expect(try migrator.migrate(connection).isEmpty)
            let after = try migrator.status(connection)
            #expect(after.isCurrent)
            #expect(after.applied.map(\.name) == applied)
            #expect(after.applied.allSatisfy { $0.checksum.count == 64 })
        }
    }

    /// Published contents and manifest shards are stored out of line without compression
    /// (0019): compressing a cold publish's shards took more of the server than the rest of
    /// recording the run.
    @Test func publishedContentsAreStoredUncompressed() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            for table in ["publish_blobs", "tenant_publish_blobs"] {
                let storage: String = try connection.query(
                    "SELECT attstorage::text AS storage FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'content'",
                    [table])[0].decode("storage")
                #expect(storage == "e", "\(table)")  // EXTERNAL
            }
        }
    }

    /// publish_locks became tenant_locks (0023): the lock rows a database holds stay, and the
    /// function every `herald migrate` runs to state Herald's rights states them on the table
    /// under its new name (a right taken away comes back).
    @Test func tenantLocksKeepTheirRowsAndTheirRights() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try Migrator(migrations: Migration.bundled.filter { $0.name < "0023" }).migrate(connection)
            try connection.execute("SET ROLE herald_operator")
            try connection.execute(
                """
                WITH t AS (INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme') RETURNING id)
                INSERT INTO publish_locks (tenant_id, purpose) SELECT id, p FROM t, unnest(ARRAY['publish', 'apply']) AS p
                """)
            try connection.execute("RESET ROLE")
            try Migrator().migrate(connection)

            let purposes = try connection.query("SELECT purpose FROM tenant_locks ORDER BY purpose").map { try $0.decode("purpose", as: String.self) }
            #expect(purposes == ["apply", "publish"])
            #expect(try connection.query("SELECT to_regclass('publish_locks') IS NULL AS gone")[0].decode("gone", as: Bool.self))
            func tenantMayLock() throws -> Bool {
                // Each right on its own: a list of them asks whether any is held.
                try connection.query(
                    """
                    SELECT bool_and(has_table_privilege('herald_tenant', 'tenant_locks', r)) AS may
                    FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE']) AS r
                    """)[0].decode("may")
            }
            #expect(try tenantMayLock())
            try connection.execute("REVOKE ALL ON tenant_locks FROM herald_tenant")
            #expect(try !tenantMayLock())
            _ = try Migrator().ensureAccess(connection)
            #expect(try tenantMayLock())
        }
    }

    /// The functions a row check calls run once per audited row (inside the audit trigger):
    /// in PL/pgSQL, compiled once per session, not SQL functions parsed again on every call
    /// (0020; an apply of 20,000 campaigns into an empty database spent some 20 s there).
    @Test func rowCheckFunctionsAreCompiledOncePerSession() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let rows = try Connection(configuration: configuration).query(
                """
                SELECT p.proname::text AS name, l.lanname::text AS language FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                WHERE p.proname = ANY($1::text[]) ORDER BY 1
                """,
                [["herald_actor", "herald_current_tenant", "herald_first_visible_tenant", "herald_last_visible_tenant", "herald_session_tenant"]])
            #expect(rows.count == 5)
            for row in rows {
                let name: String = try row.decode("name")
                #expect(try row.decode("language", as: String.self) == "plpgsql", "\(name)")
            }
        }
    }

    /// Checksums are computed here, not by the server (so that checking the schema sends no
    /// migration text); databases migrated earlier recorded the server's sha256: they agree.
    @Test func localChecksumsAreTheServersSha256() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let rows = try connection.query(
                """
                SELECT name, encode(sha256(convert_to(sql, 'UTF8')), 'hex') AS checksum
                FROM unnest($1::text[], $2::text[]) AS m(name, sql)
                """,
                [Migration.bundled.map(\.name), Migration.bundled.map(\.sql)])
            let server = Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode("name", as: String.self), try $0.decode("checksum", as: String.self)) })
            #expect(server.count == Migration.bundled.count)
            for migration in Migration.bundled {
                #expect(server[migration.name] == migration.checksum, "\(migration.name)")
            }
        }
    }

    @Test func bundledMigrationsAreTheFilesInMigrationsFolder() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migration.bundled.map(\.name) == names)
        for migration in Migration.bundled {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == text)
        }
        // Numbered NNNN_name.sql from 0001, each number once, in order (a number may be missing
        // while branches that claimed it have not landed).
        let numbers = names.compactMap { name in name.count > 5 && name.dropFirst(4).first == "_" ? Int(name.prefix(4)) : nil }
        #expect(numbers.count == names.count, "\(names)")
        #expect(numbers.first == 1 && Set(numbers).count == numbers.count && numbers == numbers.sorted(), "\(names)")
    }

    @Test func aChangedAppliedMigrationStopsEverything() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let first = Migration(name: "0001_a.sql", sql: "CREATE TABLE a (x int);")
            try Migrator(migrations: [first]).migrate(connection)
            let edited = Migrator(migrations: [
                Migration(name: "0001_a.sql", sql: "CREATE TABLE a (x bigint);"),
                Migration(name: "0002_b.sql", sql: "CREATE TABLE b (x int);"),
            ])
            #expect(try edited.status(connection).changed == ["0001_a.sql"])
            #expect(performing: { try edited.migrate(connection) }, throws: isStoreError(.schema))
            let tables = try connection.query("SELECT to_regclass('b') IS NULL AS missing")
            #expect(try tables[0].decode("missing", as: Bool.self))
        }
    }

    @Test func aDatabaseMigratedByANewerHeraldIsRefused() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try Migrator(migrations: [
                Migration(name: "0001_a.sql", sql: "SELECT 1;"), Migration(name: "0002_b.sql", sql: "SELECT 2;"),
            ]).migrate(connection)
            let older = Migrator(migrations: [Migration(name: "0001_a.sql", sql: "SELECT 1;")])
            let status = try older.status(connection)
            #expect(status.unknown == ["0002_b.sql"])
            let refusal = try #require(Migrator.refusal(status))
            #expect(refusal.description.contains("newer herald"))
        }
    }

    @Test func aFailingMigrationLeavesNoTrace() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let migrator = Migrator(migrations: [
                Migration(name: "0001_ok.sql", sql: "CREATE TABLE ok (x int);"),
                Migration(name: "0002_bad.sql", sql: "CREATE TABLE half (x int); SELECT * FROM missing_table;"),
            ])
            #expect(throws: (any Error).self) { try migrator.migrate(connection) }
            let status = try migrator.status(connection)
            #expect(status.applied.map(\.name) == ["0001_ok.sql"])
            let half = try connection.query("SELECT to_regclass('half') IS NULL AS missing")
            #expect(try half[0].decode("missing", as: Bool.self))
        }
    }

    /// Migration 0013 makes message keys unique per app whatever their case. Pairs that a
    /// database already holds stay (devices remember keys forever); new ones are refused.
    @Test func caseInsensitiveMessageKeysKeepThePairsThatExist() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let upTo0012 = Migration.bundled.filter { $0.name < "0013" }
            try Migrator(migrations: upTo0012).migrate(connection)
            try connection.execute("SET ROLE herald_operator")
            try connection.execute(
                """
                WITH t AS (INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme') RETURNING id),
                a AS (INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales)
                      SELECT id, 'weather', 'Weather', 'ios', 'com.acme.weather', 'en', '{en}' FROM t RETURNING tenant_id, id),
                c AS (INSERT INTO campaigns (tenant_id, app_id, key, kind, name)
                      SELECT tenant_id, id, k, 'alert', k FROM a, unnest(ARRAY['one', 'two', 'three']) AS k RETURNING tenant_id, app_id, id, key)
                INSERT INTO alert_message_keys (tenant_id, app_id, campaign_id, message_key)
                SELECT tenant_id, app_id, id, CASE key WHEN 'one' THEN 'promoA' WHEN 'two' THEN 'PROMOA' ELSE 'other' END FROM c
                """)
            try connection.execute("RESET ROLE")
            try Migrator().migrate(connection)
            try connection.execute("SET ROLE herald_operator")
            let kept = try connection.query("SELECT message_key FROM alert_message_keys ORDER BY seq").map { try $0.decode("message_key", as: String.self) }
            #expect(kept == ["promoA", "PROMOA", "other"])
            func insert(_ key: String) -> Bool {
                (try? connection.execute(
                    """
                    INSERT INTO alert_message_keys (tenant_id, app_id, campaign_id, message_key)
                    SELECT tenant_id, app_id, campaign_id, $1 FROM alert_message_keys WHERE message_key = 'other'
                    """, [key])) != nil
            }
            #expect(!insert("PromoA"))
            #expect(!insert("OTHER"))
            #expect(insert("fresh"))
            #expect(!insert("FRESH"))
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() throws {
        try HeraldFixtures.withEmptyDatabase { configuration in
            let results = try (0..<3).map { _ in try ConnectionQueue(configuration: configuration) }
            let group = DispatchGroup()
            let outcomes = Outcomes()
            for queue in results {
                group.enter()
                DispatchQueue.global().async {
                    defer { group.leave() }
                    do {
                        let applied = try queue.sync { try Migrator().migrate($0) }
                        outcomes.add(applied.count)
                    } catch {
                        outcomes.add(-1)
                    }
                }
            }
            group.wait()
            #expect(outcomes.values.sorted() == [0, 0, Migration.bundled.count])
        }
    }
}

/// Thread-safe collector for the concurrency test.
final class Outcomes: Sendable {
    private let storage = Mutex<[Int]>([])
    func add(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}

@Suite struct VersionRuleInTheDatabaseTests {
    /// Rows written around Herald are held to HeraldCore's Version rule: 1 to 64 printable
    /// ASCII characters, no space at either end (migration 0013; devices run 2.10b1).
    @Test func conditionVersionsFollowTheSameRuleAsHeraldCore() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            let alert = try #require(seeded.acmeCampaigns.first { $0.spec.kind == .alert })
            func insert(_ version: String) -> Bool {
                (try? database.asOperator { session in
                    try session.connection.execute(
                        """
                        INSERT INTO campaign_conditions (tenant_id, campaign_id, kind, grp, type, value)
                        VALUES ($1, $2, 'alert', 'all', 'maxAppVersion', to_jsonb($3::text))
                        ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = excluded.value
                        """, [seeded.acme.id, alert.id, version])
                }) != nil
            }
            for good in ["0", "2.4", "2.10.0", "2.10b1", "2.9.9-beta", "10.0 (1234)", "2.04", String(repeating: "9", count: 64)] {
                #expect(insert(good), "\(good)")
            }
            for bad in ["", " 2.4", "2.4 ", "2.4\t", "2.4é", String(repeating: "9", count: 65)] {
                #expect(!insert(bad), "\(bad)")
            }
            let domain = try database.connection.query(
                "SELECT '2.4'::version_text IS NOT NULL AS ok")[0].decode("ok", as: Bool.self)
            #expect(domain)
            #expect(throws: PostgresError.self) { try database.connection.query("SELECT ' 2.4'::version_text") }
        }
    }
}

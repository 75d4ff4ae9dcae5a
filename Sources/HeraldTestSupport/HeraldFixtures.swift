import Foundation
import HeraldStore
import PostgresClient

/// Databases with Herald's schema for store and CLI tests: the template is migrated once
/// per test process, and each test gets its own copy of it.
public enum HeraldFixtures {
    static let template = "herald_template"

    /// A fresh, fully migrated database for the body, dropped afterwards.
    public static func withMigratedDatabase<T>(_ body: (ConnectionConfiguration) throws -> T) throws -> T {
        try prepareTemplate()
        return try withTestDatabase(template: template, body)
    }

    public static func withMigratedDatabase<T: Sendable>(
        _ body: (ConnectionConfiguration) async throws -> T
    ) async throws -> T {
        try prepareTemplate()
        return try await withTestDatabase(template: template, body)
    }

    /// A database owned by a fresh login that is not a superuser (CREATEROLE, as the README
    /// asks of Herald's user), migrated by that login (through `migrations`: an upgrade test
    /// stops before the one it tests): the body gets its configuration and name. Dropped
    /// afterwards, with the login.
    public static func withMigratedDatabaseOwnedByALogin<T>(
        migrations: [Migration] = Migration.bundled, _ body: (ConnectionConfiguration, String) throws -> T
    ) throws -> T {
        let server = try PostgresTestServer.shared()
        let owner = "owner_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try Connection(configuration: server.configuration(database: "postgres"))
        // Names made here, never input.
        let name = UnsafeSQL(owner)
        try admin.execute("CREATE ROLE \(name) LOGIN CREATEROLE")
        defer { _ = try? admin.execute("DROP ROLE IF EXISTS \(name)") }
        try admin.execute("CREATE DATABASE \(name) OWNER \(name)")
        defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        let configuration = server.configuration(database: owner, user: owner)
        try Migrator(migrations: migrations).migrate(try Connection(configuration: configuration))
        return try body(configuration, owner)
    }

    /// An empty database (no migrations applied), dropped afterwards.
    public static func withEmptyDatabase<T>(_ body: (ConnectionConfiguration) throws -> T) throws -> T {
        try withTestDatabase(template: nil, body)
    }

    private static func prepareTemplate() throws {
        try PostgresTestServer.shared().prepareTemplate(template) { connection in
            try Migrator().migrate(connection)
        }
    }

    /// A digest of every row of every table in the database's own schemas (Herald's: public,
    /// reporting, …; month partitions each on their own), read as the superuser (past
    /// row-level security): equal digests before and after a command prove it changed nothing,
    /// and a table or partition it created shows too. The list comes from the catalog, so a
    /// table added by a migration is covered without being named here.
    public static func fingerprint(_ configuration: ConnectionConfiguration) throws -> String {
        let connection = try Connection(configuration: configuration)
        // Plain tables and partitions (a partitioned parent's rows are its partitions'), not
        // the system's, and not another session's temporary tables.
        let tables: [String] = try connection.query(
            """
            SELECT format('%I.%I', n.nspname, c.relname) AS name
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind = 'r' AND c.relpersistence <> 't'
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
            ORDER BY n.nspname, c.relname
            """
        ).map { try $0.decode("name") }
        // One statement for them all; `tables` are identifiers quoted by the server (%I), never input.
        let union = UnsafeSQL(
            tables.enumerated().map { index, table in
                "SELECT \(index) AS i, (SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \(table) t) AS digest"
            }.joined(separator: " UNION ALL "))
        let digests = try connection.query("\(union) ORDER BY i").map { try $0.decode("digest", as: String.self) }
        let parts = zip(tables, digests).map { "\($0)=\($1)" }
        return parts.joined(separator: " ")
    }
}

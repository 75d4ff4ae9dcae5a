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
    /// asks of Herald's user), migrated by that login: the body gets its configuration and
    /// name. Dropped afterwards, with the login.
    public static func withMigratedDatabaseOwnedByALogin<T>(_ body: (ConnectionConfiguration, String) throws -> T) throws -> T {
        let server = try PostgresTestServer.shared()
        let owner = "owner_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try Connection(configuration: server.configuration(database: "postgres"))
        // Names made here, never input.
        try admin.execute("CREATE ROLE \(owner) LOGIN CREATEROLE")
        defer { _ = try? admin.execute("DROP ROLE IF EXISTS \(owner)") }
        try admin.execute("CREATE DATABASE \(owner) OWNER \(owner)")
        defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(owner) WITH (FORCE)") }
        let configuration = server.server.configuration(database: owner, user: owner)
        try Migrator().migrate(try Connection(configuration: configuration))
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

    /// A digest of every row of every Herald table, read as the superuser (past row-level
    /// security): equal digests before and after a command prove it changed nothing.
    public static func fingerprint(_ configuration: ConnectionConfiguration) throws -> String {
        let connection = try Connection(configuration: configuration)
        var parts: [String] = []
        // Constant table names from migrations/, never input.
        for table in [
            "tenants", "apps", "campaigns", "alert_message_keys", "campaign_conditions", "banner_contents",
            "banner_views", "alert_contents", "story_contents", "story_pages", "audit_log",
        ] {
            let rows = try connection.query(
                "SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM \(table) t"
            )
            parts.append("\(table)=\(try rows[0].decode("digest", as: String.self))")
        }
        return parts.joined(separator: " ")
    }
}

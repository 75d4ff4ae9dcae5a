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
                "SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM \(UnsafeSQL(table)) t"
            )
            parts.append("\(table)=\(try rows[0].decode("digest", as: String.self))")
        }
        return parts.joined(separator: " ")
    }
}

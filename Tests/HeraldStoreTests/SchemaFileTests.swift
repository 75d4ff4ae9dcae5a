import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// schema.sql (scripts/update-schema) is the schema the migrations make: a database migrated
/// from migrations/ and one made from schema.sql alone dump alike. Both dumps come from the
/// same pg_dump, so the comparison holds whatever PostgreSQL runs the tests.
@Suite struct SchemaFileTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema.sql")

    @Test func schemaFileIsWhatTheMigrationsMake() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let migrated = try HeraldFixtures.withMigratedDatabase { try Self.schema(of: $0) }
        let described = try HeraldFixtures.withEmptyDatabase { configuration -> [Substring]? in
            do {
                // As pg_dump's own SETs would: a function's body may name a table made further down.
                try Connection(configuration: configuration).executeScript("SET check_function_bodies = false;\n\(UnsafeSQL(text))")
            } catch {
                Issue.record("schema.sql does not load (\(error)): run scripts/update-schema and commit schema.sql")
                return nil
            }
            return try Self.schema(of: configuration)
        }
        guard let described else { return }
        if migrated != described {
            let common = min(migrated.count, described.count)
            let line = (0..<common).first { migrated[$0] != described[$0] } ?? common
            func at(_ lines: [Substring]) -> String { line < lines.count ? "\"\(lines[line])\"" : "(the end)" }
            let difference = "first difference at line \(line + 1) of the dumps: migrated \(at(migrated)), schema.sql \(at(described))"
            Issue.record("schema.sql is not the schema migrations/ makes: run scripts/update-schema and commit schema.sql (\(difference))")
        }
    }

    /// `pg_dump --schema-only` of the database, by line, without its random \restrict keys.
    static func schema(of configuration: ConnectionConfiguration) throws -> [Substring] {
        try withTemporaryDirectory { directory in
            let dump = directory.appendingPathComponent("schema.sql")
            let (status, output) = try runProgram(
                try postgresProgram("pg_dump"), ["--schema-only", "--file=\(dump.path)", "--dbname=\(configuration.conninfo)"])
            guard status == 0 else { throw PostgresError(kind: .usage, message: "pg_dump failed: \(output)") }
            return try String(contentsOf: dump, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ") }
        }
    }
}

import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// queries/*.sql: every statement the code asks for is there, and each is SQL the migrated
/// schema accepts (as sent: its shared statements in front, its names numbered).
@Suite struct QueryTests {
    @Test func everyNameTheCodeAsksForIsAStatementAndEveryStatementIsAsked() {
        let embedded = Query.embedded
        #expect(embedded.problems == [])
        let names = Set(embedded.statements.keys)
        let asked = Set(Query.allCases.map(\.rawValue))
        #expect(asked.subtracting(names).sorted() == [], "asked for, not in queries/*.sql")
        #expect(names.subtracting(asked).sorted() == [], "in queries/*.sql, never asked for")
    }

    @Test func everyStatementPreparesAgainstTheMigratedSchema() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try EventIngestor(database: database)  // its temporary tables, which some statements use
            for query in Query.allCases {
                #expect(throws: Never.self, "\(query.rawValue)") {
                    try database.connection.prepare(name: "check-\(query.rawValue)", sql: try query.compiled.sql)
                }
            }
        }
    }

    @Test func namedBlocksAreReadLikeListmonksAndMistakesAreNamed() {
        let good = NamedStatements(files: [(
            "a.sql",
            """
            -- What this file is for.

            -- name: first-one
            -- What it does.
            SELECT 1
            FROM t;

              --name :second
            SELECT 2;
            -- names: a comment, not a name line
            """
        )])
        #expect(good.problems == [])
        #expect(good.statements["first-one"]?.text == "-- What it does.\nSELECT 1\nFROM t")
        #expect(good.statements["second"]?.text == "SELECT 2;\n-- names: a comment, not a name line")
        #expect(good.statements.count == 2)

        let bad = NamedStatements(files: [
            ("b.sql", "SELECT 0;\n-- name: empty\n-- nothing here\n-- name: Bad Name\nSELECT 1;\n-- name: twice\nSELECT 2;"),
            ("c.sql", "-- name: twice\nSELECT 3;"),
            ("d.sql", nil),
        ])
        #expect(
            bad.problems == [
                "b.sql: SQL before the first \"-- name:\" line", "b.sql: empty has no statement",
                "b.sql: \"Bad Name\" is not a name (lowercase letters, digits and -)", "c.sql: twice is named twice", "d.sql is not UTF-8",
            ])
    }
}

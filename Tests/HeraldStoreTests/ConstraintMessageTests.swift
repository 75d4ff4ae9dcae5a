import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// StoreError says a failure in words only when the name PostgreSQL reports is one it knows:
/// a constraint renamed in a migration would otherwise fall back to the raw message unnoticed.
/// These read StoreError's own tables, never a copy of them.
@Suite struct ConstraintMessageTests {
    /// A constraint, or a unique index (PostgreSQL reports its name for a duplicate the same way).
    @Test func everyTranslatedConstraintExistsInTheSchema() throws {
        let names = StoreError.constraintMessages.keys.sorted()
        try #require(!names.isEmpty)
        try HeraldFixtures.withMigratedDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let rows = try connection.query(
                """
                SELECT c.conname::text AS name
                FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
                WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND c.conname = ANY($1::text[])
                UNION
                SELECT i.relname::text
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
                WHERE x.indisunique AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND i.relname = ANY($1::text[])
                """,
                [names])
            let found = Set(try rows.map { try $0.decode("name", as: String.self) })
            #expect(names.filter { !found.contains($0) } == [], "translated, but no such constraint after migrating")
        }
    }

    @Test func everyTranslatedTriggerRuleIsRaisedByATrigger() throws {
        let names = StoreError.triggerRuleMessages.keys.sorted()
        try #require(!names.isEmpty)
        // The names go into a pattern below: plain identifiers only.
        #expect(names.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } })
        try HeraldFixtures.withMigratedDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            var missing: [String] = []
            for name in names {
                let raised: Bool = try connection.query(
                    """
                    SELECT EXISTS (
                        SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
                        WHERE NOT t.tgisinternal AND p.prosrc ~* ('constraint\\s*=\\s*''' || $1 || '''')
                    ) AS raised
                    """,
                    [name])[0].decode("raised")
                if !raised { missing.append(name) }
            }
            #expect(missing == [], "translated, but no trigger raises that constraint name")
        }
    }

    @Test func theTwoTablesNeverNameTheSameThing() {
        let both = Set(StoreError.constraintMessages.keys).intersection(StoreError.triggerRuleMessages.keys)
        #expect(both.isEmpty)
        #expect(StoreError.translatedConstraints.count == StoreError.constraintMessages.count + StoreError.triggerRuleMessages.count)
    }
}

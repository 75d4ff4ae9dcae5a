import Foundation
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
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
            #expect(throws: StoreError.self) { try edited.migrate(connection) }
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
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func add(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
}

@Suite struct VersionRuleInTheDatabaseTests {
    /// Rows written around Herald are held to HeraldCore's Version rule: parts of at most 18
    /// digits, no leading zeros.
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
            for good in ["0", "2.4", "2.10.0", String(repeating: "9", count: 18)] { #expect(insert(good), "\(good)") }
            for bad in ["2.04", "01", String(repeating: "9", count: 19), "1." + String(repeating: "1", count: 19), "2..4", ""] {
                #expect(!insert(bad), "\(bad)")
            }
            let domain = try database.connection.query(
                "SELECT '2.4'::version_text IS NOT NULL AS ok")[0].decode("ok", as: Bool.self)
            #expect(domain)
            #expect(throws: PostgresError.self) { try database.connection.query("SELECT '2.04'::version_text") }
        }
    }
}

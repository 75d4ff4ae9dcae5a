import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// Every tenant has its publish and apply lock rows from the moment it exists (0033), however
/// it was inserted: a publish only locks them, and inserts nothing first.
@Suite struct TenantLockRowsTests {
    /// Read as Herald's operator role (row security is forced on the owner's login too).
    static func lockRows(_ connection: Connection, tenant slug: String) throws -> [String] {
        try connection.transaction { tx in
            try tx.execute("SET LOCAL ROLE herald_operator")
            return try tx.query(
                "SELECT l.purpose FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1::text ORDER BY 1", [slug]
            ).map { try $0.decode("purpose", as: String.self) }
        }
    }

    @Test func aTenantHasItsLockRowsHoweverItWasInserted() throws {
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin { configuration, _ in
            let owner = try Connection(configuration: configuration)
            try owner.transaction { tx in
                try tx.execute("SET LOCAL ROLE herald_operator")
                try tx.execute("INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme')")
            }
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try database.asOperator { try $0.tenants.create(slug: try Slug("globex"), name: "Globex") }
            #expect(try Self.lockRows(owner, tenant: "acme") == ["apply", "publish"])
            #expect(try Self.lockRows(owner, tenant: "globex") == ["apply", "publish"])
        }
    }

    @Test func tenantsMadeWithoutThemGetThemWhenTheDatabaseIsMigrated() throws {
        let before = Migration.bundled.filter { $0.name < "0033" }
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin(migrations: before) { configuration, _ in
            let owner = try Connection(configuration: configuration)
            try owner.transaction { tx in
                try tx.execute("SET LOCAL ROLE herald_operator")
                try tx.execute("INSERT INTO tenants (slug, name) VALUES ('acme', 'Acme'), ('globex', 'Globex')")
                try tx.execute(
                    "INSERT INTO tenant_locks (tenant_id, purpose) SELECT id, 'publish' FROM tenants WHERE slug = 'globex'")
            }
            #expect(try Self.lockRows(owner, tenant: "acme").isEmpty)
            try Migrator().migrate(owner)
            #expect(try Self.lockRows(owner, tenant: "acme") == ["apply", "publish"])
            #expect(try Self.lockRows(owner, tenant: "globex") == ["apply", "publish"])
        }
    }

    /// A whole-site publish locks every tenant's row on its second connection, none inserted
    /// by it: a tenant's lock held elsewhere leaves that tenant out.
    @Test func aPublishLocksTheRowsItFinds() throws {
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin { configuration, _ in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            for slug in ["acme", "globex"] { _ = try database.asOperator { try $0.tenants.create(slug: try Slug(slug), name: slug) } }
            let other = try Connection(configuration: configuration)
            try other.execute("BEGIN")
            try other.execute("SET LOCAL ROLE herald_operator")
            _ = try other.query(
                "SELECT 1 FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = 'globex' AND purpose = 'publish' FOR UPDATE OF l")
            let held = try database.withTenantPublishLocks(nil, busy: .skip) { $0 }
            #expect(held == [try Slug("acme")])
            try other.execute("ROLLBACK")
        }
    }
}

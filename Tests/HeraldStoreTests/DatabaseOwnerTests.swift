import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// The login that owns Herald's database and runs it (not a superuser, as the README asks) is
/// outside the row policies: it sees no tenant's rows until it takes one of Herald's roles.
@Suite struct DatabaseOwnerTests {
    @Test func theOwnerSeesNoTenantRowsWithoutSwitchingRoles() throws {
        try HeraldFixtures.withMigratedDatabaseOwnedByALogin { configuration, _ in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            _ = try EventIngestor(database: database).ingest(parse([eventLine(1), eventLine(2, tenant: "globex", app: "news")]))
            let owner = try Connection(configuration: configuration)
            let tables = TenantIsolationTests.tenantTables + ["tenants", "delivery_events", "campaign_rollup", "publish_runs"]
            for table in tables {
                #expect(try owner.query("SELECT count(*) AS n FROM \(UnsafeSQL(table))")[0].decode("n", as: Int.self) == 0, "\(table)")
            }
            // Nor through the reporting views, which say so (and who reads them) rather than
            // answer with no rows, which would look like no events.
            #expect {
                _ = try owner.query("SELECT * FROM reporting.campaign_summary")
            } throws: { error in
                (error as? PostgresError)?.sqlState == .insufficientPrivilege
                    && (error as? PostgresError)?.hint?.contains("SET ROLE herald_operator") == true
            }
            // Herald's roles see what they should, through the same login.
            try owner.transaction { tx in
                try tx.execute("SET LOCAL ROLE herald_operator")
                #expect(try tx.query("SELECT count(*) AS n FROM tenants")[0].decode("n", as: Int.self) == 2)
                #expect(try tx.query("SELECT count(*) AS n FROM reporting.campaign_summary")[0].decode("n", as: Int.self) == 2)
            }
            let seen: [String] = try database.inTenant(try Slug("acme"), readOnly: true) { session in
                try session.connection.query("SELECT slug FROM tenants").map { try $0.decode("slug") }
            }
            #expect(seen == ["acme"])
        }
    }
}

import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// One tenant must never read or touch another's rows: not through any store method, and
/// not through raw SQL run while another tenant is set. Row-level security enforces it.
@Suite struct TenantIsolationTests {
    static let tenantTables = [
        "apps", "campaigns", "alert_message_keys", "campaign_conditions", "banner_contents", "banner_views",
        "alert_contents", "story_contents", "story_pages", "audit_log",
    ]

    @Test func storeMethodsSeeOnlyTheirTenant() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            try database.inTenant(seeded.globex.slug) { session in
                #expect(try session.apps.list().map(\.spec.slug.rawValue) == ["news"])
                #expect(performing: { try session.apps.find(seeded.acmeApp.spec.slug) }, throws: isStoreError(.notFound))
                #expect(
                    performing: { try session.apps.update(seeded.acmeApp.spec.slug, { var c = AppChanges(); c.name = "Stolen"; return c }()) },
                    throws: isStoreError(.notFound))
                #expect(try session.campaigns.load(appIDs: [seeded.acmeApp.id]).isEmpty)
                for campaign in seeded.acmeCampaigns {
                    #expect(performing: { try session.campaigns.find(campaign.spec.key, in: seeded.acmeApp) }, throws: isStoreError(.notFound))
                    var stolen = campaign.spec
                    stolen.name = "Stolen"
                    #expect(performing: { try session.campaigns.save(stolen, in: seeded.acmeApp) }, throws: isStoreError(.notFound))
                    #expect(
                        performing: { try session.campaigns.setStatus(campaign.spec.key, .archived, in: seeded.acmeApp) },
                        throws: isStoreError(.notFound))
                }
                let spec = try session.spec()
                #expect(spec.apps.map(\.slug.rawValue) == ["news"])
                #expect(try session.audit.entries(since: nil).allSatisfy { !$0.entityID.contains("weather") && !$0.entityID.contains("acme") })
            }
            // Creating into the other tenant's app is refused by the database (a transaction of its own:
            // the refusal aborts it).
            #expect(performing: {
                try database.inTenant(seeded.globex.slug) {
                    try $0.campaigns.create(try StoreFixtures.alert("sneaky"), in: seeded.acmeApp)
                }
            }, throws: isStoreError(.database))
            // And acme's data is intact.
            try database.inTenant(seeded.acme.slug) { session in
                let campaigns = try session.campaigns.load(appIDs: [seeded.acmeApp.id])
                #expect(campaigns.map(\.spec) == seeded.acmeCampaigns.map(\.spec).sorted { $0.key < $1.key })
                #expect(try session.apps.find(seeded.acmeApp.spec.slug).spec.name == "Weather")
            }
        }
    }

    @Test func rawSQLWithAnotherTenantSetCannotReadOrWriteIt() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            let acmeID = seeded.acme.id
            try database.inTenant(seeded.globex.slug) { session in
                let sql = session.connection
                for table in Self.tenantTables {
                    let rows = try sql.query("SELECT count(*) AS n FROM \(UnsafeSQL(table)) WHERE tenant_id = $1", [acmeID])
                    #expect(try rows[0].decode("n", as: Int.self) == 0, "\(table) leaked")
                }
                let tenants = try sql.query("SELECT slug FROM tenants")
                #expect(try tenants.map { try $0.decode("slug", as: String.self) } == ["globex"])
                for table in ["apps", "campaigns"] {
                    #expect(try sql.execute("UPDATE \(UnsafeSQL(table)) SET name = 'x' WHERE tenant_id = $1", [acmeID]) == 0)
                }
                for table in ["campaign_conditions", "banner_contents", "banner_views", "alert_contents", "story_contents", "story_pages"] {
                    #expect(try sql.execute("DELETE FROM \(UnsafeSQL(table)) WHERE tenant_id = $1", [acmeID]) == 0)
                }
            }
            // Writing a row that names the other tenant fails outright (each in its own transaction).
            let inserts: [(SQL, [any PostgresEncodable])] = [
                ("INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales) VALUES ($1, 'evil', 'Evil', 'ios', 'com.evil.app', 'en', '{en}')", [acmeID]),
                ("INSERT INTO campaigns (tenant_id, app_id, key, kind, name) VALUES ($1, $2, 'evil', 'alert', 'Evil')", [acmeID, seeded.acmeApp.id]),
                ("INSERT INTO audit_log (tenant_id, actor, action, entity) VALUES ($1, 'x', 'insert', 'forged')", [acmeID]),
            ]
            for (statement, parameters) in inserts {
                #expect(performing: {
                    try database.inTenant(seeded.globex.slug) { try $0.connection.execute(statement, parameters) }
                }, throws: isStoreError(.permissionDenied))
            }
            // Moving a row of one's own into the other tenant is refused too.
            #expect(performing: {
                try database.inTenant(seeded.globex.slug) {
                    try $0.connection.execute("UPDATE apps SET tenant_id = $1", [acmeID])
                }
            }, throws: isStoreError(.invalid))
            let acmeCampaigns = try database.inTenant(seeded.acme.slug) { try $0.campaigns.load(appIDs: [seeded.acmeApp.id]) }
            #expect(acmeCampaigns.map(\.spec) == seeded.acmeCampaigns.map(\.spec).sorted { $0.key < $1.key })
        }
    }

    @Test func withoutATenantOrWithAnUnknownRoleNothingIsVisible() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let connection = try Connection(configuration: configuration)
            // herald_tenant with no tenant set: nothing.
            try connection.transaction { tx in
                try tx.execute("SET LOCAL ROLE herald_tenant")
                for table in Self.tenantTables + ["tenants"] {
                    #expect(try tx.query("SELECT count(*) AS n FROM \(UnsafeSQL(table))")[0].decode("n", as: Int.self) == 0, "\(table)")
                }
            }
            // A role that was granted the tables but has no policy (code that forgot to pick
            // a role, say): row-level security is forced, so it sees nothing either.
            let role = "forgetful_\(UUID().uuidString.prefix(8).lowercased())"
            try connection.execute("CREATE ROLE \(UnsafeSQL(role)) NOLOGIN")
            defer {
                _ = try? connection.execute("DROP OWNED BY \(UnsafeSQL(role))")
                _ = try? connection.execute("DROP ROLE \(UnsafeSQL(role))")
            }
            try connection.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(UnsafeSQL(role))")
            try connection.transaction { tx in
                try tx.execute("SET LOCAL ROLE \(UnsafeSQL(role))")
                for table in Self.tenantTables + ["tenants"] {
                    #expect(try tx.query("SELECT count(*) AS n FROM \(UnsafeSQL(table))")[0].decode("n", as: Int.self) == 0, "\(table)")
                }
            }
        }
    }
}

/// A publish's snapshot read over two connections (part of the campaigns on the second, in
/// the first one's snapshot) gives what one connection gives, for the operator and for a
/// tenant's own login (confined the same way on both).
@Suite struct SnapshotOverTwoConnectionsTests {
    @Test func twoConnectionsReadWhatOneReads() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            for (tenant, app) in [(seeded.acme.slug, seeded.acmeApp), (seeded.globex.slug, seeded.globexApp)] {
                try database.inTenant(tenant) { session in
                    for key in ["spring", "hello", "tour"] { try session.campaigns.setStatus(try Slug(key), .active, in: app) }
                }
            }
            let one = try database.asOperator(.repeatableRead, readOnly: true) { try SnapshotReader($0).read() }
            #expect(one.flatMap(\.apps).flatMap(\.campaigns).count == 6)
            #expect(Set(one.flatMap(\.apps).flatMap(\.campaigns).map(\.kind)) == [.banner, .alert, .story])
            let two = try database.asOperator(.repeatableRead, readOnly: true) { session in
                try SnapshotReader(session).read(alongside: database.connector)
            }
            #expect(two == one)
            // A change committed while the first connection's transaction is open is seen by neither.
            let changing = try database.connectAgain()
            let during = try database.asOperator(.repeatableRead, readOnly: true) { session in
                _ = try session.connection.query("SELECT 1 FROM tenants LIMIT 1")  // the snapshot is taken here
                _ = try changing.inTenant(seeded.acme.slug) { try $0.campaigns.setStatus(try Slug("tour"), .paused, in: seeded.acmeApp) }
                return try SnapshotReader(session).read(alongside: database.connector)
            }
            #expect(during == one)
            let after = try database.asOperator(.repeatableRead, readOnly: true) { session in
                try SnapshotReader(session).read(alongside: database.connector)
            }
            #expect(after.flatMap(\.apps).flatMap(\.campaigns).count == 5)
            // A tenant's own login: its second connection is held to its tenant as its first is.
            let role = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
            _ = try database.asOperator { try $0.operatorAccess.grant(role: role, tenant: seeded.acme.slug, password: nil) }
            let own = try HeraldDatabase(configuration: ConnectionConfiguration(conninfo: configuration.conninfo + " user=\(role)"), actor: role)
            let alone = try own.asOperator(.repeatableRead, readOnly: true) { try SnapshotReader($0).read() }
            let beside = try own.asOperator(.repeatableRead, readOnly: true) { session in
                try SnapshotReader(session).read(alongside: own.connector)
            }
            #expect(alone.map(\.slug) == [seeded.acme.slug] && alone.flatMap(\.apps).flatMap(\.campaigns).count == 2)
            #expect(beside == alone)
            // No second connection to be had: the first reads it all.
            let nowhere = HeraldDatabase.Connector(
                configuration: ConnectionConfiguration(conninfo: configuration.conninfo + " host=/tmp/herald-no-such-server"), actor: "test")
            let single = try database.asOperator(.repeatableRead, readOnly: true) { session in
                try SnapshotReader(session).read(alongside: nowhere)
            }
            #expect(single == after)
        }
    }
}

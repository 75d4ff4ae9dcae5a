import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// `herald tenant grant-operator` as grant-reporting does it: names checked and quoted, a role
/// Herald did not make (or made for something else) never touched, revoking drops the login.
@Suite struct OperatorGrantTests {
    @Test func grantingIsCheckedAndRevokingDropsTheRole() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let acme = try Slug("acme")
            let globex = try Slug("globex")
            let role = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
            let analyst = "acme_analyst_\(UInt32.random(in: 0...UInt32.max))"
            let verifier = try database.passwordVerifier("s3cret 'quoted'", role: role)
            #expect(verifier.hasPrefix("SCRAM-SHA-256$") && !verifier.contains("s3cret"))
            #expect(try database.asOperator { try $0.operatorAccess.grant(role: role, tenant: acme, password: verifier) } == .created)
            #expect(try database.asOperator { try $0.operatorAccess.grant(role: role, tenant: acme, password: nil) } == .updated)
            _ = try database.asOperator { try $0.reportingAccess.grant(role: analyst, tenant: acme, password: nil) }
            #expect(try database.asOperator { try $0.operatorAccess.operators(tenant: acme) }.map(\.role) == [role])
            // What is kept is the verifier, never the password.
            let kept: String? = try Connection(configuration: configuration).query(
                "SELECT password_verifier FROM operator_grants WHERE role_name = $1", [role])[0].decode("password_verifier")
            #expect(kept == verifier)
            for (name, tenant, words) in [
                (role, globex, "already operates another tenant"), ("postgres", acme, "is not a Herald operator role"),
                (analyst, acme, "is a reporting role"), ("herald_operator", acme, "invalid operator role name"),
                ("pg_signal_backend", acme, "invalid operator role name"),
                ("Robert'); DROP TABLE tenants;--", acme, "invalid operator role name"),
            ] {
                do {
                    _ = try database.asOperator { try $0.operatorAccess.grant(role: name, tenant: tenant, password: nil) }
                    Issue.record("granted \(name)")
                } catch {
                    #expect("\(error)".contains(words), "\(name): \(error)")
                }
            }
            // Nor does grant-reporting take an operator's login.
            #expect(
                performing: { try database.asOperator { try $0.reportingAccess.grant(role: role, tenant: acme, password: nil) } },
                throws: isStoreError(.invalid))
            #expect(
                performing: { try database.asOperator { try $0.operatorAccess.revoke(role: role, tenant: globex) } },
                throws: isStoreError(.invalid))
            #expect(try database.asOperator { try $0.operatorAccess.revoke(role: role, tenant: acme) })
            #expect(try Connection(configuration: configuration).query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]).isEmpty)
            #expect(try database.asOperator { try $0.operatorAccess.revoke(role: role, tenant: acme) } == false)
            #expect(try database.asOperator { try $0.reportingAccess.revoke(role: analyst, tenant: acme) })
            #expect(try database.asOperator { try $0.connection.query("SELECT count(*) AS n FROM tenants")[0].decode("n", as: Int.self) } == 2)
        }
    }
}

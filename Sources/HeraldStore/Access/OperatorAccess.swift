import Foundation
import HeraldCore
import PostgresClient

/// One login Herald made for a tenant.
public struct TenantLogin: Sendable, Equatable {
    public let role: String
    public let grantedAt: Date
}

/// What granting a tenant's login did: made the role, or updated its password.
public enum LoginGrantOutcome: String, Sendable { case created, updated }

/// Login roles for a tenant's own team: they run herald for that tenant and nothing else.
/// The database functions do the work (checked names, quoted identifiers, roles Herald did
/// not make left alone); this is their typed front. Herald's own login only.
public struct OperatorAccess {
    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// Creates the role (or updates its password) so it operates `tenant`. `password`: the
    /// verifier from `HeraldDatabase.passwordVerifier` (kept for restores), or nil.
    public func grant(role: String, tenant: Slug, password: String?) throws -> LoginGrantOutcome {
        let tenantID = try TenantRepository(connection: connection).find(tenant).id
        let outcome: String = try connection.query(GrantOperator(role: role, tenantID: tenantID, password: password))[0]
            .decode("outcome")
        return LoginGrantOutcome(rawValue: outcome) ?? .updated
    }

    /// Drops the role; false when it was no operator of `tenant`.
    public func revoke(role: String, tenant: Slug) throws -> Bool {
        let tenantID = try TenantRepository(connection: connection).find(tenant).id
        return try connection.query(RevokeOperator(role: role, tenantID: tenantID))[0].decode("done")
    }

    /// `tenant`'s operator logins, by name.
    public func operators(tenant: Slug) throws -> [TenantLogin] {
        let tenantID = try TenantRepository(connection: connection).find(tenant).id
        return try connection.query(TenantOperators(tenantID: tenantID))
            .map { TenantLogin(role: try $0.decode("role"), grantedAt: try $0.decode("granted_at")) }
    }
}

extension OperatorSession {
    public var operatorAccess: OperatorAccess { OperatorAccess(self) }
}

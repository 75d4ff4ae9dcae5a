import HeraldCore
import PostgresClient

/// Login roles for a tenant's analysts: they read that tenant's rows of the `reporting`
/// views and nothing else. The database functions do the work (checked names, quoted
/// identifiers, roles Herald did not make left alone); this is their typed front.
public struct ReportingAccess {
    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// Creates the role (or updates its password) so it reads `tenant`'s reports.
    public func grant(role: String, tenant: Slug, password: String?) throws -> LoginGrantOutcome {
        let tenantID = try TenantRepository(connection: connection).find(tenant).id
        let outcome: String = try connection.query(
            "SELECT herald_grant_reporting($1, $2, $3) AS outcome", [role, tenantID, password])[0].decode("outcome")
        return LoginGrantOutcome(rawValue: outcome) ?? .updated
    }

    /// Drops the role's access and the role; false when it had no grant for `tenant`.
    public func revoke(role: String, tenant: Slug) throws -> Bool {
        let tenantID = try TenantRepository(connection: connection).find(tenant).id
        return try connection.query("SELECT herald_revoke_reporting($1, $2) AS done", [role, tenantID])[0].decode("done")
    }

    /// Roles reading `tenant`'s reports, by name.
    public func roles(tenant: Slug) throws -> [String] {
        try connection.query(Query.reportingRoles.sql, [tenant.rawValue]).map { try $0.decode("role") }
    }
}

extension OperatorSession {
    public var reportingAccess: ReportingAccess { ReportingAccess(self) }
}

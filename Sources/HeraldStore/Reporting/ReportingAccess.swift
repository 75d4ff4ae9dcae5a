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

    public enum GrantOutcome: String, Sendable { case created, updated }

    /// Creates the role (or updates its password) so it reads `tenant`'s reports.
    public func grant(role: String, tenant: Slug, password: String?) throws -> GrantOutcome {
        let tenantID = try self.tenantID(tenant)
        let outcome: String = try connection.query(
            "SELECT herald_grant_reporting($1, $2, $3) AS outcome", [role, tenantID, password])[0].decode("outcome")
        return GrantOutcome(rawValue: outcome) ?? .updated
    }

    /// Drops the role's access and the role; false when it had no grant for `tenant`.
    public func revoke(role: String, tenant: Slug) throws -> Bool {
        let tenantID = try self.tenantID(tenant)
        return try connection.query("SELECT herald_revoke_reporting($1, $2) AS done", [role, tenantID])[0].decode("done")
    }

    /// Roles reading `tenant`'s reports, by name.
    public func roles(tenant: Slug) throws -> [String] {
        try connection.query(Query.reportingRoles.sql, [tenant.rawValue]).map { try $0.decode("role") }
    }

    private func tenantID(_ tenant: Slug) throws -> Int64 {
        guard let row = try connection.query("SELECT id FROM tenants WHERE slug = $1", [tenant.rawValue]).first else {
            throw StoreError.notFound(what: "tenant", name: tenant.rawValue, listCommand: "herald tenant list")
        }
        return try row.decode("id")
    }
}

extension OperatorSession {
    public var reportingAccess: ReportingAccess { ReportingAccess(self) }
}

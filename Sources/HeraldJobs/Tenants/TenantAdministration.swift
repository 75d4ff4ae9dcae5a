import HeraldCore
import HeraldStore

/// Tenants and the logins Herald gives their teams: operators (`grant-operator`), who run
/// herald for one tenant, and analysts (`grant-reporting`), who read its reporting views.
public struct TenantAdministration {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// Which access a tenant's login gets.
    public enum Access: String, Sendable {
        case `operator`, reporting
    }

    /// A tenant's logins: its operators and its analysts' roles.
    public struct Logins: Sendable {
        public let operators: [TenantLogin]
        public let analysts: [String]
    }

    public func create(slug: Slug, name: String) throws -> TenantRecord {
        try XMLText.checkRequired(name, field: "--name")
        try database.requireOwner(to: "creating tenants")
        return try database.asOperator { try $0.tenants.create(slug: slug, name: name) }
    }

    /// Every tenant the login reaches (a tenant operator's: its own).
    public func list() throws -> [TenantRecord] {
        try database.asOperator(readOnly: true) { try $0.tenants.list() }
    }

    /// A tenant and its apps.
    public func show(_ slug: Slug) throws -> (tenant: TenantRecord, apps: [AppRecord]) {
        try database.inTenant(slug, readOnly: true) { session in (session.tenant, try session.apps.list()) }
    }

    public func logins(of tenant: Slug) throws -> Logins {
        try database.requireOwner(to: "listing logins")
        return try database.asOperator(readOnly: true) { session in
            Logins(operators: try session.operatorAccess.operators(tenant: tenant), analysts: try session.reportingAccess.roles(tenant: tenant))
        }
    }

    /// Creates the login `role` for `tenant` (or updates its password); the password becomes
    /// a SCRAM verifier here and never reaches the server.
    public func grant(_ access: Access, role: String, tenant: Slug, password: String?) throws -> LoginGrantOutcome {
        try database.requireOwner(to: "granting logins")
        let verifier = try password.map { try database.passwordVerifier($0, role: role) }
        return try database.asOperator { session in
            switch access {
            case .operator: try session.operatorAccess.grant(role: role, tenant: tenant, password: verifier)
            case .reporting: try session.reportingAccess.grant(role: role, tenant: tenant, password: verifier)
            }
        }
    }

    /// Takes the access away and drops the login; false when `role` had no such access.
    public func revoke(_ access: Access, role: String, tenant: Slug) throws -> Bool {
        try database.requireOwner(to: "revoking logins")
        return try database.asOperator { session in
            switch access {
            case .operator: try session.operatorAccess.revoke(role: role, tenant: tenant)
            case .reporting: try session.reportingAccess.revoke(role: role, tenant: tenant)
            }
        }
    }
}

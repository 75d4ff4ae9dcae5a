import HeraldStore

/// Who the connected login is to Herald, which tenants it reaches and what it may do.
public struct Whoami: Sendable, Equatable, Encodable {
    public let login: String
    /// owner, tenant-operator, analyst or none.
    public let kind: String
    public let tenants: String?
    /// The name the audit log records its changes under (none for logins that change nothing).
    public let auditActor: String?
    public let may: [String]

    /// Reads the login of `database` (whose actor is what Herald's own login's changes are recorded as).
    public static func read(_ database: HeraldDatabase) throws -> Whoami {
        let login = try database.login()
        switch login.kind {
        case .owner:
            return Whoami(
                login: login.name, kind: "owner", tenants: "all tenants", auditActor: database.actor,
                may: [
                    "everything, in every tenant: tenants, apps, campaigns, conditions, apply, export, preview, report, audit",
                    "publish the whole site, events ingest and prune, migrate",
                    "give logins: tenant grant-operator, tenant grant-reporting",
                ])
        case .tenantOperator:
            let tenant = login.tenant?.rawValue ?? "?"
            return Whoami(
                login: login.name, kind: "tenant-operator", tenants: tenant, auditActor: login.name,
                may: [
                    "in tenant \(tenant) only: apps, campaigns, conditions, apply, export, validate, preview, report, audit",
                    "publish \(tenant)'s own folder (publish --out DIR writes DIR/\(tenant)/), its history and rollbacks",
                ])
        case .analyst:
            let tenant = login.tenant?.rawValue ?? "?"
            return Whoami(
                login: login.name, kind: "analyst", tenants: tenant, auditActor: nil,
                may: ["read tenant \(tenant)'s rows of the reporting views with SQL (reporting.campaign_summary, ...); no herald commands"])
        case .none:
            return Whoami(login: login.name, kind: "none", tenants: nil, auditActor: nil, may: ["nothing of Herald's"])
        }
    }
}

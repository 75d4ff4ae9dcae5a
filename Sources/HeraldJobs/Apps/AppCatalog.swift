import HeraldCore
import HeraldStore

/// A tenant's apps.
public struct AppCatalog {
    let database: HeraldDatabase
    let tenant: Slug?

    /// The apps of `tenant` (nil: the login's own tenant, for a tenant operator).
    public init(_ database: HeraldDatabase, tenant: Slug?) {
        self.database = database
        self.tenant = tenant
    }

    public func create(_ spec: AppSpec) throws -> AppRecord {
        let problems = spec.problems()
        guard problems.isEmpty else { throw ValidationErrors(problems) }
        return try database.inTenant(try database.tenant(tenant)) { try $0.apps.create(spec) }
    }

    public func list() throws -> [AppRecord] {
        try database.inTenant(try database.tenant(tenant), readOnly: true) { try $0.apps.list() }
    }

    public func find(_ slug: Slug) throws -> AppRecord {
        try database.inTenant(try database.tenant(tenant), readOnly: true) { try $0.apps.find(slug) }
    }

    public func update(_ slug: Slug, _ changes: AppChanges) throws -> AppRecord {
        try database.inTenant(try database.tenant(tenant)) { try $0.apps.update(slug, changes) }
    }

    /// The tenant's apps with their campaigns (all of them, or one app's), as `export` writes them.
    public func spec(app: Slug? = nil) throws -> TenantSpec {
        try database.inTenant(try database.tenant(tenant), readOnly: true) { try $0.spec(app: app) }
    }
}

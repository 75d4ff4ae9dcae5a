import HeraldCore
import HeraldStore

/// Who changed what in a tenant (`herald audit`), as the database's triggers recorded it.
public struct AuditJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// The tenant's changes that `filter` picks, oldest first.
    public func changes(tenant: Slug?, _ filter: AuditFilter) throws -> [AuditEntry] {
        try database.inTenant(try database.tenant(tenant), readOnly: true) { try $0.audit.changes(filter) }
    }
}

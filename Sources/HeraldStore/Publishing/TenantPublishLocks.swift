import HeraldCore
import PostgresClient

/// Per-tenant publish locks: a row per tenant in `tenant_locks`, locked FOR UPDATE in a
/// transaction held open on a connection of its own while a publish writes that tenant's
/// folder. Row locks follow the rows policy: a tenant operator can lock its own tenant's row
/// and no other (an advisory lock key anyone could take), so it can hold up no one but itself.
extension HeraldDatabase {
    /// `StoreError.busy`'s message when a tenant's lock is held elsewhere.
    public static let tenantPublishBusy = "another publish is writing that tenant's folder"

    /// What to do about a tenant whose lock someone else holds.
    public enum BusyTenants: Sendable {
        /// Throw `StoreError.busy` at once.
        case refuse
        /// Leave it out: the body gets the tenants it holds.
        case skip
        /// Wait for it.
        case wait
    }

    /// Holds the publish locks of `tenants` (every tenant this login sees when nil) while
    /// `body` runs, and hands it the tenants held (by slug). Released when the body ends.
    public func withTenantPublishLocks<T>(_ tenants: [Slug]?, busy: BusyTenants, _ body: (Set<Slug>) throws -> T) throws -> T {
        let holder = try connectAgain()
        // Every tenant has its lock rows from birth (0033): locking them never waits on an insert.
        let names = tenants?.map(\.rawValue)
        let locking: Query = switch busy {
        case .refuse: .lockPublishTenantsOrFail
        case .skip: .lockFreePublishTenants
        case .wait: .lockPublishTenants
        }
        var held: Set<Slug>?
        do {
            return try holder.asOperator { session in
                let rows = try session.connection.query(locking, LockPublishTenants(tenants: names))
                let locked = Set(try rows.map { try Slug(try $0.decode("slug", as: String.self)) })
                held = locked
                return try body(locked)
            }
        } catch StoreError.busy where held == nil {
            throw StoreError.busy(Self.tenantPublishBusy)
        }
    }
}

extension PublishScope {
    /// The tenants whose folders this scope writes; nil for the whole site.
    public var tenants: [Slug]? {
        switch self {
        case .site: nil
        case .tenant(let tenant): [tenant]
        case .apps(let apps): Array(Set(apps.map(\.tenant))).sorted { $0.rawValue < $1.rawValue }
        }
    }
}

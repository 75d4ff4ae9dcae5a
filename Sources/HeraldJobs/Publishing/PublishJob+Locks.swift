import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

extension PublishJob {
    /// Holds the publish lock for `body`, or refuses at once unless waiting. The one place
    /// that uses the connection directly.
    func locked<T>(_ body: () throws -> T) throws -> T {
        var acquired = false
        do {
            return try database.withAdvisoryLock(.publish, wait: wait, busyMessage: "another publish is running") {
                acquired = true
                return try body()
            }
        } catch StoreError.busy where !acquired {
            throw PublishJobError.busy
        }
    }

    /// `body` holding the publish locks of `tenants` (all when nil); a dry run writes nothing
    /// and takes none (`held` nil: every tenant).
    func withTenantLocks<T>(
        _ tenants: [Slug]?, dryRun: Bool, busy: HeraldDatabase.BusyTenants, _ body: (Set<Slug>?) throws -> T
    ) throws -> T {
        guard !dryRun else { return try body(nil) }
        do {
            return try database.withTenantPublishLocks(tenants, busy: busy) { try body($0) }
        } catch StoreError.busy(let message) where message == HeraldDatabase.tenantPublishBusy {
            throw PublishJobError.busy
        }
    }
}

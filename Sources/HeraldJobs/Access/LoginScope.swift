import HeraldCore
import HeraldStore

/// What the connected login may act on, applied before the database refuses it anyway: a
/// tenant operator works in its own tenant only, and only Herald's own login does what
/// crosses tenants.
public enum LoginScope {
    /// The tenant a command acts on: a tenant operator's own (when `named` is nil or the same;
    /// any other is refused), else the one named (a usage error when none is).
    public static func tenant(_ named: Slug?, for login: HeraldLogin) throws -> Slug {
        if let tenant = try optionalTenant(named, for: login) { return tenant }
        throw JobError.usage("no tenant given: pass --tenant SLUG or set HERALD_TENANT (`herald tenant list` shows them)")
    }

    /// `tenant`, for work where no tenant means every tenant (the owner's only).
    public static func optionalTenant(_ named: Slug?, for login: HeraldLogin) throws -> Slug? {
        guard let own = login.operatedTenant else { return named }
        if let named, named != own {
            throw JobError.noPermission(
                "\(login.name) operates tenant \(own) only: it cannot act on tenant \(named) (leave --tenant out, or name \(own))")
        }
        return own
    }

    /// Refuses a tenant operator's login the work only Herald's own login does (`work` says what).
    public static func requireOwner(_ login: HeraldLogin, to work: String) throws {
        if let own = login.operatedTenant {
            throw JobError.noPermission("\(login.name) operates tenant \(own) only: \(work) needs Herald's own login (the database owner's)")
        }
    }
}

extension HeraldDatabase {
    /// `LoginScope.tenant` for this connection's login.
    func tenant(_ named: Slug?) throws -> Slug { try LoginScope.tenant(named, for: login()) }

    /// `LoginScope.optionalTenant` for this connection's login.
    func optionalTenant(_ named: Slug?) throws -> Slug? { try LoginScope.optionalTenant(named, for: login()) }

    /// `LoginScope.requireOwner` for this connection's login.
    func requireOwner(to work: String) throws { try LoginScope.requireOwner(login(), to: work) }
}

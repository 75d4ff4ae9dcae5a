import Foundation
import ArgumentParser
import HeraldCore
import HeraldStore

/// `--tenant`, defaulting to HERALD_TENANT.
struct TenantOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Tenant slug.", discussion: "Defaults to $HERALD_TENANT."), completion: Completions.tenants)
    var tenant: String?

    /// The tenant named (flag, else HERALD_TENANT); for a tenant operator's login its own,
    /// named or not (another is refused, 77).
    func slug(in database: HeraldDatabase) throws -> Slug {
        try LoginScope.tenant(ShellDefaults.tenant(tenant), in: database)
    }
}

/// What the connected login may act on, applied by the CLI before the database refuses it
/// anyway: a tenant operator works in its own tenant only, and only Herald's own login does
/// what crosses tenants.
enum LoginScope {
    /// The tenant a command acts on: a tenant operator's own (when `named` is nil or the
    /// same; any other is refused, 77), else the one named (usage error when none is).
    static func tenant(_ named: String?, in database: HeraldDatabase) throws -> Slug {
        if let own = try optionalTenant(named, in: database) { return own }
        throw InputError(
            message: "no tenant given: pass --tenant SLUG or set HERALD_TENANT (`herald tenant list` shows them)",
            code: ExitStatus.usage)
    }

    /// `tenant`, for commands where no tenant means every tenant (the owner's only).
    static func optionalTenant(_ named: String?, in database: HeraldDatabase) throws -> Slug? {
        let login = try database.login()
        // An empty HERALD_TENANT never gets here (ShellDefaults drops it): "" is an empty --tenant.
        if named == "" { throw InputError(message: "--tenant needs a tenant slug, not an empty value", code: ExitStatus.usage) }
        let slug = try named.map { try Slug($0) }
        guard let own = login.operatedTenant else { return slug }
        if let slug, slug != own {
            throw InputError(
                message: "\(login.name) operates tenant \(own) only: it cannot act on tenant \(slug) (leave --tenant out, or name \(own))",
                code: ExitStatus.noPermission)
        }
        return own
    }

    /// Refuses a tenant operator's login the work only Herald's own login does (`work` says what).
    static func requireOwner(_ database: HeraldDatabase, to work: String) throws {
        let login = try database.login()
        if let own = login.operatedTenant {
            throw InputError(
                message: "\(login.name) operates tenant \(own) only: \(work) needs Herald's own login (the database owner's)",
                code: ExitStatus.noPermission)
        }
    }
}

/// The defaults people set once per shell: HERALD_TENANT for `--tenant`, HERALD_APP for `--app`
/// (not for `publish`, whose scope a stray variable must never narrow).
enum ShellDefaults {
    static func tenant(_ flag: String?) -> String? { flag ?? nonEmpty("HERALD_TENANT") }
    static func app(_ flag: String?) -> String? { flag ?? nonEmpty("HERALD_APP") }

    private static func nonEmpty(_ name: String) -> String? {
        guard let value = Environment.values[name], !value.isEmpty else { return nil }
        return value
    }
}

/// `--app`, defaulting to HERALD_APP, for commands that work in one app.
struct RequiredAppOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("App slug.", discussion: "Defaults to $HERALD_APP."), completion: Completions.apps)
    var app: String?

    func slug() throws -> Slug {
        guard let raw = ShellDefaults.app(app), !raw.isEmpty else {
            throw InputError(message: "no app given: pass --app SLUG or set HERALD_APP (`herald app list` shows them)", code: ExitStatus.usage)
        }
        return try Slug(raw)
    }
}

/// A time given as a flag (`--starts`, `--at`, `--since`): one that cannot be read is a usage
/// error (64), like any other unreadable flag value, with Timestamp's words for why.
func flagTime(_ text: String, flag: String) throws -> Date {
    do {
        return try Timestamp.parse(text, field: flag)
    } catch {
        throw InputError(message: error.description, code: ExitStatus.usage)
    }
}

struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false
}

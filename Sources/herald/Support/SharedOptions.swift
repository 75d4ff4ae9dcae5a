import Foundation
import ArgumentParser
import HeraldCore

/// `--tenant`, defaulting to HERALD_TENANT.
struct TenantOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Tenant slug.", discussion: "Defaults to $HERALD_TENANT."), completion: Completions.tenants)
    var tenant: String?

    /// The tenant named (flag, else HERALD_TENANT), if any; the job holds a tenant
    /// operator's login to its own (named or not) and asks for one when Herald's own names none.
    func named() throws -> Slug? {
        try namedTenant(ShellDefaults.tenant(tenant))
    }
}

/// A tenant given as `--tenant` (or HERALD_TENANT): "" is an empty flag, not "none".
func namedTenant(_ raw: String?) throws -> Slug? {
    // An empty HERALD_TENANT never gets here (ShellDefaults drops it): "" is an empty --tenant.
    if raw == "" { throw InputError(message: "--tenant needs a tenant slug, not an empty value", code: ExitStatus.usage) }
    return try raw.map { try Slug($0) }
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

/// A time given as a flag (`--starts`, `--at`, `--since`, `--before`, `--last-checked`, ...):
/// every command reads the same forms (`RelativeTime`); one it cannot read is a usage error
/// (64), like any other unreadable flag value.
func flagTime(_ text: String, flag: String) throws -> Date {
    guard let date = RelativeTime.parse(text) else {
        throw InputError(message: "\(flag) \(Excerpt.quoted(text)) is not a time: \(RelativeTime.forms)", code: ExitStatus.usage)
    }
    return date
}

/// A day given as a flag (`report --since`, `--until`): the day (UTC) of any time `flagTime` reads.
func flagDay(_ text: String, flag: String) throws -> UTCDay {
    guard let day = UTCDay(String(Timestamp.format(try flagTime(text, flag: flag)).prefix(10))) else {
        throw InputError(message: "\(flag) \(Excerpt.quoted(text)) is not a day: \(RelativeTime.forms)", code: ExitStatus.usage)
    }
    return day
}

struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false
}

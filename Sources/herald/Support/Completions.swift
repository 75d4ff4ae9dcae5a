import ArgumentParser
import HeraldCore
import HeraldJobs
import HeraldStore

/// What the shell offers after `--tenant`, `--app`, a campaign key and `--kind`
/// (`herald --generate-completion-script bash|zsh|fish`). Keys are read from the database the
/// command would use, only when it is reachable without starting anything; any failure offers
/// nothing (completion never prints errors into a prompt).
enum Completions {
    static let kinds = CompletionKind.list(CampaignKind.allCases.map(\.rawValue))
    static let tenants = CompletionKind.custom { words, _, prefix in candidates(prefix) { try tenantKeys() } }
    static let apps = CompletionKind.custom { words, _, prefix in
        candidates(prefix) { try appKeys(tenant: value(of: "--tenant", in: words) ?? ShellDefaults.tenant(nil)) }
    }
    static let campaigns = CompletionKind.custom { words, _, prefix in
        candidates(prefix) {
            try campaignKeys(
                tenant: value(of: "--tenant", in: words) ?? ShellDefaults.tenant(nil),
                app: value(of: "--app", in: words) ?? ShellDefaults.app(nil))
        }
    }

    /// Tenant slugs.
    static func tenantKeys() throws -> [String] {
        guard let database = try openIfReachable() else { return [] }
        return try TenantAdministration(database).list().map(\.slug.rawValue)
    }

    /// The app slugs of `tenant`.
    static func appKeys(tenant: String?) throws -> [String] {
        guard let tenant, let database = try openIfReachable() else { return [] }
        return try AppCatalog(database, tenant: try Slug(tenant)).list().map(\.spec.slug.rawValue)
    }

    /// The campaign keys of `tenant`'s `app`, or of all its apps without one.
    static func campaignKeys(tenant: String?, app: String?) throws -> [String] {
        guard let tenant, let database = try openIfReachable() else { return [] }
        let spec = try AppCatalog(database, tenant: try Slug(tenant)).spec(app: try app.map { try Slug($0) })
        return Array(Set(spec.apps.flatMap { $0.campaigns.map(\.key.rawValue) })).sorted()
    }

    /// The value of `--flag VALUE` or `--flag=VALUE` in the words typed so far.
    static func value(of flag: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == flag, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(flag + "=") { return String(word.dropFirst(flag.count + 1)) }
        }
        return nil
    }

    /// The command's database when it answers now: a configured one, or the local one if it
    /// is running (completion never creates or starts it).
    private static func openIfReachable() throws -> HeraldDatabase? {
        if Environment.configuredDatabase == nil {
            let local = try EmbeddedDatabase(environment: Environment.values)
            guard local.isInitialized, local.isRunning else { return nil }
        }
        return try Environment.openDatabase()
    }

    private static func candidates(_ prefix: String, _ keys: () throws -> [String]) -> [String] {
        ((try? keys()) ?? []).filter { $0.hasPrefix(prefix) }
    }
}

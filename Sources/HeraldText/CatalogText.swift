import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore

/// Tenants, apps, logins and app keys for people (tables and `show`), and the JSON of those
/// that have no document in HeraldJobs.
public enum CatalogText {
    public static func tenants(_ tenants: [TenantRecord]) -> TextTable {
        var table = TextTable("SLUG", "NAME", "CREATED")
        for tenant in tenants { table.append(tenant.slug.rawValue, tenant.name, formatTimestamp(tenant.createdAt)) }
        return table
    }

    public static func describe(_ tenant: TenantRecord, apps: [AppRecord]) -> String {
        """
        tenant   \(tenant.slug)
        name     \(Excerpt.escaped(tenant.name))
        created  \(formatTimestamp(tenant.createdAt))
        apps     \(apps.isEmpty ? "-" : apps.map(\.spec.slug.rawValue).joined(separator: ", "))
        """
    }

    public static func logins(_ logins: TenantAdministration.Logins) -> TextTable {
        var table = TextTable("ROLE", "ACCESS", "GRANTED")
        for login in logins.operators { table.append(login.role, "operator", formatTimestamp(login.grantedAt)) }
        for role in logins.analysts { table.append(role, "reporting", "-") }
        return table
    }

    public static func apps(_ apps: [AppRecord]) -> TextTable {
        var table = TextTable("SLUG", "NAME", "PLATFORM", "BUNDLE ID", "DEFAULT", "LOCALES")
        for app in apps {
            let spec = app.spec
            table.append(
                spec.slug.rawValue, spec.name, spec.platform.rawValue, spec.bundleID, spec.defaultLocale.rawValue,
                spec.locales.map(\.rawValue).joined(separator: ","))
        }
        return table
    }

    public static func describe(_ app: AppRecord) -> String {
        let spec = app.spec
        return """
            app             \(spec.slug)
            name            \(Excerpt.escaped(spec.name))
            platform        \(spec.platform.rawValue)
            bundle id       \(spec.bundleID)
            default locale  \(spec.defaultLocale)
            locales         \(spec.locales.map(\.rawValue).joined(separator: ", "))
            base url        \(spec.baseURL?.rawValue ?? "-")
            updated         \(formatTimestamp(app.updatedAt))
            """
    }

    public static func keys(_ keys: [AppKeyRecord]) -> TextTable {
        var table = TextTable("ID", "NAME", "KEY", "CREATED", "BY", "REVOKED")
        for key in keys {
            table.append(
                String(key.id), key.name.isEmpty ? "-" : key.name, key.hint + "…", formatTimestamp(key.createdAt), key.createdBy,
                key.revokedAt.map { "\(formatTimestamp($0)) by \(key.revokedBy ?? "?")" } ?? "-")
        }
        return table
    }
}

/// `tenant operators --json`: one login and what it may do.
public struct LoginJSON: Encodable {
    let role, access: String
    let grantedAt: Date?

    public static func all(_ logins: TenantAdministration.Logins) -> [LoginJSON] {
        logins.operators.map { LoginJSON(role: $0.role, access: "operator", grantedAt: $0.grantedAt) }
            + logins.analysts.map { LoginJSON(role: $0, access: "reporting", grantedAt: nil) }
    }
}

/// `app key create --json`: the key, shown once.
public struct CreatedKeyJSON: Encodable {
    let id: Int64
    let key: String

    public init(id: Int64, key: String) {
        self.id = id
        self.key = key
    }
}

/// `app key list|revoke --json`: a key without its secret.
public struct KeyJSON: Encodable {
    let id: Int64
    let app: String
    let name: String
    let keyHint: String
    let createdAt: Date
    let createdBy: String
    let revokedAt: Date?
    let revokedBy: String?

    public init(_ key: AppKeyRecord) {
        id = key.id
        app = key.app.rawValue
        name = key.name
        keyHint = key.hint
        createdAt = key.createdAt
        createdBy = key.createdBy
        revokedAt = key.revokedAt
        revokedBy = key.revokedBy
    }
}

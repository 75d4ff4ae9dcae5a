import HeraldCore
import HeraldStore

/// `herald app key create|list|revoke`: an app's keys, in its tenant's own transaction (a
/// tenant operator's login reaches its own tenant's keys only; PostgreSQL holds it there).
public enum AppKeyJobs {
    /// The longest label a key may have.
    public static let maxNameLength = 200

    /// The tenant whose keys a command works on: the one named, or a tenant operator's own.
    public static func tenant(_ named: Slug?, in database: HeraldDatabase) throws -> Slug {
        try database.tenant(named)
    }

    /// Makes a new key for `app`: the key itself (shown once, never stored) and its record.
    public static func create(
        _ database: HeraldDatabase, tenant: Slug, app: Slug, name: String
    ) throws -> (key: AppKeySecret, record: AppKeyRecord) {
        guard name.unicodeScalars.count <= maxNameLength, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw StoreError.invalid(["--name must be at most \(maxNameLength) characters without control characters"])
        }
        let secret = AppKeySecret.generate()
        let record = try database.inTenant(tenant) { try $0.appKeys.create(app: app, name: name, secret: secret) }
        return (secret, record)
    }

    public static func list(_ database: HeraldDatabase, tenant: Slug, app: Slug) throws -> [AppKeyRecord] {
        try database.inTenant(tenant, readOnly: true) { try $0.appKeys.list(app: app) }
    }

    /// Revokes key `id` of `app`: every running collector refuses it within a second.
    public static func revoke(_ database: HeraldDatabase, tenant: Slug, app: Slug, id: Int64) throws -> (key: AppKeyRecord, revokedNow: Bool) {
        try database.inTenant(tenant) { try $0.appKeys.revoke(app: app, id: id) }
    }
}

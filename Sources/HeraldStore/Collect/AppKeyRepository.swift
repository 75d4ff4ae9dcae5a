import Foundation
import HeraldCore
import PostgresClient

/// An app key as stored: never the key itself, only its first characters.
public struct AppKeyRecord: Sendable, Equatable {
    public let id: Int64
    public let app: Slug
    public let name: String
    /// The key's first characters (`hrk_AbCdEf`).
    public let hint: String
    public let createdAt: Date
    public let createdBy: String
    public let revokedAt: Date?
    public let revokedBy: String?
}

/// The app keys of the session's tenant (row-level security confines every statement to it:
/// a tenant operator's login reaches its own tenant's keys and no other).
public struct AppKeyRepository {
    let connection: Connection
    let tenant: TenantRecord

    private static let columns = UnsafeSQL(
        """
        k.id, a.slug::text AS app, k.name, k.key_hint, k.created_at, k.created_by, k.revoked_at, k.revoked_by
        """)

    /// Stores `secret`'s hash as a new key of `app`.
    public func create(app: Slug, name: String, secret: AppKeySecret) throws -> AppKeyRecord {
        let appID = try AppRepository(connection: connection, tenant: tenant).find(app).id
        let rows = try connection.query(
            """
            WITH made AS (
                INSERT INTO app_keys (tenant_id, app_id, name, key_hash, key_hint)
                VALUES ($1, $2, $3, decode($4, 'hex'), $5)
                RETURNING *
            )
            SELECT \(Self.columns) FROM made k JOIN apps a ON a.id = k.app_id
            """,
            [tenant.id, appID, name, secret.digest, secret.hint])
        return try Self.decode(rows)[0]
    }

    /// The keys of `app`, revoked ones too, oldest first.
    public func list(app: Slug) throws -> [AppKeyRecord] {
        let appID = try AppRepository(connection: connection, tenant: tenant).find(app).id
        return try Self.decode(
            connection.query(
                "SELECT \(Self.columns) FROM app_keys k JOIN apps a ON a.id = k.app_id WHERE k.app_id = $1 ORDER BY k.id",
                [appID]))
    }

    /// Revokes key `id` of `app`; false when it was revoked already. Collectors refuse it
    /// from their next look at the keys (twice a second).
    public func revoke(app: Slug, id: Int64) throws -> (key: AppKeyRecord, revokedNow: Bool) {
        let appID = try AppRepository(connection: connection, tenant: tenant).find(app).id
        let changed = try connection.execute(
            "UPDATE app_keys SET revoked_at = now(), revoked_by = '' WHERE id = $1 AND app_id = $2 AND revoked_at IS NULL",
            [id, appID])
        let rows = try connection.query(
            "SELECT \(Self.columns) FROM app_keys k JOIN apps a ON a.id = k.app_id WHERE k.id = $1 AND k.app_id = $2", [id, appID])
        guard let key = try Self.decode(rows).first else {
            throw StoreError.notFound(
                what: "app key", name: "\(id) of \(tenant.slug)/\(app)", listCommand: "herald app key list \(app) --tenant \(tenant.slug)")
        }
        return (key, changed > 0)
    }

    static func decode(_ rows: QueryResult) throws -> [AppKeyRecord] {
        try rows.map { row in
            AppKeyRecord(
                id: try row.decode("id"), app: try Slug(try row.decode("app", as: String.self)), name: try row.decode("name"),
                hint: try row.decode("key_hint"), createdAt: try row.decode("created_at"), createdBy: try row.decode("created_by"),
                revokedAt: try row.decode("revoked_at"), revokedBy: try row.decode("revoked_by"))
        }
    }
}

extension TenantSession {
    public var appKeys: AppKeyRepository { AppKeyRepository(connection: connection, tenant: tenant) }
}

/// Which tenant and app a key stands for, as a collector knows it.
public struct AppKeyScope: Sendable, Equatable, Hashable {
    /// The key's row id (for rate limits and logs: never the key).
    public let keyID: Int64
    public let tenant: Slug
    public let app: Slug
}

/// Every key in force (not revoked), by the hex SHA-256 of its text: what a collector reads,
/// as Herald's operator, whole and often (keys are few: about one per app).
public enum AppKeyDirectory {
    public static func load(_ session: OperatorSession) throws -> [String: AppKeyScope] {
        var keys: [String: AppKeyScope] = [:]
        let rows = try session.connection.query(
            """
            SELECT encode(k.key_hash, 'hex') AS digest, k.id, t.slug::text AS tenant, a.slug::text AS app
            FROM app_keys k JOIN apps a ON a.id = k.app_id JOIN tenants t ON t.id = k.tenant_id
            WHERE k.revoked_at IS NULL
            """)
        for row in rows {
            keys[try row.decode("digest")] = AppKeyScope(
                keyID: try row.decode("id"), tenant: try Slug(try row.decode("tenant", as: String.self)),
                app: try Slug(try row.decode("app", as: String.self)))
        }
        return keys
    }
}

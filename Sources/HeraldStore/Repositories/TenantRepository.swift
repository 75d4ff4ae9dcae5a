import Foundation
import HeraldCore
import PostgresClient

public struct TenantRecord: Sendable, Equatable {
    public let id: Int64
    public let slug: Slug
    public let name: String
    public let createdAt: Date
}

/// Tenants. Listing and creating them is operator work; inside a tenant session the
/// tenant sees only its own row.
public struct TenantRepository {
    let connection: Connection

    public func create(slug: Slug, name: String) throws -> TenantRecord {
        let rows = try connection.query(
            "INSERT INTO tenants (slug, name) VALUES ($1, $2) RETURNING id, slug, name, created_at",
            [slug.rawValue, name])
        let tenant = try Self.decode(rows)[0]
        // Its publish and apply locks (0016, 0018), so that taking one never inserts it first.
        try connection.execute(
            "INSERT INTO tenant_locks (tenant_id, purpose) VALUES ($1, 'publish'), ($1, 'apply') ON CONFLICT DO NOTHING", [tenant.id])
        return tenant
    }

    public func list() throws -> [TenantRecord] {
        try Self.decode(connection.query("SELECT id, slug, name, created_at FROM tenants ORDER BY slug"))
    }

    public func find(_ slug: Slug) throws -> TenantRecord {
        let rows = try connection.query(
            "SELECT id, slug, name, created_at FROM tenants WHERE slug = $1", [slug.rawValue])
        guard let tenant = try Self.decode(rows).first else {
            throw StoreError.notFound(what: "tenant", name: slug.rawValue, listCommand: "herald tenant list")
        }
        return tenant
    }

    public func rename(_ slug: Slug, to name: String) throws {
        try connection.execute("UPDATE tenants SET name = $2 WHERE slug = $1", [slug.rawValue, name])
    }

    static func decode(_ rows: QueryResult) throws -> [TenantRecord] {
        try rows.map { row in
            TenantRecord(
                id: try row.decode("id"),
                slug: try Slug(try row.decode("slug", as: String.self)),
                name: try row.decode("name"),
                createdAt: try row.decode("created_at"))
        }
    }
}

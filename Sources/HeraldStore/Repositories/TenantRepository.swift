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
        // Its publish and apply lock rows come with it (0033's trigger).
        try Self.decode(connection.query(InsertTenant(slug: slug.rawValue, name: name)))[0]
    }

    public func list() throws -> [TenantRecord] {
        try Self.decode(connection.query(.listTenants))
    }

    public func find(_ slug: Slug) throws -> TenantRecord {
        guard let tenant = try Self.decode(connection.query(FindTenant(slug: slug.rawValue))).first else {
            throw StoreError.notFound(what: "tenant", name: slug.rawValue, listCommand: "herald tenant list")
        }
        return tenant
    }

    public func rename(_ slug: Slug, to name: String) throws {
        try connection.execute(RenameTenant(slug: slug.rawValue, name: name))
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

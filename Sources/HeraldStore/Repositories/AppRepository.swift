import Foundation
import HeraldCore
import PostgresClient

/// An app as stored: its spec (without campaigns) and its row identity.
public struct AppRecord: Sendable, Equatable {
    public let id: Int64
    public var spec: AppSpec
    public let createdAt: Date
    public let updatedAt: Date
}

/// What `herald app update` may change. Slug and tenant never change.
public struct AppChanges: Sendable, Equatable {
    public var name: String?
    public var platform: Platform?
    public var bundleID: String?
    public var defaultLocale: LocaleTag?
    public var addLocales: [LocaleTag] = []
    public var removeLocales: [LocaleTag] = []
    /// `.some(nil)` clears the base URL.
    public var baseURL: HTTPURL??

    public init() {}

    public var isEmpty: Bool {
        name == nil && platform == nil && bundleID == nil && defaultLocale == nil
            && addLocales.isEmpty && removeLocales.isEmpty && baseURL == nil
    }
}

/// Apps of the session's tenant (row-level security confines every statement to it).
public struct AppRepository {
    let connection: Connection
    let tenant: TenantRecord

    public func create(_ spec: AppSpec) throws -> AppRecord {
        try Self.decode(connection.query(.insertApp, AppRow(spec)))[0]
    }

    public func list() throws -> [AppRecord] {
        try Self.decode(connection.query(.listApps))
    }

    public func find(_ slug: Slug) throws -> AppRecord {
        guard let app = try Self.decode(connection.query(FindApp(slug: slug.rawValue))).first else {
            throw StoreError.notFound(
                what: "app", name: "\(tenant.slug)/\(slug)",
                listCommand: "herald app list --tenant \(tenant.slug)")
        }
        return app
    }

    /// Applies `changes` after checking the result as a whole (default locale supported,
    /// campaigns' content still in supported locales is the caller's concern).
    @discardableResult
    public func update(_ slug: Slug, _ changes: AppChanges) throws -> AppRecord {
        var app = try find(slug)
        let spec = try Self.updated(app.spec, with: changes)
        try connection.execute(.updateApp, AppRow(spec))
        app.spec = spec
        return app
    }

    /// `spec` with `changes` made, checked as a whole (`update` writes it; `apply` too, for many apps at once).
    static func updated(_ spec: AppSpec, with changes: AppChanges) throws -> AppSpec {
        var spec = spec
        if let name = changes.name { spec.name = name }
        if let platform = changes.platform { spec.platform = platform }
        if let bundleID = changes.bundleID { spec.bundleID = bundleID }
        if let defaultLocale = changes.defaultLocale { spec.defaultLocale = defaultLocale }
        if let baseURL = changes.baseURL { spec.baseURL = baseURL }
        var locales = Set(spec.locales).union(changes.addLocales)
        for locale in changes.removeLocales {
            guard locales.contains(locale) else {
                throw StoreError.invalid(["app \(spec.slug) has no locale \(locale) to remove"])
            }
            locales.remove(locale)
        }
        spec.locales = locales.sorted()
        let problems = spec.problems()
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
        return spec
    }

    static func decode(_ rows: QueryResult) throws -> [AppRecord] {
        try rows.map { row in
            let locales = try row.decode("locales", as: [String].self).map { try LocaleTag($0) }
            let baseURL = try row.decode("base_url", as: String?.self).map { try HTTPURL($0) }
            let spec = AppSpec(
                slug: try Slug(try row.decode("slug", as: String.self)),
                name: try row.decode("name"),
                platform: try decodeEnum(row, "platform"),
                bundleID: try row.decode("bundle_id"),
                defaultLocale: try LocaleTag(try row.decode("default_locale", as: String.self)),
                locales: locales,
                baseURL: baseURL,
                campaigns: [])
            return AppRecord(
                id: try row.decode("id"), spec: spec,
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
        }
    }
}

/// Decodes a text column into a String-backed enum, naming the column when it cannot.
func decodeEnum<E: RawRepresentable>(_ row: Row, _ column: String, as type: E.Type = E.self) throws -> E
where E.RawValue == String {
    let text = try row.decode(column, as: String.self)
    guard let value = E(rawValue: text) else {
        throw StoreError.database("column \(column) holds \"\(text)\", which this herald does not know")
    }
    return value
}

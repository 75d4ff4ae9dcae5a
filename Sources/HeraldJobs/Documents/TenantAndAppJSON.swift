import Foundation
import HeraldStore

/// A tenant in `--json`.
public struct TenantJSON: Encodable, Sendable {
    public let slug: String
    public let name: String
    public let createdAt: Date
    public var apps: [String]?

    public init(_ tenant: TenantRecord) {
        slug = tenant.slug.rawValue
        name = tenant.name
        createdAt = tenant.createdAt
    }
}

/// An app in `--json`.
public struct AppJSON: Encodable, Sendable {
    public let slug: String
    public let name: String
    public let platform: String
    public let bundleId: String
    public let defaultLocale: String
    public let locales: [String]
    public let baseUrl: String?

    public init(_ app: AppRecord) {
        let spec = app.spec
        slug = spec.slug.rawValue
        name = spec.name
        platform = spec.platform.rawValue
        bundleId = spec.bundleID
        defaultLocale = spec.defaultLocale.rawValue
        locales = spec.locales.map(\.rawValue)
        baseUrl = spec.baseURL?.rawValue
    }
}

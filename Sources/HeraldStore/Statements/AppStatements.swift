import HeraldCore

// queries/apps.sql (`list-apps` takes no parameters).

struct InsertApp: Statement {
    static let query = Query.insertApp
    let slug: String
    let name: String
    let platform: String
    let bundleID: String
    let defaultLocale: String
    let locales: [String]
    let baseURL: String?

    init(_ spec: AppSpec) {
        slug = spec.slug.rawValue
        name = spec.name
        platform = spec.platform.rawValue
        bundleID = spec.bundleID
        defaultLocale = spec.defaultLocale.rawValue
        locales = spec.locales.map(\.rawValue)
        baseURL = spec.baseURL?.rawValue
    }
}

struct FindApp: Statement {
    static let query = Query.findApp
    let slug: String
}

/// Every field of app `id` but its slug, which never changes.
struct UpdateApp: Statement {
    static let query = Query.updateApp
    let id: Int64
    let name: String
    let platform: String
    let bundleID: String
    let defaultLocale: String
    let locales: [String]
    let baseURL: String?

    init(id: Int64, _ spec: AppSpec) {
        self.id = id
        name = spec.name
        platform = spec.platform.rawValue
        bundleID = spec.bundleID
        defaultLocale = spec.defaultLocale.rawValue
        locales = spec.locales.map(\.rawValue)
        baseURL = spec.baseURL?.rawValue
    }
}

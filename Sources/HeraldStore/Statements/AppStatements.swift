import HeraldCore

// queries/apps.sql (`list-apps` takes no parameters).

/// An app's row as `insert-app` writes it and `update-app` writes it again (finding it by
/// its slug, which never changes).
struct AppRow: QueryParameters {
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

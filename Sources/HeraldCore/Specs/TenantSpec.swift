/// A tenant and its apps: one customer, whose rows and files are kept apart from every other's.
public struct TenantSpec: Equatable, Sendable {
    public var slug: Slug
    public var name: String
    public var apps: [AppSpec]

    public init(slug: Slug, name: String, apps: [AppSpec] = []) {
        self.slug = slug
        self.name = name
        self.apps = apps
    }
}

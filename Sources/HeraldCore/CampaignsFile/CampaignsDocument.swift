/// A campaigns file: tenants, their apps and every campaign, as code kept in git.
/// `parse` reads YAML or JSON and reports every problem with its path; `yaml()` writes the
/// canonical form, so export → apply → export is byte-identical.
public struct CampaignsDocument: Equatable, Sendable {
    public static let currentVersion = 1
    public static let supportedVersions = [1]

    public var version: Int
    public var tenants: [TenantSpec]

    public init(version: Int = CampaignsDocument.currentVersion, tenants: [TenantSpec]) {
        self.version = version
        self.tenants = tenants
    }
}

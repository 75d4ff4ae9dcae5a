import Foundation
import HeraldCore

extension TenantSession {
    /// The tenant as a campaigns-file tree: its apps (all, or one) with every campaign,
    /// archived ones included, in a fixed number of queries. Export and apply both use it.
    public func spec(app onlyApp: Slug? = nil) throws -> TenantSpec {
        var apps = try onlyApp.map { [try self.apps.find($0)] } ?? self.apps.list()
        let campaigns = try self.campaigns.load(appIDs: apps.map(\.id))
        let byApp = Dictionary(grouping: campaigns, by: \.appID)
        for index in apps.indices {
            apps[index].spec.campaigns = (byApp[apps[index].id] ?? []).map(\.spec).sorted { $0.key < $1.key }
        }
        return TenantSpec(slug: tenant.slug, name: tenant.name, apps: apps.map(\.spec))
    }
}

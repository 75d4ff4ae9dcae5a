import Foundation
import HeraldCore
import PostgresClient

/// Everything a publish needs, read in one REPEATABLE READ transaction with a fixed number
/// of queries (tenants, apps, and the campaign loader's six, two of them on a second
/// connection in the same snapshot when given one) whatever the site's size.
public struct SnapshotReader {
    let session: OperatorSession

    public init(_ session: OperatorSession) {
        self.session = session
    }

    /// Tenants with their apps and active campaigns, optionally only one tenant or app, or
    /// only the apps with the given ids (an incremental publish). `alongside`: how to open a
    /// second connection (the same login's), which reads part of the campaigns in this
    /// transaction's snapshot at the same time (it must be REPEATABLE READ).
    public func read(
        tenant onlyTenant: Slug? = nil, app onlyApp: Slug? = nil, appIDs: Set<Int64>? = nil, alongside: HeraldDatabase.Connector? = nil
    ) throws -> [TenantSpec] {
        let connection = session.connection
        let tenants = try TenantRepository.decode(connection.query(SnapshotTenants(tenant: onlyTenant?.rawValue)))
        if let onlyTenant, tenants.isEmpty {
            throw StoreError.notFound(what: "tenant", name: onlyTenant.rawValue, listCommand: "herald tenant list")
        }
        let appRows = try connection.query(SnapshotApps(tenantIDs: tenants.map(\.id), app: onlyApp?.rawValue, appIDs: appIDs?.sorted()))
        var apps = try AppRepository.decode(appRows)
        for (index, row) in zip(apps.indices, appRows) {
            apps[index].spec.publishesLocalNotifications = try row.decode("has_local_campaigns")
        }
        let tenantOfApp = Dictionary(uniqueKeysWithValues: try zip(apps, appRows).map { app, row in
            (app.id, try row.decode("tenant_id", as: Int64.self))
        })
        if let onlyApp, apps.isEmpty {
            throw StoreError.notFound(
                what: "app", name: "\(onlyTenant?.rawValue ?? "*")/\(onlyApp)", listCommand: "herald app list")
        }
        let second = try alongside.map { (connector: $0, snapshot: try connection.exportSnapshot()) }
        var campaigns = try CampaignLoader(connection: connection).load(apps: apps.map(\.id), activeOnly: true, alongside: second)
        // Each campaign moved into its app's list, taken from the end so that none is copied;
        // every list is then turned back into load order.
        var campaignsByApp: [Int64: [CampaignSpec]] = [:]
        while let campaign = campaigns.popLast() {
            let app = campaign.appID
            campaignsByApp[app, default: []].append((consume campaign).spec)
        }
        // Apps grouped by tenant in one pass, in the order read.
        var appsByTenant: [Int64: [AppSpec]] = [:]
        for app in apps {
            var spec = app.spec
            if var found = campaignsByApp.removeValue(forKey: app.id) {
                found.reverse()
                spec.campaigns = found
            }
            guard let tenant = tenantOfApp[app.id] else { continue }
            appsByTenant[tenant, default: []].append(spec)
        }
        return tenants.filter { tenant in appIDs == nil || appsByTenant[tenant.id] != nil }.map { tenant in
            TenantSpec(slug: tenant.slug, name: tenant.name, apps: appsByTenant[tenant.id] ?? [])
        }
    }
}

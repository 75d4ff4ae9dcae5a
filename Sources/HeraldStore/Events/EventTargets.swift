import HeraldCore
import PostgresClient

/// tenant/app/campaign slugs → ids, for every campaign (operators see all), loaded once per
/// ingest: resolving in memory keeps a million lookups out of the database.
struct EventTargets {
    struct IDs {
        let tenant: Int64
        let app: Int64
        let campaign: Int64
    }

    private struct Key: Hashable {
        let tenant: String
        let app: String
        let campaign: String
    }

    private var campaigns: [Key: IDs] = [:]
    private var tenants: Set<String> = []
    private var apps: Set<String> = []  // "tenant/app"
    private var campaignTenants: [String: Set<String>] = [:]  // "app/campaign" → tenants having it

    static func load(_ connection: Connection) throws -> EventTargets {
        var targets = EventTargets()
        for row in try connection.query("SELECT slug::text AS slug FROM tenants") {
            targets.tenants.insert(try row.decode("slug"))
        }
        for row in try connection.query("SELECT t.slug::text AS tenant, a.slug::text AS app FROM apps a JOIN tenants t ON t.id = a.tenant_id") {
            targets.apps.insert("\(try row.decode("tenant", as: String.self))/\(try row.decode("app", as: String.self))")
        }
        for row in try connection.query(Query.eventTargets.sql) {
            let tenant: String = try row.decode("tenant")
            let app: String = try row.decode("app")
            let campaign: String = try row.decode("campaign")
            targets.campaigns[Key(tenant: tenant, app: app, campaign: campaign)] = IDs(tenant: try row.decode("tenant_id"), app: try row.decode("app_id"), campaign: try row.decode("id"))
            targets.campaignTenants["\(app)/\(campaign)", default: []].insert(tenant)
        }
        return targets
    }

    /// The ids of the event's campaign, or why it has none. `namingOtherTenants: false` never
    /// says that another tenant has the campaign (for devices, which must learn nothing of
    /// other tenants).
    func resolve(_ event: DeliveryEvent, namingOtherTenants: Bool = true) -> Result<IDs, EventProblem> {
        let tenant = event.tenant.rawValue
        let app = event.app.rawValue
        let campaign = event.campaign.rawValue
        if let ids = campaigns[Key(tenant: tenant, app: app, campaign: campaign)] { return .success(ids) }
        guard tenants.contains(tenant) else { return .failure(EventProblem("unknown tenant \"\(tenant)\"")) }
        if namingOtherTenants, let others = campaignTenants["\(app)/\(campaign)"], !others.contains(tenant) {
            return .failure(EventProblem("campaign \"\(app)/\(campaign)\" belongs to another tenant, not \"\(tenant)\""))
        }
        guard apps.contains("\(tenant)/\(app)") else { return .failure(EventProblem("unknown app \"\(app)\" in tenant \"\(tenant)\"")) }
        return .failure(EventProblem("unknown campaign \"\(campaign)\" in \(tenant)/\(app)"))
    }
}

import Foundation
import HeraldCore

/// One change `apply` made (or, in a dry run, would make).
public struct ApplyStep: Sendable, Equatable, CustomStringConvertible {
    public enum Action: String, Sendable { case create, update, archive }
    public let action: Action
    /// "tenant", "app" or "campaign".
    public let entity: String
    /// tenant, tenant/app or tenant/app/key.
    public let path: String
    /// Changed fields for updates, the kind for created campaigns.
    public let details: [String]
    /// For an updated app or campaign: it as the campaigns file writes it, before and after
    /// (so that a dry run can show every changed value).
    public let before: String?
    public let after: String?

    public init(action: Action, entity: String, path: String, details: [String], before: String? = nil, after: String? = nil) {
        self.action = action
        self.entity = entity
        self.path = path
        self.details = details
        self.before = before
        self.after = after
    }

    /// The same step: what it does to what (the before/after texts only show it).
    public static func == (lhs: ApplyStep, rhs: ApplyStep) -> Bool {
        lhs.action == rhs.action && lhs.entity == rhs.entity && lhs.path == rhs.path && lhs.details == rhs.details
    }

    public var description: String {
        switch action {
        case .create: "+ \(entity) \(path)\(details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")"
        case .update: "~ \(entity) \(path): \(details.joined(separator: ", "))"
        case .archive: "- archive \(entity) \(path)"
        }
    }
}

/// Brings the database to a campaigns file, declaratively: creates what is missing, updates
/// what differs, archives the campaigns of a listed app that the file no longer lists.
/// Everything happens in the caller's one transaction, so the steps it returns are exactly
/// what the database accepted; a dry run is the same work rolled back.
///
/// Set-based: each tenant's current state is read in a fixed number of queries, the plan is
/// made in memory (ApplyPlanner, with the repositories' own rules), and only the differences
/// are written, a few statements per table (ApplyWriter), whatever the number of campaigns.
public struct CampaignsApplier {
    public let now: Date

    public init(now: Date = Date()) {
        self.now = now
    }

    public func apply(_ document: CampaignsDocument, in unit: UnitOfWork) throws -> [ApplyStep] {
        var steps: [ApplyStep] = []
        for desiredTenant in document.tenants {
            let tenants = try unit.asOperator().tenants
            let slug = desiredTenant.slug
            let tenant: TenantRecord
            if let existing = try tenants.list().first(where: { $0.slug == slug }) {
                if existing.name != desiredTenant.name {
                    try tenants.rename(slug, to: desiredTenant.name)
                    steps.append(ApplyStep(action: .update, entity: "tenant", path: slug.rawValue, details: ["name"]))
                }
                tenant = try tenants.find(slug)
            } else {
                tenant = try tenants.create(slug: slug, name: desiredTenant.name)
                steps.append(ApplyStep(action: .create, entity: "tenant", path: slug.rawValue, details: []))
            }
            steps += try apply(desiredTenant, in: unit.inTenant(tenant))
        }
        return steps
    }

    private func apply(_ desired: TenantSpec, in session: TenantSession) throws -> [ApplyStep] {
        let current = try Self.read(desired, in: session)
        let connection = session.connection
        let storedApps = current.apps.values.map(\.id)
        var planner = ApplyPlanner(now: now) {
            var keys: [Int64: Set<String>] = [:]
            for row in try connection.query(ApplyMessageKeys(appIDs: storedApps)) {
                keys[try row.decode("app_id"), default: []].insert(try row.decode("message_key"))
            }
            return keys
        }
        let plan = try planner.plan(desired, current: current)
        if !plan.writesNothing { try ApplyWriter(connection: connection).write(plan) }
        return plan.steps
    }

    /// The tenant's apps, and every campaign of those the file lists (as `export` reads them).
    private static func read(_ desired: TenantSpec, in session: TenantSession) throws -> TenantState {
        let listed = Set(desired.apps.map(\.slug))
        let apps = try session.apps.list().filter { listed.contains($0.spec.slug) }
        var campaigns: [Int64: [Slug: CampaignRecord]] = [:]
        for campaign in try session.campaigns.load(appIDs: apps.map(\.id)) {
            campaigns[campaign.appID, default: [:]][campaign.spec.key] = campaign
        }
        return TenantState(apps: Dictionary(apps.map { ($0.spec.slug, $0) }) { first, _ in first }, campaigns: campaigns)
    }

    static func changes(from current: AppSpec, to desired: AppSpec) -> AppChanges {
        var changes = AppChanges()
        if current.name != desired.name { changes.name = desired.name }
        if current.platform != desired.platform { changes.platform = desired.platform }
        if current.bundleID != desired.bundleID { changes.bundleID = desired.bundleID }
        if current.defaultLocale != desired.defaultLocale { changes.defaultLocale = desired.defaultLocale }
        changes.addLocales = desired.locales.filter { !current.locales.contains($0) }
        changes.removeLocales = current.locales.filter { !desired.locales.contains($0) }
        if current.baseURL != desired.baseURL { changes.baseURL = .some(desired.baseURL) }
        return changes
    }

    static func changedFields(_ current: AppSpec, _ desired: AppSpec) -> [String] {
        var fields: [String] = []
        if current.name != desired.name { fields.append("name") }
        if current.platform != desired.platform { fields.append("platform") }
        if current.bundleID != desired.bundleID { fields.append("bundleId") }
        if current.defaultLocale != desired.defaultLocale { fields.append("defaultLocale") }
        if current.locales != desired.locales { fields.append("locales") }
        if current.baseURL != desired.baseURL { fields.append("baseUrl") }
        return fields
    }
}

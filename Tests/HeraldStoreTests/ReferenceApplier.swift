import Foundation
import HeraldCore

@testable import HeraldStore

/// The apply Herald had before it became set-based (issue #16), kept as the specification the
/// set-based one is tested against: campaign by campaign, a few round trips each, its
/// campaign rows written by `ReferenceCampaignWriter` (the repositories' old row-by-row SQL).
struct ReferenceApplier {
    let now: Date

    func apply(_ document: CampaignsDocument, in unit: UnitOfWork) throws -> [ApplyStep] {
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
        var steps: [ApplyStep] = []
        let existingApps = Dictionary(uniqueKeysWithValues: try session.apps.list().map { ($0.spec.slug, $0) })
        for desiredApp in desired.apps {
            let path = "\(desired.slug)/\(desiredApp.slug)"
            let app: AppRecord
            if let existing = existingApps[desiredApp.slug] {
                let changes = Self.changes(from: existing.spec, to: desiredApp)
                if changes.isEmpty {
                    app = existing
                } else {
                    app = try session.apps.update(desiredApp.slug, changes)
                    steps.append(ApplyStep(action: .update, entity: "app", path: path, details: Self.changedFields(existing.spec, desiredApp)))
                }
            } else {
                app = try session.apps.create(desiredApp)
                steps.append(ApplyStep(action: .create, entity: "app", path: path, details: []))
            }
            steps += try apply(desiredApp.campaigns, to: app, path: path, in: session)
        }
        return steps
    }

    private func apply(_ desired: [CampaignSpec], to app: AppRecord, path: String, in session: TenantSession) throws
        -> [ApplyStep]
    {
        var steps: [ApplyStep] = []
        let current = Dictionary(uniqueKeysWithValues: try session.campaigns.load(appIDs: [app.id]).map { ($0.spec.key, $0) })
        let writer = ReferenceCampaignWriter(session: session, now: now)
        for campaign in desired {
            let campaignPath = "\(path)/\(campaign.key)"
            if current[campaign.key] != nil {
                let changed = try writer.save(campaign, in: app)
                if !changed.isEmpty {
                    steps.append(ApplyStep(action: .update, entity: "campaign", path: campaignPath, details: changed))
                }
            } else {
                try writer.create(campaign, in: app)
                steps.append(
                    ApplyStep(action: .create, entity: "campaign", path: campaignPath, details: [campaign.kind.rawValue]))
            }
        }
        let listed = Set(desired.map(\.key))
        for (key, record) in current.sorted(by: { $0.key < $1.key })
        where !listed.contains(key) && record.spec.status != .archived {
            try writer.archive(record, in: app)
            steps.append(ApplyStep(action: .archive, entity: "campaign", path: "\(path)/\(key)", details: []))
        }
        return steps
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

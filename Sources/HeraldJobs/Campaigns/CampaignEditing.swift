import Foundation
import HeraldCore
import HeraldStore

/// One app's campaigns, changed one at a time (`campaign create`, `update`, `condition`,
/// `activate`, `pause`, `archive`): each change is one transaction that loads the campaign
/// once, lets the caller change its spec, and writes it through apply's planner and writer,
/// so a campaign changed by hand and one changed by a file meet the same rules, write the
/// same rows and name their changes with the same words.
public struct CampaignEditing {
    let database: HeraldDatabase
    let tenant: Slug?
    let app: Slug
    let now: () -> Date

    /// The campaigns of `app` in `tenant` (nil: a tenant operator's own tenant).
    public init(_ database: HeraldDatabase, tenant: Slug?, app: Slug, now: @escaping () -> Date = Date.init) {
        self.database = database
        self.tenant = tenant
        self.app = app
        self.now = now
    }

    /// A campaign as a change left it: the campaign before and after, every field that
    /// changed (old → new), and its app.
    public struct Edit: Sendable {
        public let app: AppSpec
        public let before: CampaignSpec
        public let after: CampaignSpec
        public let changes: [FieldChange]
    }

    /// Creates the campaign `make` builds from the app (whose default locale content flags
    /// fill when they name none). Returns it as stored (an alert's message key given out).
    public func create(_ make: (AppSpec) throws -> CampaignSpec) throws -> (app: AppSpec, campaign: CampaignSpec) {
        try inApp { session, app in
            let spec = try make(app.spec)
            return (app.spec, try session.campaigns.write(spec, over: nil, in: app, now: now()).stored)
        }
    }

    /// The campaign `key`, read-only.
    public func find(_ key: Slug) throws -> (app: AppSpec, campaign: CampaignRecord) {
        try inApp(readOnly: true) { session, app in (app.spec, try session.campaigns.find(key, in: app)) }
    }

    /// Loads campaign `key`, lets `change` change its spec (told the app), and writes what
    /// differs. A change that changes nothing writes nothing.
    public func edit(_ key: Slug, _ change: (inout CampaignSpec, AppSpec) throws -> Void) throws -> Edit {
        try inApp { session, app in
            let current = try session.campaigns.find(key, in: app)
            var spec = current.spec
            try change(&spec, app.spec)
            let written = try session.campaigns.write(spec, over: current, in: app, now: now())
            return Edit(app: app.spec, before: current.spec, after: written.stored, changes: written.changes)
        }
    }

    /// Sets the campaign's status. Activating checks that it could be published; an archived
    /// campaign is activated again only when `force`d (devices remember it: `archivedRefusal`).
    public func setStatus(_ key: Slug, _ status: CampaignStatus, force: Bool = false) throws -> Edit {
        try edit(key) { spec, _ in
            if status == .active, spec.status == .archived, !force {
                throw JobError.usage(Self.archivedRefusal(spec))
            }
            spec.status = status
        }
    }

    private func inApp<T>(readOnly: Bool = false, _ body: (TenantSession, AppRecord) throws -> T) throws -> T {
        let tenant = try database.tenant(tenant)
        return try database.inTenant(tenant, readOnly: readOnly) { session in
            try body(session, try session.apps.find(app))
        }
    }

    /// Why an archived campaign needs --force: what devices remember of it, by kind.
    static func archivedRefusal(_ campaign: CampaignSpec) -> String {
        let remembered: String =
            switch campaign.kind {
            case .banner:
                "devices that showed banner \(campaign.key) keep its history under that notification id "
                    + "(neverDisplayed stays false for them; last display and launch counts carry on)"
            case .alert:
                "devices that saw or dismissed message key \(campaign.messageKey?.rawValue ?? "-") never show it again; "
                    + "give it a new key with `campaign update --message-key` if they should"
            case .story:
                "stories keep no state on devices, but the push files under its key come back"
            case .local:
                "devices that cancelled local notification \(campaign.key) when it was archived schedule it again under that key"
            }
        return "campaign \(campaign.key) is archived; activating it again publishes it under the same identity: "
            + "\(remembered). Pass --force to activate it anyway"
    }
}

import Foundation
import HeraldCore

/// A tenant as `apply` finds it: those of its apps the file lists, and every campaign of
/// them (archived ones included), read in a fixed number of queries.
struct TenantState {
    /// By slug; apps the file does not list are left out (and alone).
    var apps: [Slug: AppRecord]
    /// By app id, then campaign key.
    var campaigns: [Int64: [Slug: CampaignRecord]]
}

/// An app a planned row belongs to: stored already, or the n-th app the plan creates.
enum PlannedApp: Hashable {
    case stored(Int64)
    case new(Int)
}

/// A campaign a planned row belongs to: stored already, or the n-th campaign the plan creates.
enum PlannedCampaign: Hashable {
    case stored(Int64)
    case new(Int)
}

/// Everything one tenant's apply writes, table by table, in the order a campaign-by-campaign
/// apply would have written it; and the steps it reports. Made in memory, written by
/// `ApplyWriter` in a few statements per table.
struct ApplyPlan {
    var steps: [ApplyStep] = []
    /// Stored as given (without campaigns).
    var newApps: [AppSpec] = []
    var changedApps: [(id: Int64, spec: AppSpec)] = []
    /// With the message key each new alert gets.
    var newCampaigns: [(app: PlannedApp, spec: CampaignSpec)] = []
    /// The campaigns row (name, status, schedule, priority, locales) written whole.
    var changedCampaigns: [(id: Int64, spec: CampaignSpec)] = []
    var messageKeys: [(app: PlannedApp, campaign: PlannedCampaign, key: MessageKey)] = []
    var deletedConditions: [(campaign: Int64, condition: Condition)] = []
    var upsertedConditions: [(campaign: PlannedCampaign, kind: CampaignKind, condition: Condition)] = []
    /// Replaced or removed content: the row goes, with its views or pages.
    var deletedContent: [(campaign: Int64, kind: CampaignKind, locale: LocaleTag)] = []
    var insertedContent: [(campaign: PlannedCampaign, locale: LocaleTag, content: CampaignContent)] = []
    /// Local campaigns' notifications, new or changed (written before their words, which name them).
    var localNotifications: [(campaign: PlannedCampaign, notification: LocalNotification)] = []

    var writesNothing: Bool {
        newApps.isEmpty && changedApps.isEmpty && newCampaigns.isEmpty && changedCampaigns.isEmpty && messageKeys.isEmpty
            && deletedConditions.isEmpty && upsertedConditions.isEmpty && deletedContent.isEmpty && insertedContent.isEmpty
            && localNotifications.isEmpty
    }
}

/// Works out, in memory, what bringing one tenant to its spec in a campaigns file takes, or
/// one campaign to what the CLI made of it (`planCampaign`: the same plan, of one campaign).
/// The rules are those of `AppRepository.update` and `CampaignRepository`'s (the same
/// functions decide), checked app by app and campaign by campaign, so the first refusal —
/// and so the message — is the one a campaign-by-campaign apply gives.
struct ApplyPlanner {
    let now: Date
    /// Every message key each stored app ever used, by app id; read when first needed.
    let readMessageKeys: () throws -> [Int64: Set<String>]

    private var storedKeys: [Int64: Set<String>]?
    /// The message keys taken so far in each app, this apply's included.
    private var takenKeys: [PlannedApp: Set<String>] = [:]

    init(now: Date, readMessageKeys: @escaping () throws -> [Int64: Set<String>]) {
        self.now = now
        self.readMessageKeys = readMessageKeys
    }

    mutating func plan(_ desired: TenantSpec, current: TenantState) throws -> ApplyPlan {
        try Self.refuseDuplicates(in: desired)
        var plan = ApplyPlan()
        for desiredApp in desired.apps {
            let path = "\(desired.slug)/\(desiredApp.slug)"
            let app: PlannedApp
            let appSpec: AppSpec
            var stored: [Slug: CampaignRecord] = [:]
            if let existing = current.apps[desiredApp.slug] {
                app = .stored(existing.id)
                stored = current.campaigns[existing.id] ?? [:]
                let changes = CampaignsApplier.changes(from: existing.spec, to: desiredApp)
                if changes.isEmpty {
                    appSpec = existing.spec
                } else {
                    appSpec = try AppRepository.updated(existing.spec, with: changes)
                    plan.changedApps.append((existing.id, appSpec))
                    plan.steps.append(
                        ApplyStep(
                            action: .update, entity: "app", path: path,
                            details: CampaignsApplier.changedFields(existing.spec, desiredApp),
                            before: CampaignsDocument.yaml(of: existing.spec), after: CampaignsDocument.yaml(of: appSpec)))
                }
            } else {
                var spec = desiredApp
                spec.campaigns = []
                appSpec = spec
                plan.newApps.append(spec)
                app = .new(plan.newApps.count - 1)
                takenKeys[app] = []
                plan.steps.append(ApplyStep(action: .create, entity: "app", path: path, details: []))
            }
            try planCampaigns(desiredApp.campaigns, stored: stored, app: app, appSpec: appSpec, path: path, into: &plan)
        }
        return plan
    }

    private mutating func planCampaigns(
        _ desired: [CampaignSpec], stored: [Slug: CampaignRecord], app: PlannedApp, appSpec: AppSpec, path: String,
        into plan: inout ApplyPlan
    ) throws {
        for campaign in desired {
            try planCampaign(campaign, over: stored[campaign.key], app: app, appSpec: appSpec, path: path, into: &plan)
        }
        // The campaigns the file no longer lists are archived.
        let listed = Set(desired.map(\.key))
        for (key, record) in stored.sorted(by: { $0.key < $1.key }) where !listed.contains(key) && record.spec.status != .archived {
            var spec = record.spec
            spec.status = .archived
            try check(spec, in: appSpec, requireReadiness: false, stored: record.spec)
            plan.changedCampaigns.append((record.id, spec))
            plan.steps.append(ApplyStep(action: .archive, entity: "campaign", path: "\(path)/\(key)", details: []))
        }
    }

    /// Plans bringing one campaign of `app` to `campaign`: an update of `record`, or a new
    /// campaign when there is none. This is the one place a campaign's rows are planned,
    /// for a whole file and for one campaign changed from the CLI alike. Returns the
    /// campaign as it will be stored (an alert's message key given out or kept) and the
    /// fields that change (none: nothing planned).
    @discardableResult
    mutating func planCampaign(
        _ campaign: CampaignSpec, over record: CampaignRecord?, app: PlannedApp, appSpec: AppSpec, path: String,
        into plan: inout ApplyPlan
    ) throws -> (stored: CampaignSpec, changes: [FieldChange]) {
        let campaignPath = "\(path)/\(campaign.key)"
        guard let record else {
            try check(campaign, in: appSpec, requireReadiness: nil)
            var spec = campaign
            if spec.kind == .alert, spec.messageKey == nil {
                spec.messageKey = MessageKey.defaultKey(for: spec.startsAt ?? now, taken: try taken(in: app))
            }
            plan.newCampaigns.append((app, spec))
            let planned = PlannedCampaign.new(plan.newCampaigns.count - 1)
            if let key = spec.messageKey {
                try take(key, in: app)
                plan.messageKeys.append((app, planned, key))
            }
            plan.upsertedConditions += ConditionChanges(from: nil, to: spec.conditions).upserted.map { (planned, spec.kind, $0) }
            if let notification = spec.localNotification { plan.localNotifications.append((planned, notification)) }
            for (locale, content) in spec.content.sorted(by: { $0.key < $1.key }) {
                plan.insertedContent.append((planned, locale, content))
            }
            plan.steps.append(ApplyStep(action: .create, entity: "campaign", path: campaignPath, details: [campaign.kind.rawValue]))
            return (spec, [])
        }
        if let refusal = CampaignRepository.kindChangeRefusal(record.spec, campaign) { throw refusal }
        let becomesActive = campaign.status == .active && record.spec.status != .active
        try check(campaign, in: appSpec, requireReadiness: becomesActive, stored: record.spec)
        let difference = CampaignDifference(from: record.spec, to: campaign)
        let stored = difference.stored
        guard !difference.isEmpty else { return (stored, []) }
        if difference.row { plan.changedCampaigns.append((record.id, campaign)) }
        if let key = difference.messageKey {
            try take(key, in: app)
            plan.messageKeys.append((app, .stored(record.id), key))
        }
        if let conditions = difference.conditions {
            plan.deletedConditions += conditions.deleted.map { (record.id, $0) }
            plan.upsertedConditions += conditions.upserted.map { (.stored(record.id), campaign.kind, $0) }
        }
        if let notification = difference.localNotification { plan.localNotifications.append((.stored(record.id), notification)) }
        for locale in difference.contentLocales {
            if record.spec.content[locale] != nil { plan.deletedContent.append((record.id, campaign.kind, locale)) }
            if let content = campaign.content[locale] {
                plan.insertedContent.append((.stored(record.id), locale, content))
            }
        }
        plan.steps.append(
            ApplyStep(
                action: .update, entity: "campaign", path: campaignPath, details: difference.fields,
                before: CampaignsDocument.yaml(of: record.spec), after: CampaignsDocument.yaml(of: stored)))
        return (stored, difference.changes)
    }

    private func check(_ spec: CampaignSpec, in app: AppSpec, requireReadiness: Bool?, stored: CampaignSpec? = nil) throws {
        let problems = CampaignRepository.problems(spec, in: app, now: now, requireReadiness: requireReadiness, stored: stored)
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
    }

    /// Every key the app ever used, and those this apply gave out so far.
    private mutating func taken(in app: PlannedApp) throws -> Set<String> {
        if let keys = takenKeys[app] { return keys }
        guard case .stored(let id) = app else { return [] }
        if storedKeys == nil { storedKeys = try readMessageKeys() }
        let keys = storedKeys?[id] ?? []
        takenKeys[app] = keys
        return keys
    }

    /// Gives `key` out in `app`, refused as the database's primary key would refuse it.
    private mutating func take(_ key: MessageKey, in app: PlannedApp) throws {
        var keys = try taken(in: app)
        guard keys.insert(key.rawValue).inserted else {
            throw StoreError.conflict(
                StoreError.constraintMessages["alert_message_keys_pkey"] ?? "that message key was already used in this app")
        }
        takenKeys[app] = keys
    }

    /// The file's parser refuses an app or campaign listed twice; a document made in code
    /// is held to the same rule (a set of changes cannot say which of the two to keep).
    static func refuseDuplicates(in tenant: TenantSpec) throws {
        var problems: [String] = []
        var apps: Set<Slug> = []
        for app in tenant.apps {
            if !apps.insert(app.slug).inserted { problems.append("app slug \(app.slug) appears twice in tenant \(tenant.slug)") }
            var keys: Set<Slug> = []
            for campaign in app.campaigns where !keys.insert(campaign.key).inserted {
                problems.append("campaign key \(campaign.key) appears twice in app \(app.slug)")
            }
        }
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
    }
}

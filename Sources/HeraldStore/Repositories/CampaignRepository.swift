import Foundation
import HeraldCore
import PostgresClient

/// A campaign as stored: its full spec plus row identity and times.
public struct CampaignRecord: Sendable, Equatable {
    public let id: Int64
    public let appID: Int64
    public var spec: CampaignSpec
    public let createdAt: Date
    public let updatedAt: Date
}

/// Campaigns of the session's tenant. Every write takes a whole `CampaignSpec` (the CLI's
/// flags, `apply` and `update` all build one), so there is one path into the tables.
public struct CampaignRepository {
    let connection: Connection
    let tenant: TenantRecord

    // MARK: Reading

    /// Every campaign of the given apps, fully loaded, in a fixed number of queries.
    public func load(appIDs: [Int64]) throws -> [CampaignRecord] {
        try CampaignLoader(connection: connection).load(apps: appIDs)
    }

    public func find(_ key: Slug, in app: AppRecord) throws -> CampaignRecord {
        let found = try CampaignLoader(connection: connection).load(apps: [app.id], key: key)
        guard let campaign = found.first else {
            throw StoreError.notFound(
                what: "campaign", name: "\(tenant.slug)/\(app.spec.slug)/\(key)",
                listCommand: "herald campaign list --tenant \(tenant.slug) --app \(app.spec.slug)")
        }
        return campaign
    }

    // MARK: Writing

    /// Brings one campaign of `app` to `desired` — a new campaign when `current` is nil —
    /// through the same planner and writer as `apply` (a plan of one campaign): the rules,
    /// the rows written and so the audit rows are apply's. Returns the campaign as stored and
    /// the fields that changed (an update that changes nothing writes nothing).
    @discardableResult
    public func write(_ desired: CampaignSpec, over current: CampaignRecord?, in app: AppRecord, now: Date = Date()) throws
        -> (stored: CampaignSpec, changes: [FieldChange])
    {
        let connection = connection
        var planner = ApplyPlanner(now: now) {
            var keys: [Int64: Set<String>] = [:]
            for row in try connection.query(ApplyMessageKeys(appIDs: [app.id])) {
                keys[try row.decode("app_id"), default: []].insert(try row.decode("message_key"))
            }
            return keys
        }
        var plan = ApplyPlan()
        let written = try planner.planCampaign(
            desired, over: current, app: .stored(app.id), appSpec: app.spec, path: "\(tenant.slug)/\(app.spec.slug)", into: &plan)
        if !plan.writesNothing { try ApplyWriter(connection: connection).write(plan) }
        return written
    }

    /// Creates a campaign. An alert without a message key gets the default one
    /// (`YYYY/MM/DD` of its start, else today, with `-2`, `-3`… when taken).
    @discardableResult
    public func create(_ spec: CampaignSpec, in app: AppRecord, now: Date = Date()) throws -> CampaignRecord {
        try write(spec, over: nil, in: app, now: now)
        return try find(spec.key, in: app)
    }

    /// Brings the stored campaign to `spec`, writing only what differs (so the audit log
    /// shows real changes). Returns the parts that changed, as apply names them.
    @discardableResult
    public func save(_ spec: CampaignSpec, in app: AppRecord, now: Date = Date()) throws -> [String] {
        let current = try find(spec.key, in: app)
        return CampaignDifference.parts(try write(spec, over: current, in: app, now: now).changes)
    }

    /// Sets a campaign's status; activating checks that it could be published.
    @discardableResult
    public func setStatus(_ key: Slug, _ status: CampaignStatus, in app: AppRecord, now: Date = Date()) throws
        -> CampaignRecord
    {
        var campaign = try find(key, in: app)
        guard campaign.spec.status != status else { return campaign }
        let current = campaign
        campaign.spec.status = status
        campaign.spec = try write(campaign.spec, over: current, in: app, now: now).stored
        return campaign
    }

    // MARK: Rules that need the app

    /// Why `spec` cannot be stored in `app` (one line each): its own rules, the app-relative ones
    /// (locales), and, when it is or becomes active, whether it could be published at all.
    /// `stored`: the campaign as stored, when `spec` changes it (`CampaignSpec.problems(stored:)`).
    static func problems(_ spec: CampaignSpec, in app: AppSpec, now: Date, requireReadiness: Bool? = nil, stored: CampaignSpec? = nil)
        -> [String]
    {
        var problems = (spec.problems(stored: stored) + spec.problems(defaultLocale: app.defaultLocale)).map(\.description)
        let supported = Set(app.locales)
        for locale in spec.content.keys.sorted() where !supported.contains(locale) {
            problems.append(
                "content for locale \(locale), which app \(app.slug) does not support "
                    + "(its locales: \(app.locales.map(\.rawValue).joined(separator: ", ")); add it with `herald app update --add-locale \(locale)`)"
            )
        }
        for locale in spec.locales ?? [] where !supported.contains(locale) {
            problems.append("locale restriction names \(locale), which app \(app.slug) does not support")
        }
        if problems.isEmpty, requireReadiness ?? (spec.status == .active) {
            // A new campaign that is active already (from a campaigns file) is stored as it
            // is, even when it ended: only making one active checks that it has not.
            let readiness = PublishReadiness.problems(campaign: spec, app: app, now: now, activating: requireReadiness == true)
            problems += readiness.map { "cannot activate \(spec.key): \($0)" }
        }
        return problems
    }

    /// A campaign's kind never changes; saving `spec` over `current` with another kind is refused so.
    static func kindChangeRefusal(_ current: CampaignSpec, _ spec: CampaignSpec) -> StoreError? {
        guard current.kind != spec.kind else { return nil }
        return StoreError.invalid([
            "campaign \(spec.key) is a \(current.kind) campaign; its kind cannot change (create a new campaign instead)"
        ])
    }
}

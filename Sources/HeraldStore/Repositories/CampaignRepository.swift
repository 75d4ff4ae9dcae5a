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

    /// Creates a campaign. An alert without a message key gets the default one
    /// (`YYYY/MM/DD` of its start, else today, with `-2`, `-3`… when taken).
    @discardableResult
    public func create(_ spec: CampaignSpec, in app: AppRecord, now: Date = Date()) throws -> CampaignRecord {
        var spec = spec
        try check(spec, in: app, now: now)
        if spec.kind == .alert, spec.messageKey == nil {
            spec.messageKey = try defaultMessageKey(for: spec.startsAt ?? now, app: app)
        }
        let rows = try connection.query(
            """
            INSERT INTO campaigns (app_id, key, kind, name, status, starts_at, ends_at, priority, locales)
            VALUES ($1, $2, $3::campaign_kind, $4, $5::campaign_status, $6, $7, $8, $9::text[]::locale_tag[])
            RETURNING id
            """,
            [app.id, spec.key.rawValue, spec.kind.rawValue, spec.name, spec.status.rawValue,
             spec.startsAt, spec.endsAt, spec.priority, spec.locales?.map(\.rawValue)])
        let id: Int64 = try rows[0].decode("id")
        let writer = CampaignContentWriter(connection: connection, campaignID: id, kind: spec.kind)
        if let messageKey = spec.messageKey {
            try writer.assignMessageKey(messageKey, appID: app.id)
        }
        try writer.replaceConditions(ConditionChanges(from: nil, to: spec.conditions))
        for (locale, content) in spec.content.sorted(by: { $0.key < $1.key }) {
            try writer.insertContent(content, locale: locale)
        }
        return try find(spec.key, in: app)
    }

    /// Brings the stored campaign to `spec`, writing only what differs (so the audit log
    /// shows real changes). Returns the names of the fields that changed.
    @discardableResult
    public func save(_ spec: CampaignSpec, in app: AppRecord, now: Date = Date()) throws -> [String] {
        let current = try find(spec.key, in: app)
        if let refusal = Self.kindChangeRefusal(current.spec, spec) { throw refusal }
        let becomesActive = spec.status == .active && current.spec.status != .active
        try check(spec, in: app, now: now, requireReadiness: becomesActive, stored: current.spec)
        let old = current.spec
        let difference = CampaignDifference(from: old, to: spec)
        if difference.row {
            try connection.execute(
                """
                UPDATE campaigns SET name = $2, status = $3::campaign_status, starts_at = $4, ends_at = $5,
                    priority = $6, locales = $7::text[]::locale_tag[]
                WHERE id = $1
                """,
                [current.id, spec.name, spec.status.rawValue, spec.startsAt, spec.endsAt, spec.priority,
                 spec.locales?.map(\.rawValue)])
        }
        let writer = CampaignContentWriter(connection: connection, campaignID: current.id, kind: spec.kind)
        if let key = difference.messageKey {
            try writer.assignMessageKey(key, appID: app.id)
        }
        if let conditions = difference.conditions {
            try writer.replaceConditions(conditions)
        }
        for locale in difference.contentLocales {
            if old.content[locale] != nil { try writer.deleteContent(locale: locale) }
            if let after = spec.content[locale] { try writer.insertContent(after, locale: locale) }
        }
        return difference.fields
    }

    /// Sets a campaign's status; activating checks that it could be published.
    @discardableResult
    public func setStatus(_ key: Slug, _ status: CampaignStatus, in app: AppRecord, now: Date = Date()) throws
        -> CampaignRecord
    {
        var campaign = try find(key, in: app)
        guard campaign.spec.status != status else { return campaign }
        campaign.spec.status = status
        try save(campaign.spec, in: app, now: now)
        return try find(key, in: app)
    }

    // MARK: Rules that need the app

    /// The spec's own rules, the app-relative ones (locales), and when the campaign is or
    /// becomes active, whether it could be published at all.
    func check(_ spec: CampaignSpec, in app: AppRecord, now: Date, requireReadiness: Bool? = nil, stored: CampaignSpec? = nil) throws {
        let problems = Self.problems(spec, in: app.spec, now: now, requireReadiness: requireReadiness, stored: stored)
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
    }

    /// `check`'s problems, one line each (also what `apply` checks, campaign by campaign).
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
            let readiness = PublishReadiness.problems(campaign: spec, app: app, now: now)
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

    private func defaultMessageKey(for date: Date, app: AppRecord) throws -> MessageKey {
        let rows = try connection.query(
            "SELECT message_key FROM alert_message_keys WHERE app_id = $1", [app.id])
        let taken = Set(try rows.map { try $0.decode("message_key", as: String.self) })
        return MessageKey.defaultKey(for: date, taken: taken)
    }
}

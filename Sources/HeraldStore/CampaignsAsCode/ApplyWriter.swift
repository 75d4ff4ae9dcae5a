import Foundation
import HeraldCore
import PostgresClient

/// Writes an `ApplyPlan` in at most one statement per table and kind of change (queries/apply.sql),
/// in the order the foreign keys need: apps, campaigns, message keys, conditions, local
/// notifications, content.
/// New apps and campaigns get their ids from the database; the rows that hang off them are
/// sent once those are known.
struct ApplyWriter {
    let connection: Connection

    func write(_ plan: ApplyPlan) throws {
        let newAppIDs = try insertApps(plan.newApps)
        try updateApps(plan.changedApps)
        func appID(_ app: PlannedApp) -> Int64 {
            switch app {
            case .stored(let id): id
            case .new(let index): newAppIDs[index]
            }
        }
        let newCampaignIDs = try insertCampaigns(plan.newCampaigns.map { (appID($0.app), $0.spec) })
        func campaignID(_ campaign: PlannedCampaign) -> Int64 {
            switch campaign {
            case .stored(let id): id
            case .new(let index): newCampaignIDs[index]
            }
        }
        try updateCampaigns(plan.changedCampaigns)
        try insertMessageKeys(plan.messageKeys.map { (appID($0.app), campaignID($0.campaign), $0.key) })
        try deleteConditions(plan.deletedConditions)
        try upsertConditions(plan.upsertedConditions.map { (campaignID($0.campaign), $0.kind, $0.condition) })
        try upsertLocalNotifications(plan.localNotifications.map { (campaignID($0.campaign), $0.notification) })
        try deleteContent(plan.deletedContent)
        try insertContent(plan.insertedContent.map { (campaignID($0.campaign), $0.locale, $0.content) })
    }

    // MARK: Apps

    /// The new apps' ids, in the plan's order.
    private func insertApps(_ apps: [AppSpec]) throws -> [Int64] {
        guard !apps.isEmpty else { return [] }
        var rows = ApplyInsertApps()
        for app in apps {
            rows.slugs.append(app.slug.rawValue)
            rows.appendColumns(of: app)
        }
        var ids: [String: Int64] = [:]
        for row in try connection.query(rows) { ids[try row.decode("slug", as: String.self)] = try row.decode("id", as: Int64.self) }
        return try apps.map { app in
            guard let id = ids[app.slug.rawValue] else { throw Self.lost("app \(app.slug)") }
            return id
        }
    }

    private func updateApps(_ apps: [(id: Int64, spec: AppSpec)]) throws {
        guard !apps.isEmpty else { return }
        var rows = ApplyUpdateApps()
        for (id, app) in apps {
            rows.ids.append(id)
            rows.appendColumns(of: app)
        }
        try connection.execute(rows)
    }

    // MARK: Campaigns

    /// The new campaigns' ids, in the plan's order.
    private func insertCampaigns(_ campaigns: [(appID: Int64, spec: CampaignSpec)]) throws -> [Int64] {
        guard !campaigns.isEmpty else { return [] }
        var rows = ApplyInsertCampaigns()
        for (appID, spec) in campaigns {
            rows.appIDs.append(appID)
            rows.keys.append(spec.key.rawValue)
            rows.kinds.append(spec.kind.rawValue)
            rows.appendColumns(of: spec)
        }
        var ids: [CampaignName: Int64] = [:]
        for row in try connection.query(rows) {
            let name = CampaignName(appID: try row.decode("app_id"), key: try row.decode("key"))
            ids[name] = try row.decode("id", as: Int64.self)
        }
        return try campaigns.map { appID, spec in
            guard let id = ids[CampaignName(appID: appID, key: spec.key.rawValue)] else { throw Self.lost("campaign \(spec.key)") }
            return id
        }
    }

    private func updateCampaigns(_ campaigns: [(id: Int64, spec: CampaignSpec)]) throws {
        guard !campaigns.isEmpty else { return }
        var rows = ApplyUpdateCampaigns()
        for (id, spec) in campaigns {
            rows.ids.append(id)
            rows.appendColumns(of: spec)
        }
        try connection.execute(rows)
    }

    private func insertMessageKeys(_ keys: [(appID: Int64, campaignID: Int64, key: MessageKey)]) throws {
        guard !keys.isEmpty else { return }
        var rows = ApplyInsertMessageKeys()
        for (appID, campaignID, key) in keys {
            rows.appIDs.append(appID)
            rows.campaignIDs.append(campaignID)
            rows.messageKeys.append(key.rawValue)
        }
        try connection.execute(rows)
    }

    // MARK: Conditions

    private func deleteConditions(_ conditions: [(campaign: Int64, condition: Condition)]) throws {
        guard !conditions.isEmpty else { return }
        var rows = ApplyDeleteConditions()
        for (campaign, condition) in conditions {
            rows.campaignIDs.append(campaign)
            rows.groups.append(condition.group.rawValue)
            rows.types.append(condition.type.rawValue)
        }
        try connection.execute(rows)
    }

    private func upsertConditions(_ conditions: [(campaign: Int64, kind: CampaignKind, condition: Condition)]) throws {
        guard !conditions.isEmpty else { return }
        var rows = ApplyUpsertConditions()
        for (campaign, kind, condition) in conditions {
            rows.campaignIDs.append(campaign)
            rows.kinds.append(kind.rawValue)
            rows.groups.append(condition.group.rawValue)
            rows.types.append(condition.type.rawValue)
            rows.conditionValues.append(condition.value.jsonText)
        }
        try connection.execute(rows)
    }

    // MARK: Local notifications

    private func upsertLocalNotifications(_ notifications: [(campaign: Int64, notification: LocalNotification)]) throws {
        guard !notifications.isEmpty else { return }
        var rows = ApplyUpsertLocalNotifications()
        for (campaign, notification) in notifications {
            rows.campaignIDs.append(campaign)
            switch notification.fireDate {
            case .instant(let date):
                rows.fireAt.append(date)
                rows.fireWallClock.append(nil)
            case .wallClock(let time):
                rows.fireAt.append(nil)
                rows.fireWallClock.append(time.description)
            }
            rows.repeatIntervals.append(notification.repeatInterval?.rawValue)
            rows.badges.append(notification.badge)
            rows.sounds.append(notification.sound?.rawValue)
            rows.launchImages.append(notification.launchImage?.rawValue)
            rows.hasAction.append(notification.hasAction)
            rows.userInfo.append(JSONText.object(notification.userInfo))
        }
        try connection.execute(rows)
    }

    // MARK: Content

    private func deleteContent(_ content: [(campaign: Int64, kind: CampaignKind, locale: LocaleTag)]) throws {
        var banners = ApplyDeleteBannerContents(), alerts = ApplyDeleteAlertContents(), stories = ApplyDeleteStoryContents()
        var locals = ApplyDeleteLocalContents()
        for (campaign, kind, locale) in content {
            switch kind {
            case .banner:
                banners.campaignIDs.append(campaign)
                banners.locales.append(locale.rawValue)
            case .alert:
                alerts.campaignIDs.append(campaign)
                alerts.locales.append(locale.rawValue)
            case .story:
                stories.campaignIDs.append(campaign)
                stories.locales.append(locale.rawValue)
            case .local:
                locals.campaignIDs.append(campaign)
                locals.locales.append(locale.rawValue)
            }
        }
        if !banners.campaignIDs.isEmpty { try connection.execute(banners) }
        if !alerts.campaignIDs.isEmpty { try connection.execute(alerts) }
        if !stories.campaignIDs.isEmpty { try connection.execute(stories) }
        if !locals.campaignIDs.isEmpty { try connection.execute(locals) }
    }

    private func insertContent(_ content: [(campaign: Int64, locale: LocaleTag, content: CampaignContent)]) throws {
        var banners = ApplyInsertBannerContents(), views = ApplyInsertBannerViews(), alerts = ApplyInsertAlertContents()
        var stories = ApplyInsertStoryContents(), pages = ApplyInsertStoryPages(), locals = ApplyInsertLocalContents()
        for (campaign, locale, content) in content {
            switch content {
            case .local(let words):
                locals.campaignIDs.append(campaign)
                locals.locales.append(locale.rawValue)
                locals.bodies.append(words.body)
                locals.actions.append(words.action)
            case .banner(let banner):
                banners.campaignIDs.append(campaign)
                banners.locales.append(locale.rawValue)
                banners.entryViews.append(banner.entry.rawValue)
                for (position, view) in banner.views.enumerated() {
                    let (file, html) = view.storedSource
                    views.campaignIDs.append(campaign)
                    views.locales.append(locale.rawValue)
                    views.viewIDs.append(view.id.rawValue)
                    views.positions.append(position)
                    views.fileURLs.append(file)
                    views.inlineHTML.append(html)
                    views.heights.append(view.height)
                    views.origins.append(view.origin?.rawValue)
                }
            case .alert(let alert):
                alerts.campaignIDs.append(campaign)
                alerts.locales.append(locale.rawValue)
                alerts.titles.append(alert.title)
                alerts.messages.append(alert.message)
                alerts.actionURLs.append(alert.actionURL?.rawValue)
                alerts.actionButtons.append(alert.actionButton)
            case .story(let story):
                stories.campaignIDs.append(campaign)
                stories.locales.append(locale.rawValue)
                stories.pushTitles.append(story.pushTitle)
                stories.pushTexts.append(story.pushText)
                for (position, page) in story.pages.enumerated() {
                    pages.campaignIDs.append(campaign)
                    pages.locales.append(locale.rawValue)
                    pages.positions.append(position)
                    pages.images.append(page.image.rawValue)
                    pages.durations.append(page.duration)
                    pages.links.append(page.link?.rawValue)
                    pages.buttonTitles.append(page.buttonTitle)
                    pages.titles.append(page.title)
                    pages.subtitles.append(page.subtitle)
                }
            }
        }
        // Contents before their views and pages (whose foreign keys name them).
        if !banners.campaignIDs.isEmpty { try connection.execute(banners) }
        if !views.campaignIDs.isEmpty { try connection.execute(views) }
        if !alerts.campaignIDs.isEmpty { try connection.execute(alerts) }
        if !stories.campaignIDs.isEmpty { try connection.execute(stories) }
        if !pages.campaignIDs.isEmpty { try connection.execute(pages) }
        if !locals.campaignIDs.isEmpty { try connection.execute(locals) }
    }

    // MARK: Support

    /// A locale list as its column holds it (`en,de`).
    static func joined(_ locales: [LocaleTag]) -> String {
        locales.map(\.rawValue).joined(separator: ",")
    }

    private static func lost(_ what: String) -> StoreError {
        StoreError.database("apply: the database did not return the id of the new \(what)")
    }
}

/// A new campaign as RETURNING names it.
private struct CampaignName: Hashable {
    let appID: Int64
    let key: String
}

extension BannerView {
    /// banner_views' two source columns (file_url, inline_html): exactly one is set.
    var storedSource: (file: String?, html: String?) {
        switch source {
        case .file(let url): (url.rawValue, nil)
        case .html(let text): (nil, text)
        }
    }
}

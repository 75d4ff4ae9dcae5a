import Foundation
import HeraldCore
import PostgresClient

/// Writes an `ApplyPlan` in at most one statement per table and kind of change (ApplySQL),
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
        var columns = Columns(7)
        for app in apps {
            columns.add(
                app.slug.rawValue, app.name, app.platform.rawValue, app.bundleID, app.defaultLocale.rawValue,
                Self.joined(app.locales), app.baseURL?.rawValue)
        }
        let rows = try connection.query(ApplySQL.insertApps, columns.parameters)
        var ids: [String: Int64] = [:]
        for row in rows { ids[try row.decode("slug", as: String.self)] = try row.decode("id", as: Int64.self) }
        return try apps.map { app in
            guard let id = ids[app.slug.rawValue] else { throw Self.lost("app \(app.slug)") }
            return id
        }
    }

    private func updateApps(_ apps: [(id: Int64, spec: AppSpec)]) throws {
        guard !apps.isEmpty else { return }
        var columns = Columns(7)
        for (id, app) in apps {
            columns.add(
                id, app.name, app.platform.rawValue, app.bundleID, app.defaultLocale.rawValue, Self.joined(app.locales),
                app.baseURL?.rawValue)
        }
        try connection.execute(ApplySQL.updateApps, columns.parameters)
    }

    // MARK: Campaigns

    /// The new campaigns' ids, in the plan's order.
    private func insertCampaigns(_ campaigns: [(appID: Int64, spec: CampaignSpec)]) throws -> [Int64] {
        guard !campaigns.isEmpty else { return [] }
        var columns = Columns(11)
        for (appID, spec) in campaigns {
            columns.add(
                appID, spec.key.rawValue, spec.kind.rawValue, spec.name, spec.status.rawValue, spec.startsAt, spec.endsAt,
                spec.priority, spec.locales.map(Self.joined), spec.push.sound?.rawValue, spec.push.badge?.description)
        }
        let rows = try connection.query(ApplySQL.insertCampaigns, columns.parameters)
        var ids: [CampaignName: Int64] = [:]
        for row in rows {
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
        var columns = Columns(9)
        for (id, spec) in campaigns {
            columns.add(
                id, spec.name, spec.status.rawValue, spec.startsAt, spec.endsAt, spec.priority, spec.locales.map(Self.joined),
                spec.push.sound?.rawValue, spec.push.badge?.description)
        }
        try connection.execute(ApplySQL.updateCampaigns, columns.parameters)
    }

    private func insertMessageKeys(_ keys: [(appID: Int64, campaignID: Int64, key: MessageKey)]) throws {
        guard !keys.isEmpty else { return }
        var columns = Columns(3)
        for (appID, campaignID, key) in keys { columns.add(appID, campaignID, key.rawValue) }
        try connection.execute(ApplySQL.insertMessageKeys, columns.parameters)
    }

    // MARK: Conditions

    private func deleteConditions(_ conditions: [(campaign: Int64, condition: Condition)]) throws {
        guard !conditions.isEmpty else { return }
        var columns = Columns(3)
        for (campaign, condition) in conditions {
            columns.add(campaign, condition.group.rawValue, condition.type.rawValue)
        }
        try connection.execute(ApplySQL.deleteConditions, columns.parameters)
    }

    private func upsertConditions(_ conditions: [(campaign: Int64, kind: CampaignKind, condition: Condition)]) throws {
        guard !conditions.isEmpty else { return }
        var columns = Columns(5)
        for (campaign, kind, condition) in conditions {
            columns.add(campaign, kind.rawValue, condition.group.rawValue, condition.type.rawValue, condition.value.jsonText)
        }
        try connection.execute(ApplySQL.upsertConditions, columns.parameters)
    }

    // MARK: Local notifications

    private func upsertLocalNotifications(_ notifications: [(campaign: Int64, notification: LocalNotification)]) throws {
        guard !notifications.isEmpty else { return }
        var columns = Columns(9)
        for (campaign, notification) in notifications {
            var instant: Date?
            var wallClock: String?
            switch notification.fireDate {
            case .instant(let date): instant = date
            case .wallClock(let time): wallClock = time.description
            }
            columns.add(
                campaign, instant, wallClock, notification.repeatInterval?.rawValue, notification.badge, notification.sound?.rawValue,
                notification.launchImage?.rawValue, notification.hasAction, JSONText.object(notification.userInfo))
        }
        try connection.execute(ApplySQL.upsertLocalNotifications, columns.parameters)
    }

    // MARK: Content

    private func deleteContent(_ content: [(campaign: Int64, kind: CampaignKind, locale: LocaleTag)]) throws {
        for (kind, sql) in [
            (CampaignKind.banner, ApplySQL.deleteBannerContents), (.alert, ApplySQL.deleteAlertContents),
            (.story, ApplySQL.deleteStoryContents), (.local, ApplySQL.deleteLocalContents),
        ] {
            var columns = Columns(2)
            for row in content where row.kind == kind { columns.add(row.campaign, row.locale.rawValue) }
            if columns.rowCount > 0 { try connection.execute(sql, columns.parameters) }
        }
    }

    private func insertContent(_ content: [(campaign: Int64, locale: LocaleTag, content: CampaignContent)]) throws {
        var banners = Columns(3)
        var views = Columns(8)
        var alerts = Columns(6)
        var stories = Columns(4)
        var pages = Columns(9)
        var locals = Columns(4)
        for (campaign, locale, content) in content {
            switch content {
            case .local(let words):
                locals.add(campaign, locale.rawValue, words.body, words.action)
            case .banner(let banner):
                banners.add(campaign, locale.rawValue, banner.entry.rawValue)
                for (position, view) in banner.views.enumerated() {
                    let (file, html) = view.storedSource
                    views.add(campaign, locale.rawValue, view.id.rawValue, position, file, html, view.height, view.origin?.rawValue)
                }
            case .alert(let alert):
                alerts.add(campaign, locale.rawValue, alert.title, alert.message, alert.actionURL?.rawValue, alert.actionButton)
            case .story(let story):
                stories.add(campaign, locale.rawValue, story.pushTitle, story.pushText)
                for (position, page) in story.pages.enumerated() {
                    pages.add(
                        campaign, locale.rawValue, position, page.image.rawValue, page.duration, page.link?.rawValue,
                        page.buttonTitle, page.title, page.subtitle)
                }
            }
        }
        // Contents before their views and pages (whose foreign keys name them).
        for (columns, sql) in [
            (banners, ApplySQL.insertBannerContents), (views, ApplySQL.insertBannerViews), (alerts, ApplySQL.insertAlertContents),
            (stories, ApplySQL.insertStoryContents), (pages, ApplySQL.insertStoryPages), (locals, ApplySQL.insertLocalContents),
        ] where columns.rowCount > 0 {
            try connection.execute(sql, columns.parameters)
        }
    }

    // MARK: Support

    /// A locale list as one text (`de,en`); ApplySQL splits it again.
    private static func joined(_ locales: [LocaleTag]) -> String {
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

/// The columns of rows to send: one array parameter per column, filled row by row.
private struct Columns {
    private var arrays: [ArrayParameter]

    init(_ count: Int) {
        arrays = Array(repeating: ArrayParameter(), count: count)
    }

    var rowCount: Int { arrays.first?.count ?? 0 }

    mutating func add(_ values: any PostgresEncodable...) {
        precondition(values.count == arrays.count, "a row of \(values.count) values for \(arrays.count) columns")
        for (index, value) in values.enumerated() { arrays[index].append(value) }
    }

    var parameters: [any PostgresEncodable] { arrays }
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

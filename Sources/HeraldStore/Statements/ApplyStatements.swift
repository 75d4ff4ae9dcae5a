import Foundation
import HeraldCore

// queries/apply.sql: each statement's rows as parallel arrays, one property per column.

struct ApplyMessageKeys: Statement {
    static let query = Query.applyMessageKeys
    let appIDs: [Int64]
}

/// The columns an app's row has in both apply-insert-apps and apply-update-apps.
protocol ApplyAppColumns {
    var names: [String] { get set }
    var platforms: [String] { get set }
    var bundleIDs: [String] { get set }
    var defaultLocales: [String] { get set }
    var locales: [String] { get set }
    var baseURLs: [String?] { get set }
}

extension ApplyAppColumns {
    mutating func appendColumns(of app: AppSpec) {
        names.append(app.name)
        platforms.append(app.platform.rawValue)
        bundleIDs.append(app.bundleID)
        defaultLocales.append(app.defaultLocale.rawValue)
        locales.append(ApplyWriter.joined(app.locales))
        baseURLs.append(app.baseURL?.rawValue)
    }
}

struct ApplyInsertApps: Statement, ApplyAppColumns {
    static let query = Query.applyInsertApps
    var slugs: [String] = [], names: [String] = [], platforms: [String] = [], bundleIDs: [String] = []
    var defaultLocales: [String] = [], locales: [String] = [], baseURLs: [String?] = []
}

struct ApplyUpdateApps: Statement, ApplyAppColumns {
    static let query = Query.applyUpdateApps
    var ids: [Int64] = [], names: [String] = [], platforms: [String] = [], bundleIDs: [String] = []
    var defaultLocales: [String] = [], locales: [String] = [], baseURLs: [String?] = []
}

/// The columns a campaign's row has in both apply-insert-campaigns and apply-update-campaigns.
protocol ApplyCampaignColumns {
    var names: [String] { get set }
    var statuses: [String] { get set }
    var startsAt: [Date?] { get set }
    var endsAt: [Date?] { get set }
    var priorities: [Int] { get set }
    var locales: [String?] { get set }
    var pushSounds: [String?] { get set }
    var pushBadges: [String?] { get set }
}

extension ApplyCampaignColumns {
    mutating func appendColumns(of spec: CampaignSpec) {
        names.append(spec.name)
        statuses.append(spec.status.rawValue)
        startsAt.append(spec.startsAt)
        endsAt.append(spec.endsAt)
        priorities.append(spec.priority)
        locales.append(spec.locales.map(ApplyWriter.joined))
        pushSounds.append(spec.push.sound?.rawValue)
        pushBadges.append(spec.push.badge?.description)
    }
}

struct ApplyInsertCampaigns: Statement, ApplyCampaignColumns {
    static let query = Query.applyInsertCampaigns
    var appIDs: [Int64] = [], keys: [String] = [], kinds: [String] = [], names: [String] = [], statuses: [String] = []
    var startsAt: [Date?] = [], endsAt: [Date?] = [], priorities: [Int] = [], locales: [String?] = []
    var pushSounds: [String?] = [], pushBadges: [String?] = []
}

struct ApplyUpdateCampaigns: Statement, ApplyCampaignColumns {
    static let query = Query.applyUpdateCampaigns
    var ids: [Int64] = [], names: [String] = [], statuses: [String] = []
    var startsAt: [Date?] = [], endsAt: [Date?] = [], priorities: [Int] = [], locales: [String?] = []
    var pushSounds: [String?] = [], pushBadges: [String?] = []
}

struct ApplyInsertMessageKeys: Statement {
    static let query = Query.applyInsertMessageKeys
    var appIDs: [Int64] = [], campaignIDs: [Int64] = [], messageKeys: [String] = []
}

struct ApplyDeleteConditions: Statement {
    static let query = Query.applyDeleteConditions
    var campaignIDs: [Int64] = [], groups: [String] = [], types: [String] = []
}

struct ApplyUpsertConditions: Statement {
    static let query = Query.applyUpsertConditions
    var campaignIDs: [Int64] = [], kinds: [String] = [], groups: [String] = [], types: [String] = []
    var conditionValues: [String] = []
}

struct ApplyDeleteBannerContents: Statement {
    static let query = Query.applyDeleteBannerContents
    var campaignIDs: [Int64] = [], locales: [String] = []
}

struct ApplyDeleteAlertContents: Statement {
    static let query = Query.applyDeleteAlertContents
    var campaignIDs: [Int64] = [], locales: [String] = []
}

struct ApplyDeleteStoryContents: Statement {
    static let query = Query.applyDeleteStoryContents
    var campaignIDs: [Int64] = [], locales: [String] = []
}

struct ApplyInsertBannerContents: Statement {
    static let query = Query.applyInsertBannerContents
    var campaignIDs: [Int64] = [], locales: [String] = [], entryViews: [String] = []
}

struct ApplyInsertBannerViews: Statement {
    static let query = Query.applyInsertBannerViews
    var campaignIDs: [Int64] = [], locales: [String] = [], viewIDs: [String] = [], positions: [Int] = []
    var fileURLs: [String?] = [], inlineHTML: [String?] = [], heights: [Double?] = [], origins: [String?] = []
}

struct ApplyInsertAlertContents: Statement {
    static let query = Query.applyInsertAlertContents
    var campaignIDs: [Int64] = [], locales: [String] = [], titles: [String] = [], messages: [String] = []
    var actionURLs: [String?] = [], actionButtons: [String?] = []
}

struct ApplyInsertStoryContents: Statement {
    static let query = Query.applyInsertStoryContents
    var campaignIDs: [Int64] = [], locales: [String] = [], pushTitles: [String?] = [], pushTexts: [String] = []
}

struct ApplyInsertStoryPages: Statement {
    static let query = Query.applyInsertStoryPages
    var campaignIDs: [Int64] = [], locales: [String] = [], positions: [Int] = [], images: [String] = []
    var durations: [Double?] = [], links: [String?] = [], buttonTitles: [String?] = [], titles: [String?] = []
    var subtitles: [String?] = []
}

struct ApplyDeleteLocalContents: Statement {
    static let query = Query.applyDeleteLocalContents
    var campaignIDs: [Int64] = [], locales: [String] = []
}

struct ApplyUpsertLocalNotifications: Statement {
    static let query = Query.applyUpsertLocalNotifications
    var campaignIDs: [Int64] = [], fireAt: [Date?] = [], fireWallClock: [String?] = [], repeatIntervals: [String?] = []
    var badges: [Int?] = [], sounds: [String?] = [], launchImages: [String?] = [], hasAction: [Bool] = [], userInfo: [String] = []
}

struct ApplyInsertLocalContents: Statement {
    static let query = Query.applyInsertLocalContents
    var campaignIDs: [Int64] = [], locales: [String] = [], bodies: [String] = [], actions: [String?] = []
}

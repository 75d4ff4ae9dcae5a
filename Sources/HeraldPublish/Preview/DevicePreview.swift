import Foundation
import HeraldCore

/// One device as the clients see it (docs/clients.md says where each field lives on the device).
public struct DeviceState: Sendable {
    public var appVersion: String  // CFBundleShortVersionString: iNotify's Min/MaxVersion
    public var build: String  // CFBundleVersion: Notable's appVersionLessThan
    public var osVersion: String
    public var wifi: Bool

    // Notable, per notification id.
    /// Ids shown before (`--seconds-since` also marks its id as shown).
    public var displayed: Set<String> = []
    /// Notable's launch counter at the moment it checks: launches since the id was last shown
    /// (or since the file first listed it), the current launch included, because Notable
    /// increments the counter before it checks. At least 1; 1 when not given.
    public var launchesSince: [String: Int] = [:]
    /// Seconds since the id was last shown. Not given for an id never shown: Notable then
    /// measures from its reference date, 2001-01-01T00:00:00Z.
    public var secondsSince: [String: Int] = [:]
    /// Flags set by the banner's JavaScript, per id.
    public var flags: [String: Set<String>] = [:]

    // iNotify.
    /// Message keys viewed or ignored (remembered forever).
    public var seen: Set<String> = []
    /// URL schemes the device can open (lowercased): iNotify shows nothing when the next
    /// message's ActionURL has another one.
    public var canOpen: Set<String> = ["http", "https"]
    /// The app's first launch: iNotify only records it and checks nothing.
    public var firstLaunch = false
    /// When iNotify last downloaded the plist (it waits 12 hours before the next check).
    public var lastChecked: Date?
    /// When the user last chose "Remind Me Later" (iNotify waits a day; this wait replaces
    /// the check period while it is set).
    public var lastReminded: Date?

    // Herald's local notifications client: the device's zone, what it has pending.
    public var local = LocalDeviceState(timeZone: TimeZone(identifier: "UTC") ?? .current)

    public init(appVersion: String, build: String? = nil, osVersion: String, wifi: Bool) {
        self.appVersion = appVersion
        self.build = build ?? appVersion
        self.osVersion = osVersion
        self.wifi = wifi
    }

    /// Whether Notable has a display recorded for `id`.
    func wasDisplayed(_ id: String) -> Bool {
        displayed.contains(id) || secondsSince[id] != nil
    }
}

public struct PreviewResult: Equatable, Sendable {
    public var eligibleBanners: [String] = []
    public var nextAlert: String?
    /// Why iNotify shows no alert at all on this launch (first launch, check or remind period,
    /// an ActionURL the device cannot open); nil when it shows `nextAlert` or has none to show.
    public var alertBlocked: String?
    public var stories: [String] = []
    /// The stories whose blocks were given, as Pushwoosh's player plays them, by key.
    public var storyPlays: [PlayedStory] = []
    /// What Herald's client makes of the locale's local notifications (nil: the app has none).
    public var localSchedule: LocalSchedulePreview?
    public var notShown: [NotShown] = []

    public struct NotShown: Equatable, Sendable {
        public let campaign: String
        public let reason: String
    }
}

/// One locale's files as the preview reads them, parsed once: Notable's banners in id order,
/// iNotify's messages, the stories as the player plays them (the same on every device), and the
/// local notifications file (read per device: what it schedules depends on the device's clock).
/// Immutable once made: its values are what JSONSerialization and PropertyListSerialization
/// return (strings, numbers, arrays and dictionaries), only ever read, so one parse can serve
/// every page of a board rendered on several threads.
public struct ParsedLocaleFiles: @unchecked Sendable {
    let banners: [ParsedBanner]
    let alerts: [String: [String: String]]
    let stories: [String]
    let storyPlays: [PlayedStory]
    let localNotifications: [UInt8]?

    public init(control: [UInt8], notifications: [UInt8], storyKeys: [String], storyBlocks: [String: [UInt8]], localNotifications: [UInt8]?) {
        let parsed = (try? JSONSerialization.jsonObject(with: Data(control))) as? [String: Any] ?? [:]
        banners = parsed.sorted(by: { $0.key < $1.key }).compactMap { id, value in (value as? [String: Any]).map { ParsedBanner(id: id, $0) } }
        alerts = (try? PropertyListSerialization.propertyList(from: Data(notifications), format: nil)) as? [String: [String: String]] ?? [:]
        stories = storyKeys.sorted()
        storyPlays = stories.compactMap { key in storyBlocks[key].map { StoryPayloadReader.play(campaign: key, file: $0) } }
        self.localNotifications = localNotifications
    }
}

/// A banner of `control.json` as Notable reads it, cast once (casting `Any` for every device
/// was most of a board's matrices): its `all` and `any` conditions in name order, and the
/// entry it names when no view has that name.
struct ParsedBanner {
    let id: String
    let all: [ParsedCondition]
    let any: [ParsedCondition]
    let entryWithoutView: String?

    init(id: String, _ banner: [String: Any]) {
        self.id = id
        let conditions = banner["conditions"] as? [String: [String: Any]] ?? [:]
        all = (conditions["all"] ?? [:]).sorted(by: { $0.key < $1.key }).map { ParsedCondition(type: $0.key, $0.value) }
        any = (conditions["any"] ?? [:]).sorted(by: { $0.key < $1.key }).map { ParsedCondition(type: $0.key, $0.value) }
        let views = banner["views"] as? [String: Any] ?? [:]
        if let entry = banner["entry"] as? String, views[entry] == nil { entryWithoutView = entry } else { entryWithoutView = nil }
    }
}

/// One condition of a banner as Notable reads it: its name, the kind Herald knows it as (nil:
/// a name Notable does not read), and its value as each kind reads it, cast from the parsed
/// JSON once rather than for every device (`as?` on `Any` was a board's costliest step).
struct ParsedCondition {
    let type: String
    let kind: ConditionType?
    let flag: Bool
    let number: Int
    let text: String

    init(type: String, _ value: Any) {
        self.type = type
        kind = ConditionType(rawValue: type)
        flag = value as? Bool ?? false
        number = value as? Int ?? 0
        text = value as? String ?? ""
    }
}

/// What a device would see, computed from the files as published with the clients' own
/// rules, and for every other campaign the first reason it is not shown. docs/clients.md
/// gives each rule with the client source it comes from.
public enum DevicePreview {
    /// Notable's reference date (NSDate's 2001-01-01T00:00:00Z): a notification never shown
    /// has no display date, and Notable measures `lastDisplayMinimumSeconds` from this one.
    public static let referenceDate = Date(timeIntervalSinceReferenceDate: 0)
    /// iNotify's check period (0.5 day) and remind period (1 day), in seconds.
    public static let checkPeriod: TimeInterval = 43_200
    public static let remindPeriod: TimeInterval = 86_400

    /// `storyBlocks`: the published `stories/<key>.json` of stories in `storyKeys`, to play.
    /// `localNotifications`: the locale's `local-notifications.plist`, when it has one.
    public static func evaluate(
        control: [UInt8], notifications: [UInt8], storyKeys: [String], storyBlocks: [String: [UInt8]] = [:],
        localNotifications: [UInt8]? = nil, app: AppSpec, locale: LocaleTag, at: Date, device: DeviceState, reasonFor: String? = nil
    ) -> PreviewResult {
        evaluate(
            ParsedLocaleFiles(control: control, notifications: notifications, storyKeys: storyKeys, storyBlocks: storyBlocks,
                              localNotifications: localNotifications),
            app: app, locale: locale, at: at, device: device, reasonFor: reasonFor)
    }

    /// The same, from files read once (the board asks of one locale's files for many devices).
    /// `reasonFor`: the one campaign whose reason `notShown` needs (a board's matrix row asks of
    /// one; working out every other campaign's reason was most of its cost); nil: every one.
    public static func evaluate(
        _ files: ParsedLocaleFiles, app: AppSpec, locale: LocaleTag, at: Date, device: DeviceState, reasonFor: String? = nil
    ) -> PreviewResult {
        var result = PreviewResult()
        var reasons: [String: String] = [:]

        // Notable: every banner whose conditions hold and whose entry names a view.
        for banner in files.banners {
            let id = banner.id
            if let failure = bannerFailure(banner, device: device, at: at) {
                reasons[id] = failure
            } else {
                result.eligibleBanners.append(id)
            }
        }

        // iNotify: gates, then seen keys and Min/MaxVersion, then the last key in
        // case-insensitive order, whose ActionURL must open.
        let alerts = files.alerts
        if let gate = alertGate(device, at: at) {
            result.alertBlocked = gate
            for key in alerts.keys { reasons["alert:" + key] = "iNotify does not check on this launch: \(gate)" }
        } else {
            var candidates: [String] = []
            for key in alerts.keys.sorted(by: { MessageKey.order($0, $1) < 0 }) {
                let fields = alerts[key] ?? [:]
                if device.seen.contains(key) {
                    reasons["alert:" + key] = "already seen (message key \(key))"
                } else if let min = fields["MinVersion"], NumericSearch.compare(device.appVersion, min) < 0 {
                    reasons["alert:" + key] = "app version \(device.appVersion) is below MinVersion \(min)"
                } else if let max = fields["MaxVersion"], NumericSearch.compare(device.appVersion, max) > 0 {
                    reasons["alert:" + key] = "app version \(device.appVersion) is above MaxVersion \(max)"
                } else {
                    candidates.append(key)
                }
            }
            if let next = candidates.last {
                let url = alerts[next]?["ActionURL"]
                if let url, !canOpen(url, device) {
                    let scheme = schemeOf(url) ?? url
                    result.alertBlocked =
                        "the next alert would be \(next), but its ActionURL \(url) can't be opened on this device (no app for \(scheme):): "
                        + "nothing is shown"
                    reasons["alert:" + next] =
                        "its ActionURL \(url) can't be opened on this device (can open: \(device.canOpen.sorted().joined(separator: ", "))), "
                        + "so iNotify shows no alert at all"
                } else {
                    result.nextAlert = next
                }
                for key in candidates.dropLast() {
                    reasons["alert:" + key] = "iNotify picks \(next) first (it sorts after \(key))"
                }
            }
        }
        result.stories = files.stories
        result.storyPlays = files.storyPlays
        result.localSchedule = files.localNotifications.flatMap { LocalNotificationPreview.plan(file: $0, device: device.local, at: at) }
        let local = result.localSchedule
        let scheduled = Set((local?.schedule ?? []).map(\.campaign) + (local?.replace ?? []).map(\.campaign))
        for item in local?.leftOut ?? [] {
            reasons["local:" + item.campaign] =
                "left out: iOS keeps 64 pending local notifications per app (the app's own count too), and those kept fire sooner "
                + "(it fires next at \(item.nextFireLocal))"
        }
        for key in local?.past ?? [] { reasons["local:" + key] = "it fires once, at a time already past on this device's clock" }

        // Every campaign of the app not shown, with the first reason.
        let shownBanners = Set(result.eligibleBanners)
        let asked = reasonFor.map { key in app.campaigns.filter { $0.key.rawValue == key } } ?? app.campaigns.sorted(by: { $0.key < $1.key })
        for campaign in asked {
            let key = campaign.key.rawValue
            let reason: String? =
                switch campaign.kind {
                case .banner: shownBanners.contains(key) ? nil : reasons[key] ?? publishReason(campaign, app: app, locale: locale, at: at)
                case .alert:
                    campaign.messageKey.map { $0.rawValue == result.nextAlert } == true
                        ? nil
                        : campaign.messageKey.flatMap { reasons["alert:" + $0.rawValue] } ?? publishReason(campaign, app: app, locale: locale, at: at)
                case .story: result.stories.contains(key) ? nil : publishReason(campaign, app: app, locale: locale, at: at)
                case .local:
                    scheduled.contains(key) ? nil : reasons["local:" + key] ?? publishReason(campaign, app: app, locale: locale, at: at)
                }
            if let reason { result.notShown.append(.init(campaign: key, reason: reason)) }
        }
        return result
    }

    /// iNotify's gates before it downloads anything, in its own order: the first launch, then
    /// the remind period when "Remind Me Later" was chosen (which then replaces the check
    /// period), else the check period.
    static func alertGate(_ device: DeviceState, at: Date) -> String? {
        if device.firstLaunch {
            return "it is the app's first launch, which iNotify only records"
        }
        if let reminded = device.lastReminded {
            if at.timeIntervalSince(reminded) < remindPeriod {
                return "\"Remind Me Later\" was chosen at \(Timestamp.format(reminded)), less than a day ago; "
                    + "iNotify checks again from \(Timestamp.format(reminded.addingTimeInterval(remindPeriod)))"
            }
        } else if let checked = device.lastChecked, at.timeIntervalSince(checked) < checkPeriod {
            return "it last checked at \(Timestamp.format(checked)), less than 12 hours ago; "
                + "it checks again from \(Timestamp.format(checked.addingTimeInterval(checkPeriod)))"
        }
        return nil
    }

    /// The URL's scheme, lowercased (`weather` of `weather://tour`).
    static func schemeOf(_ url: String) -> String? {
        // ASCII up to the colon and just after it (nearly every URL): the first colon byte is
        // the first ":" character, found without walking characters (lint asks for every alert
        // in every locale). A non-ASCII byte could be a mark joining a character.
        let bytes = url.utf8
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[...colon].allSatisfy({ $0 < 0x80 }),
            bytes.index(after: colon) == bytes.endIndex || bytes[bytes.index(after: colon)] < 0x80
        {
            return colon == url.startIndex ? nil : url[..<colon].lowercased()
        }
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
        return url[..<colon].lowercased()
    }

    static func canOpen(_ url: String, _ device: DeviceState) -> Bool {
        schemeOf(url).map { device.canOpen.contains($0) } ?? false
    }

    /// Why a campaign is not in the files for this locale at this time.
    static func publishReason(_ campaign: CampaignSpec, app: AppSpec, locale: LocaleTag, at: Date) -> String {
        switch campaign.status {
        case .draft: return "draft (not activated)"
        case .paused: return "paused"
        case .archived: return "archived"
        case .active: break
        }
        if let starts = campaign.startsAt, at < starts { return "not started (starts \(Timestamp.format(starts)))" }
        if let ends = campaign.endsAt, at >= ends { return "ended (\(Timestamp.format(ends)))" }
        if let restriction = campaign.locales, !restriction.contains(locale) {
            return "not in this locale (restricted to \(restriction.map(\.rawValue).joined(separator: ", ")))"
        }
        if PublishSelection.content(of: campaign, for: locale, in: app) == nil { return "no content for \(locale) or its fallbacks" }
        if campaign.kind == .banner {
            let live = app.campaigns.filter { PublishSelection.isLive($0, at: at) }
            if let winner = PublishSelection.bannersLeftOut(live, for: locale, in: app)[campaign.key] {
                return "left out of control.json: every device that qualifies for it also qualifies for \(winner.key), "
                    + "of higher priority (\(winner.priority) > \(campaign.priority))"
            }
        }
        return "not in the published files (publish again)"
    }

    /// Notable's rules: an unknown condition is false; every `all` must hold; `any` empty or one holds.
    static func bannerFailure(id: String, _ banner: [String: Any], device: DeviceState, at: Date) -> String? {
        bannerFailure(ParsedBanner(id: id, banner), device: device, at: at)
    }

    static func bannerFailure(_ banner: ParsedBanner, device: DeviceState, at: Date) -> String? {
        let id = banner.id
        for condition in banner.all {
            if let failure = conditionFailure(id: id, condition, device: device, at: at) { return "all.\(condition.type): \(failure)" }
        }
        if !banner.any.isEmpty {
            let failures = banner.any.compactMap { condition in
                conditionFailure(id: id, condition, device: device, at: at).map { "\(condition.type): \($0)" }
            }
            if failures.count == banner.any.count { return "no `any` condition holds (\(failures.joined(separator: "; ")))" }
        }
        if let entry = banner.entryWithoutView { return "entry \(entry) names no view" }
        return nil
    }

    /// nil when the condition holds, else what the device has against what it needs.
    static func conditionFailure(id: String, _ condition: ParsedCondition, device: DeviceState, at: Date) -> String? {
        // Notable reads only its own conditions; iNotify's, or a name nobody knows, it treats as false.
        switch condition.kind {
        case .onWifi:
            let wanted = condition.flag
            return device.wifi == wanted ? nil : "device is \(device.wifi ? "on" : "off") Wi-Fi, needs \(wanted ? "on" : "off")"
        case .neverDisplayed:
            let wanted = condition.flag
            let never = !device.wasDisplayed(id)
            return never == wanted ? nil : (never ? "needs to have been shown before" : "already displayed on this device")
        case .lastDisplayMinimumSeconds:
            let minimum = condition.number
            if let seconds = device.secondsSince[id] {
                return seconds > minimum ? nil : "shown \(seconds) s ago, needs more than \(minimum)"
            }
            if device.displayed.contains(id) {
                return "shown before at a time not given (say it with --seconds-since \(id)=N), needs more than \(minimum) s"
            }
            // Never shown: no display date, so Notable measures from its reference date.
            let sinceReference = Int(at.timeIntervalSince(referenceDate))
            return sinceReference > minimum
                ? nil
                : "never shown, so Notable measures from 2001-01-01: \(sinceReference) s, needs more than \(minimum)"
        case .lastDisplayMinimumLaunches:
            let minimum = condition.number
            let launches = device.launchesSince[id] ?? 1
            return launches > minimum
                ? nil : "\(launches) launch\(launches == 1 ? "" : "es") since last shown (this one included), needs more than \(minimum)"
        case .flagNotSet:
            let flag = condition.text
            return device.flags[id]?.contains(flag) == true ? "flag \(flag) is set" : nil
        case .iOSVersionLessThan:
            let limit = condition.text
            return NumericSearch.compare(device.osVersion, limit) < 0 ? nil : "OS \(device.osVersion) is not below \(limit)"
        case .appVersionLessThan:
            let limit = condition.text
            return NumericSearch.compare(device.build, limit) < 0 ? nil : "build \(device.build) is not below \(limit)"
        case .minAppVersion, .maxAppVersion, nil:
            return "unknown condition (the client treats it as false)"
        }
    }
}

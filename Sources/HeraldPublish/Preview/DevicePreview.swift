import Foundation
import HeraldCore

/// One device as the clients see it.
public struct DeviceState: Sendable {
    public var appVersion: String  // CFBundleShortVersionString: iNotify's Min/MaxVersion
    public var build: String  // CFBundleVersion: Notable's appVersionLessThan
    public var osVersion: String
    public var wifi: Bool
    public var displayed: Set<String> = []  // notification ids shown before
    public var launchesSince: [String: Int] = [:]  // per id; counts from install when never shown (default 0)
    public var secondsSince: [String: Int] = [:]  // per id; never shown = unbounded
    public var flags: [String: Set<String>] = [:]  // per id, set by the banner's JavaScript
    public var seen: Set<String> = []  // iNotify message keys viewed or ignored

    public init(appVersion: String, build: String? = nil, osVersion: String, wifi: Bool) {
        self.appVersion = appVersion
        self.build = build ?? appVersion
        self.osVersion = osVersion
        self.wifi = wifi
    }
}

public struct PreviewResult: Equatable, Sendable {
    public var eligibleBanners: [String] = []
    public var nextAlert: String?
    public var stories: [String] = []
    public var notShown: [NotShown] = []

    public struct NotShown: Equatable, Sendable {
        public let campaign: String
        public let reason: String
    }
}

/// What a device would see, computed from the files as published with the clients' own
/// rules (numeric-search versions, Notable's all/any, iNotify's newest-last order), and for
/// every other campaign the first reason it is not shown.
public enum DevicePreview {
    public static func evaluate(
        control: [UInt8], notifications: [UInt8], storyKeys: [String], app: AppSpec, locale: LocaleTag, at: Date,
        device: DeviceState
    ) -> PreviewResult {
        var result = PreviewResult()
        var reasons: [String: String] = [:]

        // Notable: every banner whose conditions hold and whose entry names a view.
        let banners = (try? JSONSerialization.jsonObject(with: Data(control))) as? [String: Any] ?? [:]
        for (id, value) in banners.sorted(by: { $0.key < $1.key }) {
            guard let banner = value as? [String: Any] else { continue }
            if let failure = bannerFailure(id: id, banner, device: device) {
                reasons[id] = failure
            } else {
                result.eligibleBanners.append(id)
            }
        }

        // iNotify: keys sorted case-insensitively, newest (last) first, within Min/MaxVersion, not seen.
        let alerts = (try? PropertyListSerialization.propertyList(from: Data(notifications), format: nil)) as? [String: [String: String]] ?? [:]
        let ordered = alerts.keys.sorted { $0.lowercased() < $1.lowercased() }
        var candidates: [String] = []
        for key in ordered {
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
        result.nextAlert = candidates.last
        for key in candidates.dropLast() {
            reasons["alert:" + key] = "iNotify shows \(candidates.last ?? "") first (it sorts after \(key))"
        }
        result.stories = storyKeys.sorted()

        // Every campaign of the app not shown, with the first reason.
        let shownBanners = Set(result.eligibleBanners)
        for campaign in app.campaigns.sorted(by: { $0.key < $1.key }) {
            let key = campaign.key.rawValue
            let reason: String? =
                switch campaign.kind {
                case .banner: shownBanners.contains(key) ? nil : reasons[key] ?? publishReason(campaign, app: app, locale: locale, at: at)
                case .alert:
                    campaign.messageKey.map { $0.rawValue == result.nextAlert } == true
                        ? nil
                        : campaign.messageKey.flatMap { reasons["alert:" + $0.rawValue] } ?? publishReason(campaign, app: app, locale: locale, at: at)
                case .story: result.stories.contains(key) ? nil : publishReason(campaign, app: app, locale: locale, at: at)
                }
            if let reason { result.notShown.append(.init(campaign: key, reason: reason)) }
        }
        return result
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
        return "not in the published files (publish again)"
    }

    /// Notable's rules: an unknown condition is false; every `all` must hold; `any` empty or one holds.
    static func bannerFailure(id: String, _ banner: [String: Any], device: DeviceState) -> String? {
        let conditions = banner["conditions"] as? [String: [String: Any]] ?? [:]
        for (type, value) in (conditions["all"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let failure = conditionFailure(id: id, type: type, value, device: device) { return "all.\(type): \(failure)" }
        }
        let any = conditions["any"] ?? [:]
        if !any.isEmpty {
            let failures = any.sorted(by: { $0.key < $1.key }).compactMap { type, value in
                conditionFailure(id: id, type: type, value, device: device).map { "\(type): \($0)" }
            }
            if failures.count == any.count { return "no `any` condition holds (\(failures.joined(separator: "; ")))" }
        }
        let views = banner["views"] as? [String: Any] ?? [:]
        if let entry = banner["entry"] as? String, views[entry] == nil { return "entry \(entry) names no view" }
        return nil
    }

    /// nil when the condition holds, else what the device has against what it needs.
    static func conditionFailure(id: String, type: String, _ value: Any, device: DeviceState) -> String? {
        switch type {
        case "onWifi":
            let wanted = value as? Bool ?? false
            return device.wifi == wanted ? nil : "device is \(device.wifi ? "on" : "off") Wi-Fi, needs \(wanted ? "on" : "off")"
        case "neverDisplayed":
            let wanted = value as? Bool ?? false
            let never = !device.displayed.contains(id)
            return never == wanted ? nil : (never ? "needs to have been shown before" : "already displayed on this device")
        case "lastDisplayMinimumSeconds":
            let minimum = value as? Int ?? 0
            guard let seconds = device.secondsSince[id] else { return nil }  // never shown: unbounded
            return seconds > minimum ? nil : "shown \(seconds) s ago, needs more than \(minimum)"
        case "lastDisplayMinimumLaunches":
            let minimum = value as? Int ?? 0
            let launches = device.launchesSince[id] ?? 0
            return launches > minimum ? nil : "\(launches) launches since last shown, needs more than \(minimum)"
        case "flagNotSet":
            let flag = value as? String ?? ""
            return device.flags[id]?.contains(flag) == true ? "flag \(flag) is set" : nil
        case "iOSVersionLessThan":
            let limit = value as? String ?? ""
            return NumericSearch.compare(device.osVersion, limit) < 0 ? nil : "OS \(device.osVersion) is not below \(limit)"
        case "appVersionLessThan":
            let limit = value as? String ?? ""
            return NumericSearch.compare(device.build, limit) < 0 ? nil : "build \(device.build) is not below \(limit)"
        default:
            return "unknown condition (the client treats it as false)"
        }
    }
}

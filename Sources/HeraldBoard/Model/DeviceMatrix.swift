import Foundation
import HeraldCore
import HeraldPublish

/// A representative device of a campaign's matrix: what `herald preview` is told about it.
public struct MatrixDevice: Sendable, Equatable {
    /// What sets this device apart, in words ("build 2.9: just below appVersionLessThan 3.0").
    public var label: String
    public var appVersion: String
    public var build: String
    public var osVersion: String
    public var wifi: Bool
    public var displayed: [String] = []
    public var launchesSince: [String: Int] = [:]
    public var secondsSince: [String: Int] = [:]
    public var flags: [String: [String]] = [:]
    public var seen: [String] = []
    /// URL schemes the device can open (iNotify shows nothing when the ActionURL's is not one).
    public var canOpen: [String] = MatrixDevice.webSchemes

    static let webSchemes = ["http", "https"]

    /// The `herald preview` options that describe this device (besides tenant, app, locale, --at).
    public var previewArguments: [String] {
        var arguments = ["--app-version", appVersion]
        if build != appVersion { arguments += ["--build", build] }
        arguments += ["--os-version", osVersion, wifi ? "--wifi" : "--no-wifi"]
        for id in displayed { arguments += ["--displayed", id] }
        for (id, count) in launchesSince.sorted(by: { $0.key < $1.key }) { arguments += ["--launches-since", "\(id)=\(count)"] }
        for (id, count) in secondsSince.sorted(by: { $0.key < $1.key }) { arguments += ["--seconds-since", "\(id)=\(count)"] }
        for (id, names) in flags.sorted(by: { $0.key < $1.key }) { for name in names { arguments += ["--flag", "\(id)=\(name)"] } }
        for key in seen { arguments += ["--seen", key] }
        if canOpen != Self.webSchemes { arguments += ["--can-open", canOpen.joined(separator: ",")] }
        return arguments
    }

    /// The device as the preview models it: built the way `herald preview` builds it from its options.
    var state: DeviceState {
        var device = DeviceState(appVersion: appVersion, build: build, osVersion: osVersion, wifi: wifi)
        device.displayed = Set(displayed)
        device.launchesSince = launchesSince
        device.secondsSince = secondsSince
        for (id, names) in flags { device.flags[id, default: []].formUnion(names) }
        device.seen = Set(seen)
        device.canOpen = Set(canOpen)
        return device
    }

    /// Same device, whatever the label.
    func sameDevice(as other: MatrixDevice) -> Bool {
        var a = self
        a.label = other.label
        return a == other
    }
}

/// What the preview decides for one campaign on one device in one locale.
public struct MatrixCell: Sendable, Equatable {
    public var locale: LocaleTag
    public var shown: Bool
    /// "eligible", "next alert", "sent" when shown; otherwise the preview's reason.
    public var verdict: String
    /// More words when shown (other banners eligible at once).
    public var detail: String?
}

public struct MatrixRow: Sendable, Equatable {
    public var device: MatrixDevice
    public var cells: [MatrixCell]
}

/// Representative devices from a campaign's own condition bounds, each run through
/// `DevicePreview` against the files publish would write at the board's moment.
public enum DeviceMatrix {
    static let defaultAppVersion = "2.0"
    static let defaultOSVersion = "18.0"

    /// The devices: a baseline that meets the campaign's conditions where it can, then one
    /// row per thing that could change the answer (versions just below / at / above each
    /// bound, Wi-Fi on / off, first run / returning, flag set / not set, message seen).
    public static func devices(for campaign: CampaignSpec) -> [MatrixDevice] {
        let id = campaign.key.rawValue
        let conditions = campaign.conditions.conditions
        func version(_ type: ConditionType) -> String? {
            conditions.first { $0.type == type }?.value.text
        }
        // Baseline: inside every bound.
        var app = defaultAppVersion
        if let limit = version(.appVersionLessThan) {
            app = VersionSteps.below(limit) ?? limit
        } else if let min = version(.minAppVersion) {
            app = min
        } else if let max = version(.maxAppVersion) {
            app = max
        }
        let os = version(.iOSVersionLessThan).map { VersionSteps.below($0) ?? $0 } ?? defaultOSVersion
        let wifiDemand = conditions.first { $0.type == .onWifi }.map { $0.value == .bool(true) }
        // An alert whose ActionURL has the app's own scheme: the baseline device has the app and
        // opens it; one row without it (or with an app that does not declare it) shows no alert.
        let schemes = Set(campaign.content.values.compactMap { content -> String? in
            guard case .alert(let alert) = content, let url = alert.actionURL?.rawValue,
                let colon = url.firstIndex(of: ":") else { return nil }
            let scheme = url[..<colon].lowercased()
            return MatrixDevice.webSchemes.contains(scheme) ? nil : scheme
        }).sorted()
        let baseline = MatrixDevice(
            label: "Baseline: first run, inside every bound", appVersion: app, build: app, osVersion: os, wifi: wifiDemand ?? true,
            canOpen: MatrixDevice.webSchemes + schemes)
        var rows = [baseline]
        func add(_ device: MatrixDevice) {
            if let index = rows.firstIndex(where: { $0.sameDevice(as: device) }) {
                rows[index].label += "; " + device.label
                return
            }
            rows.append(device)
        }
        for condition in conditions {
            let limit = condition.value.text
            switch condition.type {
            case .appVersionLessThan, .minAppVersion, .maxAppVersion:
                let what = condition.type == .appVersionLessThan ? "build" : "app"
                for (name, value) in VersionSteps.around(limit) {
                    var device = baseline
                    device.appVersion = value
                    device.build = value
                    device.label = "\(what) \(value): \(name) \(condition.type.rawValue) \(limit)"
                    add(device)
                }
            case .iOSVersionLessThan:
                for (name, value) in VersionSteps.around(limit) {
                    var device = baseline
                    device.osVersion = value
                    device.label = "OS \(value): \(name) iOSVersionLessThan \(limit)"
                    add(device)
                }
            case .onWifi:
                for wifi in [true, false] {
                    var device = baseline
                    device.wifi = wifi
                    device.label = wifi ? "on Wi-Fi" : "off Wi-Fi"
                    add(device)
                }
            case .neverDisplayed:
                var device = baseline
                device.displayed = [id]
                device.launchesSince[id] = 1
                device.label = "returning: shown before, 1 launch ago"
                add(device)
            case .lastDisplayMinimumLaunches:
                let minimum = Int(limit) ?? 0
                for count in [minimum, minimum + 1] {
                    var device = baseline
                    device.displayed = [id]
                    device.launchesSince[id] = count
                    device.label = "returning: shown \(count) launch\(count == 1 ? "" : "es") ago"
                    add(device)
                }
            case .lastDisplayMinimumSeconds:
                let minimum = Int(limit) ?? 0
                for count in [minimum, minimum + 1] {
                    var device = baseline
                    device.displayed = [id]
                    device.secondsSince[id] = count
                    device.label = "returning: shown \(count) s ago"
                    add(device)
                }
            case .flagNotSet:
                var device = baseline
                device.flags[id] = [limit]
                device.label = "flag \(limit) set"
                add(device)
            }
        }
        if !schemes.isEmpty {
            var device = baseline
            device.canOpen = MatrixDevice.webSchemes
            device.label = "cannot open \(schemes.map { "\($0)://" }.joined(separator: ", "))"
            add(device)
        }
        if campaign.kind == .alert, let key = campaign.messageKey {
            var device = baseline
            device.seen = [key.rawValue]
            device.label = "returning: has seen message \(key)"
            add(device)
        }
        return rows
    }

    /// Each device of `campaign`, in each of the app's locales.
    static func rows(
        for campaign: CampaignSpec, app: AppSpec, tenant: TenantSpec, files: [[String]: LocaleFiles], at: Date
    ) -> [MatrixRow] {
        devices(for: campaign).map { device in
            MatrixRow(
                device: device,
                cells: app.locales.map { locale in
                    let folder = SitePath.localeFolder(tenant: tenant.slug, app: app.slug, locale: locale)
                    let localeFiles = files[folder] ?? LocaleFiles(control: nil, notifications: nil, stories: [:])
                    let result = localeFiles.preview(app: app, locale: locale, at: at, device: device.state)
                    return cell(result, campaign: campaign, locale: locale)
                })
        }
    }

    static func cell(_ result: PreviewResult, campaign: CampaignSpec, locale: LocaleTag) -> MatrixCell {
        let key = campaign.key.rawValue
        switch campaign.kind {
        case .banner where result.eligibleBanners.contains(key):
            let others = result.eligibleBanners.filter { $0 != key }
            return MatrixCell(
                locale: locale, shown: true, verdict: "eligible",
                detail: others.isEmpty ? nil : "also eligible: \(others.joined(separator: ", ")); Notable shows one")
        case .alert where campaign.messageKey.map { $0.rawValue == result.nextAlert } == true:
            return MatrixCell(locale: locale, shown: true, verdict: "next alert", detail: nil)
        case .story where result.stories.contains(key):
            return MatrixCell(locale: locale, shown: true, verdict: "sent", detail: nil)
        case .local:
            let schedule = result.localSchedule
            guard let item = ((schedule?.schedule ?? []) + (schedule?.replace ?? [])).first(where: { $0.campaign == key }) else { fallthrough }
            return MatrixCell(locale: locale, shown: true, verdict: "scheduled", detail: "fires next \(item.nextFireLocal)")
        default:
            let reason = result.notShown.first { $0.campaign == key }?.reason ?? "not shown"
            return MatrixCell(locale: locale, shown: false, verdict: reason, detail: nil)
        }
    }
}

/// Versions either side of a bound, as people write them.
enum VersionSteps {
    /// The nearest lower version of the same shape: `3.0` → `2.9`, `2.4.0` → `2.3.9`, `1.2` → `1.1`; nil for `0`.
    static func below(_ version: String) -> String? {
        var parts = version.split(separator: ".").map { UInt64($0) }
        guard parts.allSatisfy({ $0 != nil }), let index = parts.lastIndex(where: { ($0 ?? 0) > 0 }) else { return nil }
        parts[index] = (parts[index] ?? 1) - 1
        for later in parts.indices where later > index { parts[later] = 9 }
        return parts.map { String($0 ?? 0) }.joined(separator: ".")
    }

    /// The next version up in the last part: `3.0` → `3.1`.
    static func above(_ version: String) -> String? {
        var parts = version.split(separator: ".").map { UInt64($0) }
        guard let last = parts.last, let value = last, value < 999_999_999_999_999_999 else { return nil }
        parts[parts.count - 1] = value + 1
        return parts.map { String($0 ?? 0) }.joined(separator: ".")
    }

    static func around(_ version: String) -> [(String, String)] {
        var steps: [(String, String)] = []
        if let below = below(version) { steps.append(("just below", below)) }
        steps.append(("at", version))
        if let above = above(version) { steps.append(("just above", above)) }
        return steps
    }
}

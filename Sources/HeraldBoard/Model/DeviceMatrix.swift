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
    /// The app's first launch (iNotify then only records the launch).
    public var firstLaunch = false
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
        if firstLaunch { arguments.append("--first-launch") }
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
        device.firstLaunch = firstLaunch
        return device
    }

    func relabelled(_ label: String) -> MatrixDevice {
        var device = self
        device.label = label
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

    /// The devices: a baseline inside every bound (nothing seen yet, and not the app's first
    /// launch), then for each condition the device just inside its bound and the one just
    /// outside (the nearest values either side, decided by the clients' own rules as the
    /// preview has them), and for an `any` group the device for which only that condition
    /// holds and the one for which none does (the group as a whole just outside). Alerts add
    /// the app's first launch (iNotify only records it) and a device that has seen the message.
    public static func devices(for campaign: CampaignSpec, app: AppSpec, at: Date) -> [MatrixDevice] {
        let id = campaign.key.rawValue
        let conditions = campaign.conditions.conditions
        let probe = ConditionProbe(id: id, app: app, at: at)
        // An alert whose ActionURL has the app's own scheme: the baseline device has the app and
        // opens it; one row without it (or with an app that does not declare it) shows no alert.
        let schemes = Set(campaign.content.values.compactMap { content -> String? in
            guard case .alert(let alert) = content, let url = alert.actionURL?.rawValue,
                let colon = url.firstIndex(of: ":") else { return nil }
            let scheme = url[..<colon].lowercased()
            return MatrixDevice.webSchemes.contains(scheme) ? nil : scheme
        }).sorted()
        var baseline = MatrixDevice(
            label: "Baseline: nothing seen yet (not the app's first launch), inside every bound", appVersion: defaultAppVersion,
            build: defaultAppVersion, osVersion: defaultOSVersion, wifi: true, canOpen: MatrixDevice.webSchemes + schemes)
        let all = conditions.filter { $0.group == .all }
        let any = conditions.filter { $0.group == .any }
        for condition in all {
            if let inside = probe.bound(condition, from: baseline).inside { baseline = inside.device.relabelled(baseline.label) }
        }
        if !any.isEmpty, !any.contains(where: { probe.holds($0, baseline) }),
            let inside = probe.bound(any[0], from: baseline).inside
        {
            baseline = inside.device.relabelled(baseline.label)
        }
        var rows = [baseline]
        func add(_ device: MatrixDevice) {
            if let index = rows.firstIndex(where: { $0.sameDevice(as: device) }) {
                if !rows[index].label.contains(device.label) { rows[index].label += "; " + device.label }
                return
            }
            rows.append(device)
        }
        let groupSize = any.count
        for condition in all + (groupSize == 1 ? any : []) {
            let bound = probe.bound(condition, from: baseline)
            for side in [bound.inside, bound.outside].compactMap({ $0 }) {
                add(side.device.relabelled("\(side.words): just \(side.holds ? "inside" : "outside") \(condition.words)"))
            }
        }
        if groupSize > 1 {
            // Every `any` condition just outside: the group as a whole fails. Then each one
            // alone just inside, and (the same device) just outside.
            var none = baseline
            var outsideWords: [String] = []
            for condition in any {
                if let outside = probe.bound(condition, from: none).outside {
                    none = outside.device
                    outsideWords.append(outside.words)
                }
            }
            for condition in any {
                let bound = probe.bound(condition, from: none)
                if let inside = bound.inside {
                    add(inside.device.relabelled("\(inside.words): only \(condition.words) of the `any` group holds (just inside)"))
                }
            }
            add(none.relabelled("\(outsideWords.joined(separator: ", ")): no `any` condition holds (the group just outside)"))
        }
        if !schemes.isEmpty {
            var device = baseline
            device.canOpen = MatrixDevice.webSchemes
            device.label = "cannot open \(schemes.map { "\($0)://" }.joined(separator: ", "))"
            add(device)
        }
        if campaign.kind == .alert {
            var first = baseline
            first.firstLaunch = true
            first.label = "the app's first launch: iNotify only records it"
            add(first)
            if let key = campaign.messageKey {
                var device = baseline
                device.seen = [key.rawValue]
                device.label = "returning: has seen message \(key)"
                add(device)
            }
        }
        return rows
    }

    /// Each device of `campaign`, in each of the app's locales.
    static func rows(
        for campaign: CampaignSpec, app: AppSpec, tenant: TenantSpec, parsed files: [[String]: ParsedLocaleFiles], at: Date
    ) -> [MatrixRow] {
        // Each locale's files as parsed once for the whole board (every device of every matrix).
        let parsed = app.locales.map { locale in
            files[SitePath.localeFolder(tenant: tenant.slug, app: app.slug, locale: locale)]
                ?? LocaleFiles(control: nil, notifications: nil, stories: [:]).parsed()
        }
        return devices(for: campaign, app: app, at: at).map { device in
            let state = device.state
            return MatrixRow(
                device: device,
                cells: zip(app.locales, parsed).map { locale, files in
                    cell(
                        DevicePreview.evaluate(files, app: app, locale: locale, at: at, device: state, reasonFor: campaign.key.rawValue),
                        campaign: campaign, locale: locale)
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

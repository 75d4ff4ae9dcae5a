import Foundation
import HeraldCore
import HeraldPublish

/// Whether one condition holds on a device, decided by the preview's own model of the clients
/// (`DevicePreview`, as `herald preview` decides): the condition alone in a one-banner
/// control.json for Notable's, in a one-message notifications.plist for iNotify's
/// Min/MaxVersion. The matrix asks it which of the values around a bound fall inside.
struct ConditionProbe {
    let id: String
    let app: AppSpec
    let at: Date

    init(id: String, app: AppSpec, at: Date) {
        self.id = id
        var app = app
        app.campaigns = []  // the preview lists every campaign of the app it is given: none here
        self.app = app
        self.at = at
    }

    /// A device with one value changed, in words, and whether the condition holds on it.
    struct Side {
        var device: MatrixDevice
        var words: String
        var holds: Bool
    }

    func holds(_ condition: Condition, _ device: MatrixDevice) -> Bool {
        let files = parsed.files(condition, id: id)
        switch condition.type {
        case .minAppVersion, .maxAppVersion:
            var state = device.state
            state.firstLaunch = false
            state.seen = []
            return DevicePreview.evaluate(files, app: app, locale: app.defaultLocale, at: at, device: state, reasonFor: "probe").nextAlert == "probe"
        default:
            return DevicePreview.evaluate(files, app: app, locale: app.defaultLocale, at: at, device: device.state, reasonFor: id)
                .eligibleBanners.contains(id)
        }
    }

    /// Each condition's one-campaign files, parsed once for every device the probe is asked of
    /// (parsing them again for each device was a third of a board's matrices). One probe serves
    /// one page, on one thread.
    private let parsed = ParsedProbes()

    private final class ParsedProbes {
        private var parsed: [String: ParsedLocaleFiles] = [:]

        func files(_ condition: Condition, id: String) -> ParsedLocaleFiles {
            let key = condition.type.rawValue + "\u{0}" + condition.value.jsonText
            if let files = parsed[key] { return files }
            let files: ParsedLocaleFiles
            switch condition.type {
            case .minAppVersion, .maxAppVersion:
                let field = condition.type == .minAppVersion ? "MinVersion" : "MaxVersion"
                let plist = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0"><dict><key>probe</key><dict><key>Message</key><string>probe</string>\
                    <key>\(field)</key><string>\(HTML.escape(condition.value.text))</string></dict></dict></plist>
                    """
                files = ParsedLocaleFiles(
                    control: Array("{}".utf8), notifications: Array(plist.utf8), storyKeys: [], storyBlocks: [:], localNotifications: nil)
            default:
                let control = #"{\#(JSONText.quoted(id)):{"conditions":{"all":{\#(JSONText.quoted(condition.type.rawValue)):\#(condition.value.jsonText)}},"entry":"v","views":{"v":{}}}}"#
                files = ParsedLocaleFiles(control: Array(control.utf8), notifications: [], storyKeys: [], storyBlocks: [:], localNotifications: nil)
            }
            parsed[key] = files
            return files
        }
    }

    /// The nearest values either side of the condition's bound, from `device`: the first two
    /// neighbouring values (in the order of the values) of which one holds and one does not.
    func bound(_ condition: Condition, from device: MatrixDevice) -> (inside: Side?, outside: Side?) {
        let sides = candidates(condition, from: device).map { Side(device: $0.0, words: $0.1, holds: holds(condition, $0.0)) }
        for (first, second) in zip(sides, sides.dropFirst()) where first.holds != second.holds {
            return first.holds ? (first, second) : (second, first)
        }
        // No bound among them (a condition that always or never holds): what there is.
        return (sides.first { $0.holds }, sides.first { !$0.holds })
    }

    /// Copies of `device` that showed the banner `limit` and `limit + 1` (launches or seconds,
    /// at `since`) ago, from `least` on, in `words`.
    private func shownAgo(
        _ limit: String, from device: MatrixDevice, at since: WritableKeyPath<MatrixDevice, [String: Int]>, least: Int,
        words: (Int) -> String
    ) -> [(MatrixDevice, String)] {
        let minimum = Int(limit) ?? 0
        return [minimum, minimum + 1].filter { $0 >= least }.map { ago in
            var changed = device
            if !changed.displayed.contains(id) { changed.displayed.append(id) }
            changed[keyPath: since][id] = ago
            return (changed, words(ago))
        }
    }

    /// The values around the condition's bound, in order, each on a copy of `device`.
    private func candidates(_ condition: Condition, from device: MatrixDevice) -> [(MatrixDevice, String)] {
        let limit = condition.value.text
        var result: [(MatrixDevice, String)] = []
        switch condition.type {
        case .appVersionLessThan, .minAppVersion, .maxAppVersion:
            for (_, value) in VersionSteps.around(limit) {
                var changed = device
                changed.appVersion = value
                changed.build = value
                result.append((changed, condition.type == .appVersionLessThan ? "build \(value)" : "app version \(value)"))
            }
        case .iOSVersionLessThan:
            for (_, value) in VersionSteps.around(limit) {
                var changed = device
                changed.osVersion = value
                result.append((changed, "OS \(value)"))
            }
        case .onWifi:
            for wifi in [false, true] {
                var changed = device
                changed.wifi = wifi
                result.append((changed, wifi ? "on Wi-Fi" : "off Wi-Fi"))
            }
        case .neverDisplayed:
            var never = device
            never.displayed.removeAll { $0 == id }
            never.launchesSince[id] = nil
            never.secondsSince[id] = nil
            var shown = device
            if !shown.displayed.contains(id) { shown.displayed.append(id) }
            if shown.launchesSince[id] == nil, shown.secondsSince[id] == nil { shown.launchesSince[id] = 1 }
            result = [(never, "never shown here"), (shown, "shown before")]
        case .lastDisplayMinimumLaunches:
            result = shownAgo(limit, from: device, at: \.launchesSince, least: 1) { "shown \($0) launch\($0 == 1 ? "" : "es") ago (this one counted)" }
        case .lastDisplayMinimumSeconds:
            result = shownAgo(limit, from: device, at: \.secondsSince, least: 0) { "shown \($0) s ago" }
        case .flagNotSet:
            var unset = device
            unset.flags[id]?.removeAll { $0 == limit }
            if unset.flags[id]?.isEmpty == true { unset.flags[id] = nil }
            var set = device
            if set.flags[id]?.contains(limit) != true { set.flags[id, default: []].append(limit) }
            result = [(unset, "flag \(limit) not set"), (set, "flag \(limit) set")]
        }
        return result
    }
}

extension Condition {
    /// `all.appVersionLessThan 3.0`, as the campaigns file groups it.
    var words: String { "\(group.rawValue).\(type.rawValue) \(value.text)" }
}

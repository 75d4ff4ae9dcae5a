import Foundation

/// The two clients, modelled from docs/clients.md as their code runs: state kept as they keep
/// it (NSUserDefaults-like values per notification id; iNotify's ignored and viewed lists and
/// dates), files read with Foundation's own parsers, versions compared with Foundation's own
/// `compare(_:options: .numeric)` and keys sorted with its `caseInsensitiveCompare`. It is
/// written independently of DevicePreview (which explains, and uses Herald's NumericSearch),
/// so that the property tests compare two readings of the same rules.
enum ClientModel {
    /// What Notable keeps about one notification id.
    struct NotableRecord {
        var displayed = false  // the neverDisplayed key
        var lastDisplay: Date?  // the lastDisplayMinimumSeconds key
        var launches = 0  // the lastDisplayMinimumLaunches key
        var flags: Set<String> = []
    }

    struct Device {
        var build: String  // CFBundleVersion
        var shortVersion: String  // CFBundleShortVersionString
        var systemVersion: String
        var wifi: Bool
        var notable: [String: NotableRecord] = [:]
        // iNotify's defaults.
        var ignored: [String]?  // nil until the first launch recorded it
        var viewed: [String] = []
        var lastChecked: Date?
        var lastReminded: Date?
        var openableSchemes: Set<String> = []
    }

    /// PMNotable's parseControlJSON for one launch: for each notification, the launch counter
    /// goes up, then the conditions are checked. Returns every id that could be the one shown
    /// (conditions hold and the entry names a view); which one is shown depends on dictionary
    /// order. The device's records are updated as the client would for the launch counters.
    static func notableLaunch(_ control: Data, device: inout Device, now: Date) -> Set<String> {
        guard let json = try? JSONSerialization.jsonObject(with: control, options: [.fragmentsAllowed]) as? [String: Any] else { return [] }
        var candidates: Set<String> = []
        for (id, value) in json {
            var record = device.notable[id] ?? NotableRecord()
            record.launches += 1
            device.notable[id] = record
            guard let notification = value as? [String: Any] else { continue }
            let conditions = notification["conditions"] as? [String: Any] ?? [:]
            let all = conditions["all"] as? [String: Any] ?? [:]
            let any = conditions["any"] as? [String: Any] ?? [:]
            let allHold = all.allSatisfy { satisfied($0.key, $0.value, record: record, device: device, now: now) }
            let anyHolds = any.isEmpty || any.contains { satisfied($0.key, $0.value, record: record, device: device, now: now) }
            let views = notification["views"] as? [String: Any] ?? [:]
            if allHold, anyHolds, let entry = notification["entry"] as? String, views[entry] != nil {
                candidates.insert(id)
            }
        }
        return candidates
    }

    /// PMNotableNotificationCondition's `satisfied`.
    static func satisfied(_ key: String, _ value: Any, record: NotableRecord, device: Device, now: Date) -> Bool {
        func bool() -> Bool { (value as? NSNumber)?.boolValue ?? false }
        func integer() -> Int { (value as? NSNumber)?.intValue ?? 0 }
        func lessThan(_ mine: String) -> Bool { mine.compare(value as? String ?? "", options: .numeric) == .orderedAscending }
        switch key {
        case "onWifi": return device.wifi == bool()
        case "neverDisplayed": return record.displayed != bool()
        case "lastDisplayMinimumSeconds":
            // timeIntervalSinceDate: with no date is the interval since the reference date.
            let interval = now.timeIntervalSinceReferenceDate - (record.lastDisplay?.timeIntervalSinceReferenceDate ?? 0)
            return Int(interval) > integer()
        case "lastDisplayMinimumLaunches": return record.launches > integer()
        case "flagNotSet": return !record.flags.contains(value as? String ?? "")
        case "iOSVersionLessThan": return lessThan(device.systemVersion)
        case "appVersionLessThan": return lessThan(device.build)
        default: return false
        }
    }

    /// iNotify at launch: shouldCheckForNotifications, then setNotificationsDict's filters,
    /// nextNotificationInDict (newest last), and the ActionURL check of
    /// downloadedNotificationsData. Returns the key of the alert shown, or nil.
    static func iNotifyLaunch(_ plist: Data, device: inout Device, now: Date) -> String? {
        guard let ignored = device.ignored else {
            device.ignored = []
            return nil
        }
        if let reminded = device.lastReminded {
            if now.timeIntervalSince(reminded) < 1 * 86_400 { return nil }
        } else if let checked = device.lastChecked, now.timeIntervalSince(checked) < 0.5 * 86_400 {
            return nil
        }
        device.lastChecked = now
        guard let all = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: [String: String]] else {
            return nil
        }
        var messages = all
        for key in ignored + device.viewed { messages[key] = nil }
        for (key, message) in messages {
            let tooOld = message["MinVersion"].map { device.shortVersion.compare($0, options: .numeric) == .orderedAscending } ?? false
            let tooNew = message["MaxVersion"].map { device.shortVersion.compare($0, options: .numeric) == .orderedDescending } ?? false
            if tooOld || tooNew { messages[key] = nil }
        }
        guard let key = messages.keys.sorted(by: { $0.caseInsensitiveCompare($1) == .orderedAscending }).last else { return nil }
        if let url = messages[key]?["ActionURL"] {
            guard let scheme = URL(string: url)?.scheme?.lowercased(), device.openableSchemes.contains(scheme) else { return nil }
        }
        return key
    }
}


// HeraldLocalNotifications: Herald's device client for local campaigns (Foundation only: drop
// this one file into an iOS app; UserNotifications is used behind `#if canImport`, and the rest
// also runs on Linux, where Herald's tests run it against an in-memory notification center).
//
//     // On launch, and whenever the app runs (a background refresh), for the app's locale:
//     let data = try await URLSession.shared.data(from: URL(string:
//         "https://static.example.com/acme/weather/de/local-notifications.plist")!).0
//     let report = try await HeraldLocalNotificationSync.sync(
//         file: data, center: UserNotificationCenterAdapter(.current()))
//     for key in report.leftOut { print("not scheduled (over iOS's 64): \(key)") }
//
// What it does with the file (`local-notifications.plist`, or the same as `.json`; docs/
// published-files.md), each entry a UILocalNotification's properties by their names:
// - It schedules the entries not pending yet, replaces the pending ones that changed (a
//   fingerprint in the request's userInfo says what was scheduled), and cancels, by the
//   campaign key in `userInfo["key"]`, those the file no longer lists (seed 004's cancel loop).
//   A file that is unchanged changes nothing.
// - It never touches a notification the app scheduled itself: Herald's are those whose
//   identifier is `herald.` + the `userInfo` key.
// - iOS keeps at most 64 pending local notifications per app (the soonest; a 65th is dropped
//   without a word). The client keeps within them, counting the app's own: the soonest entries
//   first (by their next fire time; a repeating one counts once), and says which it left out.
// - `timeZone` absent: `fireDate` is an instant. `timeZone` "device": `fireDate` holds a
//   wall-clock time (its fields read in UTC) that stays on the device's clock wherever it goes:
//   09:00 in Berlin is 09:00 in New York after the flight.
// - A one-off entry whose time has passed on this device is skipped (UNCalendarNotificationTrigger
//   would never fire it). A repeating one repeats by its calendar unit from its fireDate on; as
//   UNCalendarNotificationTrigger repeats from now, an entry whose first fire is more than one
//   interval away is scheduled as that first fire alone, and as the repeating request by the
//   first sync after it.

import Foundation

#if canImport(UserNotifications)
    import UserNotifications
#endif

/// One entry of the file: a local notification, by UILocalNotification's property names.
public struct HeraldLocalNotification: Equatable, Sendable {
    /// `repeatInterval`: the calendar unit it repeats by.
    public enum Repeat: String, CaseIterable, Sendable {
        case minute, hour, day, week, month, year
    }

    /// `soundName`: the system's sound (`default`, UILocalNotificationDefaultSoundName) or a
    /// sound file of the app's bundle.
    public enum Sound: Equatable, Sendable {
        case systemDefault
        case named(String)
    }

    /// The campaign key (`userInfo["key"]`): the notification's identity, never reused.
    public var key: String
    /// `fireDate`: the instant, or with `wallClock` the wall-clock time's fields read in UTC.
    public var fireDate: Date
    /// `timeZone` "device": `fireDate` is a time on the device's own clock.
    public var wallClock: Bool
    public var repeatInterval: Repeat?
    public var alertBody: String
    /// nil: iOS's own label (View).
    public var alertAction: String?
    public var hasAction: Bool
    public var alertLaunchImage: String?
    /// nil leaves the badge as it is; 0 removes it.
    public var applicationIconBadgeNumber: Int?
    /// nil: silent.
    public var sound: Sound?
    /// Every pair, `key` included.
    public var userInfo: [String: String]

    public init(
        key: String, fireDate: Date, wallClock: Bool, repeatInterval: Repeat? = nil, alertBody: String, alertAction: String? = nil,
        hasAction: Bool = true, alertLaunchImage: String? = nil, applicationIconBadgeNumber: Int? = nil, sound: Sound? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.key = key
        self.fireDate = fireDate
        self.wallClock = wallClock
        self.repeatInterval = repeatInterval
        self.alertBody = alertBody
        self.alertAction = alertAction
        self.hasAction = hasAction
        self.alertLaunchImage = alertLaunchImage
        self.applicationIconBadgeNumber = applicationIconBadgeNumber
        self.sound = sound
        var pairs = userInfo
        pairs["key"] = key
        self.userInfo = pairs
    }

    /// The identifier of its request: `herald.<key>`.
    public var identifier: String { HeraldLocalNotificationSync.identifierPrefix + key }
}

/// Reads a published file: the plist, or the same content as JSON.
public enum HeraldLocalNotificationsFile {
    public struct Contents: Equatable, Sendable {
        public var entries: [HeraldLocalNotification]
        /// Entries that could not be read, each with why (they are left alone).
        public var problems: [String]
    }

    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case unreadable(String)

        public var description: String { "not a local-notifications file: \(reason)" }

        /// What is wrong, without saying of what.
        public var reason: String {
            switch self {
            case .unreadable(let why): why
            }
        }
    }

    /// A file that is not a list of entries at all throws (nothing should change then); a
    /// bad entry is reported in `problems` and left out.
    public static func read(_ data: Data) throws -> Contents {
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let root: Any
        let json = first == UInt8(ascii: "[")
        do {
            root =
                json
                ? try JSONSerialization.jsonObject(with: data) : try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ReadError.unreadable(json ? "its JSON does not parse" : "its property list does not parse")
        }
        guard let items = root as? [Any] else { throw ReadError.unreadable("its root is not a list") }
        var contents = Contents(entries: [], problems: [])
        var keys: Set<String> = []
        for (index, item) in items.enumerated() {
            do throws(ReadError) {
                let entry = try self.entry(item, json: json)
                guard keys.insert(entry.key).inserted else {
                    contents.problems.append("entry \(index): key \(entry.key) is listed twice; the first is kept")
                    continue
                }
                contents.entries.append(entry)
            } catch {
                contents.problems.append("entry \(index): \(error.reason)")
            }
        }
        return contents
    }

    private static func entry(_ item: Any, json: Bool) throws(ReadError) -> HeraldLocalNotification {
        guard let fields = item as? [String: Any] else { throw .unreadable("not a dictionary") }
        guard let pairs = fields["userInfo"] as? [String: Any], let key = pairs["key"] as? String, !key.isEmpty else {
            throw .unreadable("no userInfo key")
        }
        guard let body = fields["alertBody"] as? String else { throw .unreadable("no alertBody") }
        let wallClock: Bool
        switch fields["timeZone"] {
        case nil: wallClock = false
        case let zone as String where zone == "device": wallClock = true
        default: throw .unreadable("timeZone is neither absent nor \"device\"")
        }
        let fireDate: Date
        if json {
            guard let text = fields["fireDate"] as? String, let date = Self.date(json: text, wallClock: wallClock) else {
                throw .unreadable("fireDate is not a time")
            }
            fireDate = date
        } else {
            guard let date = fields["fireDate"] as? Date else { throw .unreadable("fireDate is not a date") }
            fireDate = date
        }
        var repeatInterval: HeraldLocalNotification.Repeat?
        if let unit = fields["repeatInterval"] {
            guard let text = unit as? String, let parsed = HeraldLocalNotification.Repeat(rawValue: text) else {
                throw .unreadable("repeatInterval is not a calendar unit")
            }
            repeatInterval = parsed
        }
        var sound: HeraldLocalNotification.Sound?
        if let name = fields["soundName"] {
            guard let text = name as? String, !text.isEmpty else { throw .unreadable("soundName is not a name") }
            sound = text == "default" ? .systemDefault : .named(text)
        }
        var userInfo: [String: String] = [:]
        for (name, value) in pairs {
            guard let text = value as? String else { throw .unreadable("userInfo \(name) is not text") }
            userInfo[name] = text
        }
        return HeraldLocalNotification(
            key: key, fireDate: fireDate, wallClock: wallClock, repeatInterval: repeatInterval, alertBody: body,
            alertAction: fields["alertAction"] as? String, hasAction: Self.bool(fields["hasAction"]) ?? true,
            alertLaunchImage: fields["alertLaunchImage"] as? String, applicationIconBadgeNumber: Self.integer(fields["applicationIconBadgeNumber"]),
            sound: sound, userInfo: userInfo)
    }

    /// `2026-12-24T08:00:00Z` (an instant) or `2026-12-24T09:00:00` (wall-clock, read as UTC).
    static func date(json text: String, wallClock: Bool) -> Date? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
        guard parts.count == 6, parts.allSatisfy({ $0 != nil }), text.hasSuffix("Z") != wallClock else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts[5])
        return HeraldLocalNotificationSync.utcCalendar.date(from: components)
    }

    private static func bool(_ value: Any?) -> Bool? {
        if let flag = value as? Bool { return flag }
        return (value as? NSNumber)?.boolValue
    }

    private static func integer(_ value: Any?) -> Int? {
        if let number = value as? Int { return number }
        return (value as? NSNumber)?.intValue
    }
}

/// A calendar trigger, as UNCalendarNotificationTrigger holds one: the date components it
/// matches (with a time zone for an instant; without one, the device's zone at each moment)
/// and whether it repeats.
public struct HeraldCalendarTrigger: Equatable, Sendable {
    public var dateComponents: DateComponents
    public var repeats: Bool

    public init(dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        self.repeats = repeats
    }

    /// When it fires next after `date` on a device in `deviceTimeZone` (nil: never again).
    /// A time that a daylight-saving change skips fires at the same minutes past the next
    /// hour that exists; a time that occurs twice fires at the first.
    public func nextTriggerDate(after date: Date, deviceTimeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = dateComponents.timeZone ?? deviceTimeZone
        var match = dateComponents
        match.timeZone = nil
        match.calendar = nil
        if !repeats, let year = match.year, let month = match.month, let day = match.day {
            // One moment: its day's first match of the time (searching year by year is slow and needless).
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
            let time = DateComponents(hour: match.hour ?? 0, minute: match.minute ?? 0, second: match.second ?? 0)
            guard
                let found = calendar.nextDate(
                    after: start.addingTimeInterval(-1), matching: time, matchingPolicy: .nextTimePreservingSmallerComponents),
                found > date
            else { return nil }
            return found
        }
        return calendar.nextDate(after: date, matching: match, matchingPolicy: .nextTimePreservingSmallerComponents)
    }
}

/// A pending local notification request, as the center holds it (UNNotificationRequest's
/// parts Herald uses). The app's own requests come back in the same shape.
public struct HeraldNotificationRequest: Equatable, Sendable {
    public var identifier: String
    public var body: String
    public var badge: Int?
    public var sound: HeraldLocalNotification.Sound?
    public var launchImageName: String?
    /// Text pairs only (a request of the app's own may hold others, which do not matter here).
    public var userInfo: [String: String]
    public var trigger: HeraldCalendarTrigger
    /// alertAction and hasAction: not UNNotificationContent's (iOS 10 on draws no "slide to"
    /// action); kept for apps that map them to a category of their own.
    public var action: String?
    public var hasAction: Bool

    public init(
        identifier: String, body: String, badge: Int? = nil, sound: HeraldLocalNotification.Sound? = nil, launchImageName: String? = nil,
        userInfo: [String: String] = [:], trigger: HeraldCalendarTrigger, action: String? = nil, hasAction: Bool = true
    ) {
        self.identifier = identifier
        self.body = body
        self.badge = badge
        self.sound = sound
        self.launchImageName = launchImageName
        self.userInfo = userInfo
        self.trigger = trigger
        self.action = action
        self.hasAction = hasAction
    }

    /// Herald's own: `herald.<key>`, with that key in `userInfo`.
    public var isHerald: Bool {
        guard let key = userInfo["key"] else { return false }
        return identifier == HeraldLocalNotificationSync.identifierPrefix + key
    }
}

/// Where requests are kept: UNUserNotificationCenter on a device (`UserNotificationCenterAdapter`),
/// an in-memory one in tests.
public protocol HeraldNotificationCenter: Sendable {
    func pendingRequests() async -> [HeraldNotificationRequest]
    /// Adds `request`; one with the same identifier is replaced.
    func add(_ request: HeraldNotificationRequest) async throws
    func removePendingRequests(withIdentifiers identifiers: [String]) async
}

/// Brings the pending requests in line with a file.
public enum HeraldLocalNotificationSync {
    /// iOS keeps at most this many pending local notifications per app.
    public static let pendingLimit = 64
    public static let identifierPrefix = "herald."
    /// The userInfo pair that says what a request was made from.
    public static let fingerprintKey = "heraldFingerprint"

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// One entry as the plan places it.
    public struct Item: Equatable, Sendable {
        public var key: String
        public var request: HeraldNotificationRequest
        /// When it fires next on this device.
        public var nextFire: Date
    }

    public struct Plan: Equatable, Sendable {
        /// Not pending yet.
        public var schedule: [Item] = []
        /// Pending, but made from another version of the entry.
        public var replace: [Item] = []
        /// Pending as the entry says.
        public var keep: [Item] = []
        /// Herald's pending requests the file no longer lists (or that are left out or past
        /// now), by identifier.
        public var cancel: [String] = []
        /// Entries over the 64 (with the app's own), the soonest kept: by key, soonest first.
        public var leftOut: [Item] = []
        /// One-off entries whose time has passed on this device, by key.
        public var past: [String] = []
        /// Entries of the file that could not be read.
        public var problems: [String] = []

        /// Whether carrying it out changes nothing.
        public var changesNothing: Bool { schedule.isEmpty && replace.isEmpty && cancel.isEmpty }
    }

    /// What a sync did.
    public struct Report: Equatable, Sendable {
        public var scheduled: [String]
        public var replaced: [String]
        public var cancelled: [String]
        public var kept: [String]
        /// Keys left out to keep within the 64, soonest first.
        public var leftOut: [String]
        public var past: [String]
        public var problems: [String]
    }

    /// Reads `file` and brings `center` in line with it. A file that does not read changes nothing (it throws).
    public static func sync(
        file: Data, center: some HeraldNotificationCenter, now: Date = Date(), timeZone: TimeZone = .current
    ) async throws -> Report {
        let contents = try HeraldLocalNotificationsFile.read(file)
        var plan = self.plan(contents.entries, pending: await center.pendingRequests(), now: now, timeZone: timeZone)
        plan.problems = contents.problems
        return try await carryOut(plan, on: center)
    }

    /// What bringing `pending` in line with `entries` takes, at `now` on a device in `timeZone`.
    public static func plan(
        _ entries: [HeraldLocalNotification], pending: [HeraldNotificationRequest], now: Date, timeZone: TimeZone,
        limit: Int = pendingLimit
    ) -> Plan {
        var plan = Plan()
        var candidates: [Item] = []
        for entry in entries {
            guard let (request, next) = request(for: entry, now: now, timeZone: timeZone) else {
                plan.past.append(entry.key)
                continue
            }
            candidates.append(Item(key: entry.key, request: request, nextFire: next))
        }
        candidates.sort { ($0.nextFire, $0.key) < ($1.nextFire, $1.key) }
        let own = pending.filter { !$0.isHerald }.count
        let room = max(0, limit - own)
        let wanted = candidates.prefix(room)
        plan.leftOut = Array(candidates.dropFirst(room))
        var herald: [String: HeraldNotificationRequest] = [:]
        for request in pending where request.isHerald { herald[request.identifier] = request }
        for item in wanted {
            if let current = herald.removeValue(forKey: item.request.identifier) {
                if current.userInfo[fingerprintKey] == item.request.userInfo[fingerprintKey] {
                    plan.keep.append(item)
                } else {
                    plan.replace.append(item)
                }
            } else {
                plan.schedule.append(item)
            }
        }
        plan.cancel = herald.keys.sorted()
        return plan
    }

    /// Carries `plan` out: cancels first (making room), then adds the soonest first.
    public static func carryOut(_ plan: Plan, on center: some HeraldNotificationCenter) async throws -> Report {
        let replaced = plan.replace.map(\.request.identifier)
        if !plan.cancel.isEmpty || !replaced.isEmpty {
            await center.removePendingRequests(withIdentifiers: plan.cancel + replaced)
        }
        let added = (plan.schedule + plan.replace).sorted { ($0.nextFire, $0.key) < ($1.nextFire, $1.key) }
        for item in added { try await center.add(item.request) }
        let prefix = identifierPrefix.count
        return Report(
            scheduled: plan.schedule.map(\.key), replaced: plan.replace.map(\.key),
            cancelled: plan.cancel.map { String($0.dropFirst(prefix)) }, kept: plan.keep.map(\.key), leftOut: plan.leftOut.map(\.key),
            past: plan.past, problems: plan.problems)
    }

    /// The request for `entry` on a device in `timeZone` at `now`, and when it fires next;
    /// nil when it fires no more (a one-off whose time has passed).
    public static func request(for entry: HeraldLocalNotification, now: Date, timeZone: TimeZone) -> (HeraldNotificationRequest, Date)? {
        let fields = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: entry.fireDate)
        var full = DateComponents(
            year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute, second: fields.second)
        // An instant is the same moment on every device: matched in UTC. Wall-clock time has no
        // zone: matched on the device's clock, wherever it is.
        if !entry.wallClock { full.timeZone = utcCalendar.timeZone }
        let once = HeraldCalendarTrigger(dateComponents: full, repeats: false)
        var trigger = once
        var next = once.nextTriggerDate(after: now, deviceTimeZone: timeZone)
        if let interval = entry.repeatInterval {
            var repeating = DateComponents(second: fields.second)
            switch interval {
            case .minute: break
            case .hour: repeating.minute = fields.minute
            case .day: (repeating.hour, repeating.minute) = (fields.hour, fields.minute)
            case .week: (repeating.weekday, repeating.hour, repeating.minute) = (fields.weekday, fields.hour, fields.minute)
            case .month: (repeating.day, repeating.hour, repeating.minute) = (fields.day, fields.hour, fields.minute)
            case .year:
                (repeating.month, repeating.day, repeating.hour, repeating.minute) = (fields.month, fields.day, fields.hour, fields.minute)
            }
            repeating.timeZone = full.timeZone
            let every = HeraldCalendarTrigger(dateComponents: repeating, repeats: true)
            let match = every.nextTriggerDate(after: now, deviceTimeZone: timeZone)
            // Repeating from now would fire before the first time: that first time alone, for now.
            if let next, let match, match < next {
                trigger = once
            } else {
                trigger = every
                next = match
            }
        }
        guard let next else { return nil }
        var userInfo = entry.userInfo
        userInfo["key"] = entry.key
        var request = HeraldNotificationRequest(
            identifier: entry.identifier, body: entry.alertBody, badge: entry.applicationIconBadgeNumber, sound: entry.sound,
            launchImageName: entry.alertLaunchImage, userInfo: userInfo, trigger: trigger, action: entry.hasAction ? entry.alertAction : nil,
            hasAction: entry.hasAction)
        request.userInfo[fingerprintKey] = fingerprint(request)
        return (request, next)
    }

    /// What a request is made of, as a short hex digest (FNV-1a, 64 bits): equal for equal
    /// requests in any process, so a pending request tells whether it is the one the file
    /// asks for now.
    static func fingerprint(_ request: HeraldNotificationRequest) -> String {
        let components = request.trigger.dateComponents
        let parts: [String] = [
            request.identifier, request.body, request.badge.map(String.init) ?? "-",
            request.sound.map { if case .named(let name) = $0 { "named:" + name } else { "default" } } ?? "-",
            request.launchImageName ?? "-", request.action ?? "-", request.hasAction ? "action" : "no-action",
            request.userInfo.filter { $0.key != fingerprintKey }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"),
            [components.year, components.month, components.day, components.weekday, components.hour, components.minute, components.second]
                .map { $0.map(String.init) ?? "*" }.joined(separator: ","),
            components.timeZone?.identifier ?? "device", request.trigger.repeats ? "repeats" : "once",
        ]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

#if canImport(UserNotifications)
    /// UNUserNotificationCenter as a `HeraldNotificationCenter`: Herald's requests become
    /// UNNotificationRequests with UNMutableNotificationContent (body, sound, badge, userInfo,
    /// launchImageName) and a UNCalendarNotificationTrigger. `configure` lets the app add what
    /// Herald does not set (a category for the action, a title).
    public struct UserNotificationCenterAdapter: HeraldNotificationCenter, @unchecked Sendable {
        public let center: UNUserNotificationCenter
        public let configure: @Sendable (UNMutableNotificationContent, HeraldNotificationRequest) -> Void

        public init(
            _ center: UNUserNotificationCenter,
            configure: @escaping @Sendable (UNMutableNotificationContent, HeraldNotificationRequest) -> Void = { _, _ in }
        ) {
            self.center = center
            self.configure = configure
        }

        public func pendingRequests() async -> [HeraldNotificationRequest] {
            await center.pendingNotificationRequests().map { pending in
                var userInfo: [String: String] = [:]
                for (name, value) in pending.content.userInfo {
                    if let name = name as? String, let text = value as? String { userInfo[name] = text }
                }
                let calendar = pending.trigger as? UNCalendarNotificationTrigger
                return HeraldNotificationRequest(
                    identifier: pending.identifier, body: pending.content.body, badge: pending.content.badge?.intValue,
                    launchImageName: pending.content.launchImageName, userInfo: userInfo,
                    trigger: HeraldCalendarTrigger(dateComponents: calendar?.dateComponents ?? DateComponents(), repeats: pending.trigger?.repeats ?? false))
            }
        }

        public func add(_ request: HeraldNotificationRequest) async throws {
            let content = UNMutableNotificationContent()
            content.body = request.body
            content.userInfo = request.userInfo
            if let badge = request.badge { content.badge = NSNumber(value: badge) }
            switch request.sound {
            case .systemDefault?: content.sound = .default
            case .named(let name)?: content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
            case nil: break
            }
            if let image = request.launchImageName { content.launchImageName = image }
            configure(content, request)
            let trigger = UNCalendarNotificationTrigger(dateMatching: request.trigger.dateComponents, repeats: request.trigger.repeats)
            try await center.add(UNNotificationRequest(identifier: request.identifier, content: content, trigger: trigger))
        }

        public func removePendingRequests(withIdentifiers identifiers: [String]) async {
            center.removePendingNotificationRequests(withIdentifiers: identifiers)
        }
    }
#endif

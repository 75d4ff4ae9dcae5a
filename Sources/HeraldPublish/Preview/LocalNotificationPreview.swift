import Foundation
import HeraldCore
import HeraldLocalNotifications

/// What a device's local notifications would become from a locale's published file: what
/// Herald's client (clients/HeraldLocalNotifications.swift) schedules, replaces and cancels,
/// decided by the client's own plan, with the next fire times on the device's clock.
public struct LocalSchedulePreview: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public let campaign: String
        /// The next fire time, an instant.
        public let nextFire: Date
        /// The same on the device's clock: `2026-12-24T09:00:00+01:00`.
        public let nextFireLocal: String
        /// The calendar unit it repeats by, if it does.
        public let repeats: String?
    }

    /// The device's zone (IANA name).
    public var timeZone: String
    public var schedule: [Item] = []
    /// Pending already: re-added, which replaces the pending one (the client skips it when
    /// what is pending is what the file says).
    public var replace: [Item] = []
    /// Herald's pending notifications the file no longer lists, by campaign key.
    public var cancel: [String] = []
    /// Over iOS's 64 pending (with the app's own): not scheduled, soonest first.
    public var leftOut: [Item] = []
    /// One-off notifications whose time has passed on this device.
    public var past: [String] = []
    /// Entries the client cannot read.
    public var problems: [String] = []
}

/// The device side of a local notifications preview: which of Herald's notifications it has
/// pending (by campaign key; what they hold is not known, so each is replaced), how many of its
/// own the app has, and its zone.
public struct LocalDeviceState: Sendable {
    public var timeZone: TimeZone
    public var pending: [String]
    public var ownPending: Int

    /// iOS's limit on an app's pending local notifications.
    public static let pendingLimit = HeraldLocalNotificationSync.pendingLimit

    public init(timeZone: TimeZone, pending: [String] = [], ownPending: Int = 0) {
        self.timeZone = timeZone
        self.pending = pending
        self.ownPending = ownPending
    }
}

enum LocalNotificationPreview {
    /// The plan for `file` (a locale's `local-notifications.plist`); nil when it does not read.
    static func plan(file: [UInt8], device: LocalDeviceState, at: Date) -> LocalSchedulePreview? {
        guard let contents = try? HeraldLocalNotificationsFile.read(Data(file)) else { return nil }
        let trigger = HeraldCalendarTrigger(dateComponents: DateComponents(year: 2000, month: 1, day: 1), repeats: false)
        var pending = device.pending.map { key in
            // Content unknown: a fingerprint no entry has.
            HeraldNotificationRequest(
                identifier: HeraldLocalNotificationSync.identifierPrefix + key, body: "",
                userInfo: ["key": key, HeraldLocalNotificationSync.fingerprintKey: "unknown"], trigger: trigger)
        }
        pending += (0..<max(0, device.ownPending)).map { index in
            HeraldNotificationRequest(identifier: "app.own.\(index)", body: "", trigger: trigger)
        }
        let plan = HeraldLocalNotificationSync.plan(contents.entries, pending: pending, now: at, timeZone: device.timeZone)
        let repeats = Dictionary(contents.entries.map { ($0.key, $0.repeatInterval?.rawValue) }, uniquingKeysWith: { first, _ in first })
        func item(_ planned: HeraldLocalNotificationSync.Item) -> LocalSchedulePreview.Item {
            LocalSchedulePreview.Item(
                campaign: planned.key, nextFire: planned.nextFire, nextFireLocal: Self.local(planned.nextFire, in: device.timeZone),
                repeats: repeats[planned.key] ?? nil)
        }
        let prefix = HeraldLocalNotificationSync.identifierPrefix.count
        var preview = LocalSchedulePreview(timeZone: device.timeZone.identifier)
        preview.schedule = plan.schedule.map(item)
        preview.replace = (plan.replace + plan.keep).map(item).sorted { ($0.nextFire, $0.campaign) < ($1.nextFire, $1.campaign) }
        preview.cancel = plan.cancel.map { String($0.dropFirst(prefix)) }
        preview.leftOut = plan.leftOut.map(item)
        preview.past = plan.past
        preview.problems = contents.problems
        return preview
    }

    /// `date` on a clock in `zone`, ISO 8601 with the zone's offset then.
    static func local(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let shifted = Timestamp.format(date.addingTimeInterval(Double(offset))).dropLast()  // without the Z
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(shifted)\(sign)\(Timestamp.zeroPadded(minutes / 60, 2)):\(Timestamp.zeroPadded(minutes % 60, 2))"
    }
}

/// When a local notification fires, as Herald's client schedules it (its own trigger rules:
/// wall-clock times on the device's clock, instants everywhere at once, DST as iOS does).
public enum LocalFireTimes {
    /// The next `count` fire instants after `after` on a device in `timeZone`, each with its
    /// local reading (`2026-12-24T09:00:00+01:00`); empty when it fires no more.
    public static func next(
        _ notification: LocalNotification, key: Slug, after: Date, timeZone: TimeZone, count: Int = 3
    ) -> [(instant: Date, local: String)] {
        let entry = HeraldLocalNotification(
            key: key.rawValue, fireDate: notification.fireDate.utcReading, wallClock: notification.fireDate.isWallClock,
            repeatInterval: notification.repeatInterval.flatMap { HeraldLocalNotification.Repeat(rawValue: $0.rawValue) },
            alertBody: "")
        var found: [(Date, String)] = []
        var now = after
        while found.count < count, let (_, next) = HeraldLocalNotificationSync.request(for: entry, now: now, timeZone: timeZone) {
            found.append((next, LocalNotificationPreview.local(next, in: timeZone)))
            guard notification.repeatInterval != nil else { break }
            now = next
        }
        return found
    }
}

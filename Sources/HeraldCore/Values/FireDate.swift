import Foundation

/// When a local notification fires: UILocalNotification's `fireDate` with its `timeZone`.
///
/// - `instant`: one moment everywhere (`timeZone` nil, "fires after a period of time", seed
///   004): written with a zone, `2026-12-24T08:00:00Z` or `2026-12-24T09:00:00+01:00`.
/// - `wallClock`: a time on the device's own clock, wherever the device is (`timeZone` set to
///   the device's): written without a zone, `2026-12-24T09:00`. 09:00 stays 09:00 after the
///   device moves from Berlin to New York.
public enum FireDate: Hashable, Sendable, CustomStringConvertible {
    case instant(Date)
    case wallClock(WallClockTime)

    /// Whether it is a time on each device's own clock (`timeZone` "device").
    public var isWallClock: Bool {
        if case .wallClock = self { return true }
        return false
    }

    /// How to write one, for messages that refuse a time.
    public static let forms =
        "use 2026-12-24T09:00 (09:00 on each device's own clock, wherever it is) or a time with a zone, "
        + "2026-12-24T09:00:00Z or 2026-12-24T09:00:00+01:00 (one instant everywhere); whole seconds, from 1970 to 9999"

    public init(_ text: String) throws(ValidationError) {
        var copy = text
        guard let parsed = copy.withUTF8({ TimeText($0, zoneRequired: false) }) else {
            throw ValidationError(message: "fire time \(quote(text)) is not a time: \(Self.forms)")
        }
        guard let second = parsed.secondOfDay else {
            throw ValidationError(
                message: "fire time \(quote(text)) is a day without a time of day: give one, e.g. \(parsed.day)T09:00 "
                    + "(09:00 on each device's clock) or \(parsed.day)T09:00:00Z (one instant)")
        }
        guard parsed.nanoseconds == 0 else {
            throw ValidationError(message: "fire time \(quote(text)) has a fraction of a second: iOS fires to the second; give whole seconds")
        }
        if parsed.hasZone {
            self = .instant(Date(timeIntervalSince1970: Double(parsed.epochSeconds)))
        } else {
            self = .wallClock(WallClockTime(day: parsed.day, secondOfDay: second))
        }
    }

    /// `2026-12-24T08:00:00Z` for an instant, `2026-12-24T09:00:00` (no zone) for wall-clock
    /// time: how campaigns files, `--json` and messages write it; `init` reads it back.
    public var description: String {
        switch self {
        case .instant(let date): Timestamp.format(date)
        case .wallClock(let time): time.description
        }
    }

    /// The time as a property list `<date>` holds it (always UTC): the instant itself, or the
    /// wall-clock time's fields read as UTC (`timeZone` says which).
    public var utcReading: Date {
        switch self {
        case .instant(let date): date
        case .wallClock(let time): time.readAsUTC
        }
    }

    /// The first instant it can be anywhere: on a device in the zone furthest ahead (UTC+14).
    public var earliestInstant: Date {
        switch self {
        case .instant(let date): date
        case .wallClock(let time): time.readAsUTC.addingTimeInterval(-14 * 3_600)
        }
    }

    /// The last instant it can be anywhere: on a device in the zone furthest behind (UTC-12).
    public var latestInstant: Date {
        switch self {
        case .instant(let date): date
        case .wallClock(let time): time.readAsUTC.addingTimeInterval(12 * 3_600)
        }
    }

    /// Whether the two can fire within `seconds` of each other on one device: two instants,
    /// or two wall-clock times, when that close; an instant and a wall-clock time when they are
    /// in some zone of the world (offsets from UTC-12 to UTC+14, in quarter hours).
    public func canFire(within seconds: TimeInterval, of other: FireDate) -> Bool {
        switch (self, other) {
        case (.instant(let a), .instant(let b)): return abs(a.timeIntervalSince(b)) <= seconds
        case (.wallClock(let a), .wallClock(let b)): return abs(a.readAsUTC.timeIntervalSince(b.readAsUTC)) <= seconds
        case (.instant(let instant), .wallClock(let time)), (.wallClock(let time), .instant(let instant)):
            // On a device at offset o, the wall-clock time fires at readAsUTC - o.
            let gap = time.readAsUTC.timeIntervalSince(instant)
            let offset = min(max((gap / 900).rounded() * 900, -12 * 3_600), 14 * 3_600)
            return abs(gap - offset) <= seconds
        }
    }

    /// In words: "2026-12-24 09:00 on each device's clock" or "2026-12-24T08:00:00Z (one instant)".
    public var words: String {
        switch self {
        case .instant(let date): "\(Timestamp.format(date)), one instant everywhere"
        case .wallClock(let time): "\(time.description.replacingOccurrences(of: "T", with: " ")) on each device's own clock"
        }
    }
}

/// A date and time of day without a zone (`2026-12-24T09:00:00`): a wall-clock time.
public struct WallClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let day: UTCDay
    /// 0 ..< 86,400.
    public let secondOfDay: Int

    public init(day: UTCDay, secondOfDay: Int) {
        self.day = day
        self.secondOfDay = min(max(secondOfDay, 0), 86_399)
    }

    /// Year, month, day, hour, minute and second.
    public var fields: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let (year, month, dayOfMonth) = day.date
        return (year, month, dayOfMonth, secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// These fields read as a UTC time.
    public var readAsUTC: Date {
        Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400 + Double(secondOfDay))
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        let (_, _, _, hour, minute, second) = fields
        return "\(day)T\(Timestamp.zeroPadded(hour, 2)):\(Timestamp.zeroPadded(minute, 2)):\(Timestamp.zeroPadded(second, 2))"
    }

    public static func < (lhs: WallClockTime, rhs: WallClockTime) -> Bool {
        (lhs.day, lhs.secondOfDay) < (rhs.day, rhs.secondOfDay)
    }
}

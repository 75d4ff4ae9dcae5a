/// A calendar day in UTC, kept as days since 1970-01-01: the one place where dates become
/// numbers and numbers dates (Howard Hinnant's civil-date algorithms), for the time parser,
/// the event store's days and months, and day arithmetic on the command line.
public struct UTCDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let daysSince1970: Int

    public init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The day `year`-`month`-`day`, or nil when there is no such date (2026-02-29, 2026-04-31).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSince1970 = era * 146_097 + dayOfEra - 719_468
    }

    /// A day written `YYYY-MM-DD` and nothing else (read by `TimeText`, like every time given to Herald).
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ TimeText($0) }), parsed.secondOfDay == nil else { return nil }
        self = parsed.day
    }

    /// Year, month (1–12) and day of the month.
    public var date: (year: Int, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * mp + 2) / 5 + 1)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = date
        return Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    public func adding(days: Int) -> UTCDay {
        UTCDay(daysSince1970: daysSince1970 + days)
    }

    public static func < (lhs: UTCDay, rhs: UTCDay) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}

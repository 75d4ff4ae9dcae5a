import Foundation

/// Times at Herald's edges: ISO 8601 UTC out (`2026-05-01T09:00:00Z`); in, ISO 8601 with a
/// zone (`Z`, `+02:00`, `+0200`) or a plain date meaning midnight UTC. Schedules are kept
/// to the whole second, so a time read from a file, a flag or the database compares exactly.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        var text = text
        guard let parsed = text.withUTF8({ TimeText($0) }) else { return nil }
        return Date(timeIntervalSince1970: Double(parsed.epochSeconds))  // whole seconds kept
    }

    /// Parses or explains what is expected.
    public static func parse(_ text: String, field: String) throws(ValidationError) -> Date {
        guard let date = parse(text) else {
            throw ValidationError(
                message: "\(field) \(quote(text)) is not a time: use ISO 8601 with a zone, e.g. 2026-05-01T09:00:00Z, or a date 2026-05-01 (UTC), from 1970-01-01 to 9999-12-31")
        }
        return date
    }

    public static func format(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        // "%04d-%02d-%02dT%02d:%02d:%02dZ" written out: String(format:) went through Foundation's
        // formatter, whose first use cost about 0.3 ms of every command that prints a time.
        return "\(zeroPadded(Int(parts.tm_year) + 1900, 4))-\(zeroPadded(Int(parts.tm_mon) + 1, 2))-\(zeroPadded(Int(parts.tm_mday), 2))"
            + "T\(zeroPadded(Int(parts.tm_hour), 2)):\(zeroPadded(Int(parts.tm_min), 2)):\(zeroPadded(Int(parts.tm_sec), 2))Z"
    }

    /// `value` as printf's `%0<width>d` writes it: the sign, then zeros up to `width` characters.
    public static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }
}

/// The one reader of times given to Herald as text: campaign files, command-line flags
/// (`Timestamp`, `UTCDay`) and event input (`EventTime`). ISO 8601:
///
///     YYYY-MM-DD                                         a day (midnight UTC)
///     YYYY-MM-DD(T| )HH:MM[:SS[.fraction]](Z|±HH|±HH:MM|±HHMM)
///
/// A real calendar date from 1970 on, hours below 24, minutes and seconds below 60, a
/// fraction of 1 to 9 digits, a zone within ±14:00: what PostgreSQL would also accept.
/// Each caller says which of the forms it takes (an event needs the seconds).
struct TimeText {
    let day: UTCDay
    /// Seconds since midnight as written (before the zone is applied); nil for a plain date.
    let secondOfDay: Int?
    /// Whether the seconds were written (`HH:MM:SS`), not only `HH:MM`.
    let hasSeconds: Bool
    /// The fraction of a second, in nanoseconds (0 without one).
    let nanoseconds: Int
    /// The zone's offset from UTC, in seconds (0 without a zone).
    let offsetSeconds: Int
    /// Whether a zone was written: only a local notification's wall-clock time (`FireDate`)
    /// may leave it out.
    let hasZone: Bool

    /// Seconds since 1970 (the fraction apart).
    var epochSeconds: Int64 {
        Int64(day.daysSince1970) * 86_400 + Int64((secondOfDay ?? 0) - offsetSeconds)
    }

    init?(_ b: UnsafeBufferPointer<UInt8>, zoneRequired: Bool = true) {
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 10, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let dayOfMonth = digits(8, 2), year >= 1970, let day = UTCDay(year: year, month: month, day: dayOfMonth)
        else { return nil }
        self.day = day
        guard b.count > 10 else {
            secondOfDay = nil
            hasSeconds = false
            nanoseconds = 0
            offsetSeconds = 0
            hasZone = false
            return
        }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let hour = digits(11, 2), b.count > 13, b[13] == UInt8(ascii: ":"),
            let minute = digits(14, 2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var nanoseconds = 0
        var index = 16
        hasSeconds = index < b.count && b[index] == UInt8(ascii: ":")
        if hasSeconds {
            guard let s = digits(index + 1, 2), s < 60 else { return nil }
            second = s
            index += 3
            if index < b.count, b[index] == UInt8(ascii: ".") {
                index += 1
                let start = index
                while index < b.count, b[index] >= 48, b[index] <= 57, index - start < 9 {
                    nanoseconds = nanoseconds * 10 + Int(b[index] - 48)
                    index += 1
                }
                guard index > start, index == b.count || b[index] < 48 || b[index] > 57 else { return nil }  // 1 to 9 digits
                for _ in (index - start)..<9 { nanoseconds *= 10 }
            }
        }
        self.nanoseconds = nanoseconds
        secondOfDay = hour * 3600 + minute * 60 + second
        guard index < b.count else {
            guard !zoneRequired else { return nil }  // a zone is required with a time
            offsetSeconds = 0
            hasZone = false
            return
        }
        hasZone = true
        if b[index] == UInt8(ascii: "Z") {
            guard index + 1 == b.count else { return nil }
            offsetSeconds = 0
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            let rest = b.count - index - 1
            guard let hours = digits(index + 1, 2), hours <= 14 else { return nil }
            var minutes = 0
            if rest == 5, b[index + 3] == UInt8(ascii: ":"), let m = digits(index + 4, 2) {
                minutes = m
            } else if rest == 4, let m = digits(index + 3, 2) {
                minutes = m
            } else if rest != 2 {
                return nil
            }
            guard minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
    }
}

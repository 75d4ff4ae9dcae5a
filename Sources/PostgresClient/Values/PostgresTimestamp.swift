import Foundation

/// timestamptz text in both directions. Sessions run with TimeZone=UTC and DateStyle=ISO
/// (set at connect), so the server writes `2026-11-23 01:02:03.123456+00`.
///
/// This is not a reader of input times (the application's own reader does that): it
/// decodes what the server sends on the wire, in the server's output format (zone offsets
/// to the second, microseconds kept), and PostgresClient knows nothing of its callers.
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = seconds.rounded(.down)
        var micros = Int(((seconds - whole) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        var time = time_t(whole)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), micros)
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`; nil for infinity or anything else.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// The same from the bytes of the text (any non-ASCII byte: nil, as the text would be).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 22, bytes.allSatisfy({ $0 < 0x80 }), bytes[4] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let offsetHours = number(index..<(index + 2)) else { return nil }
        index += 2
        var offsetSeconds = offsetHours * 3600
        if index < bytes.count, bytes[index] == UInt8(ascii: ":"), let minutes = number((index + 1)..<(index + 3)) {
            offsetSeconds += minutes * 60
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ":"), let seconds = number((index + 1)..<(index + 3)) {
                offsetSeconds += seconds
                index += 3
            }
        }
        guard index == bytes.count else { return nil }
        let epoch: Int
        if (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 {
            // What timegm gives for these fields, without its normalising search (it ran for
            // every timestamp of a read): days since 1970 in the proleptic Gregorian calendar
            // (Howard Hinnant's days_from_civil), then the time of day.
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            epoch = days * 86_400 + hour * 3600 + minute * 60 + second
        } else {
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            epoch = Int(timegm(&parts))
        }
        return Date(timeIntervalSince1970: Double(epoch) - Double(sign * offsetSeconds) + fraction)
    }
}

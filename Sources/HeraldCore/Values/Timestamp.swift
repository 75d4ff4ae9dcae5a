import Foundation

/// Times at Herald's edges: ISO 8601 UTC out (`2026-05-01T09:00:00Z`); in, ISO 8601 with a
/// zone (`Z`, `+02:00`, `+0200`) or a plain date meaning midnight UTC. Schedules are kept
/// to the whole second, so a time read from a file, a flag or the database compares exactly.
public enum Timestamp {
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
            let day = number(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), let h = number(11, 2),
                bytes.count > 13, bytes[13] == 58, let m = number(14, 2)
            else { return nil }
            hour = h
            minute = m
            var index = 16
            if index < bytes.count, bytes[index] == 58 {
                guard let s = number(index + 1, 2) else { return nil }
                second = s
                index += 3
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                    index += 1
                    while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }  // whole seconds kept
                }
            }
            guard index < bytes.count else { return nil }  // a zone is required with a time
            if bytes[index] == UInt8(ascii: "Z") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                guard let oh = number(index + 1, 2) else { return nil }
                index += 3
                var om = 0
                if index < bytes.count, bytes[index] == 58 { index += 1 }
                if index < bytes.count {
                    guard let m = number(index, 2) else { return nil }
                    om = m
                    index += 2
                }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
            guard index == bytes.count, hour < 24, minute < 60, second < 61 else { return nil }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        return Date(timeIntervalSince1970: Double(Int(epoch) - offset))
    }

    /// Parses or explains what is expected.
    public static func parse(_ text: String, field: String) throws(ValidationError) -> Date {
        guard let date = parse(text) else {
            throw ValidationError(
                message: "\(field) \(quote(text)) is not a time: use ISO 8601 with a zone, e.g. 2026-05-01T09:00:00Z, or a date 2026-05-01 (UTC)")
        }
        return date
    }

    public static func format(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}

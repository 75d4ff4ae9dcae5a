import Foundation

/// Times as every command's time flags take them: `now`; `90s`, `15m`, `2h`, `3d`, `1w` ago;
/// `today` and `yesterday` (from midnight, UTC); else a time or a day as `Timestamp` reads it.
public enum RelativeTime {
    /// The forms, in words, for the message that refuses a time.
    public static let forms =
        "use ISO 8601 with a zone (2026-05-01T09:00:00Z), a day (2026-05-01, UTC), now, today, yesterday, "
        + "or an age such as 2h, 30m, 3d or 1w (ago); times run from 1970-01-01 to 9999-12-31"

    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        let startOfToday = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        switch word {
        case "now": return now
        case "today": return startOfToday
        case "yesterday": return startOfToday.addingTimeInterval(-86_400)
        default: break
        }
        if let unit = word.last, let seconds = ["s": 1.0, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800][unit],
            let count = Int(word.dropLast()), count >= 0, count <= 100_000
        {
            return now.addingTimeInterval(-Double(count) * seconds)
        }
        return Timestamp.parse(text)
    }
}

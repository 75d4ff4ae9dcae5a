import Foundation

/// Times people say relative to now, for looking back (`herald audit --since`): `90s`, `15m`,
/// `2h`, `3d`, `1w` ago; `today` and `yesterday` (from midnight, UTC); else a time as
/// `Timestamp` reads it.
public enum RelativeTime {
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

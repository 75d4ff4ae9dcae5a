import Foundation

/// Delivery events for the example campaigns file's acme/weather campaigns (spring-sale,
/// welcome, tour), as NDJSON lines with fixed ids: the same numbers give the same events.
public enum SampleEvents {
    /// Events numbered `first..<first + count`: the campaigns and the four kinds in turn, one of
    /// `devices` devices each, days 10–14 of November 2026, locales en and de in turn (or en only).
    public static func ndjson(_ count: Int, first: Int = 0, devices: Int = 97, germanToo: Bool = true) -> String {
        let campaigns = ["spring-sale", "welcome", "tour"]
        let kinds = ["delivered", "impression", "click", "dismiss"]
        var text = ""
        for n in first..<(first + count) {
            let id = String(format: "00000000-0000-4000-8000-%012d", n)
            let locale = germanToo && n % 2 == 1 ? "de" : "en"
            text += #"{"event_id":"\#(id)","tenant":"acme","app":"weather","campaign":"\#(campaigns[n % 3])","device":"d-\#(n % devices)","kind":"\#(kinds[n % 4])","at":"2026-11-\#(10 + n % 5)T12:00:00Z","locale":"\#(locale)","app_version":"2.4.0"}"# + "\n"
        }
        return text
    }
}

/// Days counted back from today, as event times write them: `herald collect` takes only the
/// last year's events, so what is sent to it is dated from the clock, not fixed.
public enum RecentDays {
    /// The UTC date `daysAgo` days before now: `2026-11-26`.
    public static func day(_ daysAgo: Int, from now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = now.addingTimeInterval(-Double(daysAgo) * 86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// SampleEvents' lines with their days (10–14 November 2026) moved to the last five days.
    public static func movedToLastDays(_ ndjson: String, from now: Date = Date()) -> String {
        var text = ndjson
        for day in 10...14 { text = text.replacingOccurrences(of: "\"at\":\"2026-11-\(day)T", with: "\"at\":\"\(Self.day(15 - day, from: now))T") }
        return text
    }
}

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

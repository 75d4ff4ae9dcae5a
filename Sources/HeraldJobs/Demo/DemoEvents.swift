import Foundation
import HeraldCore
import HeraldStore

/// The demo's delivery events: 60 devices meeting the three campaigns over the last week,
/// generated the same way every run (same event ids), so a second run adds nothing.
enum DemoEvents {
    static func records(today: Date) -> [EventRecord] {
        let campaigns = [("spring-sale", ["en", "de"]), ("welcome", ["en", "de", "pt-BR"]), ("tour", ["en", "de"])]
        var lines: [String] = []
        var number = 0
        for device in 0..<60 {
            for (index, (campaign, locales)) in campaigns.enumerated() {
                let locale = locales[device % locales.count]
                let day = today.addingTimeInterval(-Double((device + index) % 7) * 86_400)
                let base = String(Timestamp.format(day).prefix(10))
                var kinds = ["delivered"]
                if (device + index) % 5 != 0 { kinds.append("impression") }
                if kinds.count == 2 { kinds.append((device * 7 + index) % 4 == 0 ? "click" : "dismiss") }
                for (step, kind) in kinds.enumerated() {
                    number += 1
                    let id = String(format: "de300000-0000-4000-8000-%012d", number)
                    let at = "\(base)T\(String(format: "%02d", 8 + device % 12)):\(String(format: "%02d", step * 2)):00Z"
                    lines.append(
                        #"{"event_id":"\#(id)","tenant":"demo","app":"weather","campaign":"\#(campaign)","device":"demo-device-\#(device)","kind":"\#(kind)","at":"\#(at)","locale":"\#(locale)","app_version":"2.3.1","os_version":"17.4"}"#)
                }
            }
        }
        var parser = EventStreamParser(format: .ndjson)
        return parser.feed(Array(lines.joined(separator: "\n").utf8)) + parser.finish()
    }
}

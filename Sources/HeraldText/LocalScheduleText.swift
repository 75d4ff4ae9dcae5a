import Foundation
import HeraldPublish

/// `preview`'s local notifications: what Herald's client would do on the device, in `--json`
/// and for people.
public struct LocalScheduleJSON: Encodable {
    struct Item: Encodable {
        let campaign: String
        /// The next fire time on the device's clock (`2026-12-24T09:00:00+01:00`).
        let nextFire: String
        let `repeat`: String?
    }

    let timeZone: String
    let schedule: [Item]
    let replace: [Item]
    let cancel: [String]
    let leftOut: [Item]
    let past: [String]
    let problems: [String]

    public init(_ preview: LocalSchedulePreview) {
        func items(_ list: [LocalSchedulePreview.Item]) -> [Item] {
            list.map { Item(campaign: $0.campaign, nextFire: $0.nextFireLocal, repeat: $0.repeats) }
        }
        timeZone = preview.timeZone
        schedule = items(preview.schedule)
        replace = items(preview.replace)
        cancel = preview.cancel
        leftOut = items(preview.leftOut)
        past = preview.past
        problems = preview.problems
    }

    /// `local notifications (Europe/Berlin)` and one line per campaign the client would touch.
    public static func lines(_ preview: LocalSchedulePreview) -> [String] {
        var lines = ["local notifications (device in \(preview.timeZone))"]
        func add(_ verb: String, _ items: [LocalSchedulePreview.Item]) {
            for item in items {
                lines.append("  \(verb) \(item.campaign), fires \(item.nextFireLocal)\(item.repeats.map { ", then every \($0)" } ?? "")")
            }
        }
        add("schedule", preview.schedule)
        add("replace ", preview.replace)
        let leftOut = Set(preview.leftOut.map(\.campaign))
        for key in preview.cancel {
            let why = leftOut.contains(key) ? "left out" : preview.past.contains(key) ? "its time has passed" : "no longer published"
            lines.append("  cancel   \(key) (\(why))")
        }
        add("leave out", preview.leftOut)
        if !preview.leftOut.isEmpty { lines.append("  (iOS keeps \(LocalDeviceState.pendingLimit) pending per app, the soonest)") }
        for problem in preview.problems { lines.append("  unreadable: \(problem)") }
        if lines.count == 1 { lines.append("  - (nothing to schedule)") }
        return lines
    }
}

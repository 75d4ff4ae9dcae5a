import Foundation
import HeraldCore
import HeraldPublish

extension Drawings {
    // MARK: Local notification

    /// The zones the board shows a local notification's next fire times in: a wall-clock time
    /// is the same reading in each, an instant is not.
    static let fireTimeZones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]

    /// A local notification on the lock screen as seed 004 describes it: the app's icon (a
    /// placeholder, with the badge the notification sets), its name, the body, "slide to
    /// <action>" in lower case (none without an action), a mark for its sound; then when it fires.
    static func local(_ words: LocalContent, notification: LocalNotification?, campaign: CampaignSpec, app: AppSpec, at: Date) -> HTML {
        guard let notification else {
            return "<p class=\"warnings\">No fire time: a local notification needs one (--fire-at).</p>"
        }
        let initial = app.name.first.map(String.init) ?? "•"
        let badge: HTML = notification.badge.map { $0 > 0 ? HTML("<span class=\"icon-badge\" aria-label=\"badge \($0)\">\($0)</span>") : .empty } ?? .empty
        let sound: HTML =
            notification.sound.map { sound in
                HTML("<span class=\"sound-mark\" title=\"plays \(sound.isDefault ? "the system's sound" : sound.rawValue)\">♪ \(sound.isDefault ? "default" : sound.rawValue)</span>")
            } ?? HTML("<span class=\"sound-mark silent\">silent</span>")
        // iOS draws "slide to " and the action in lower case under the notification (seed 004).
        let slide: HTML =
            notification.hasAction ? HTML("<p class=\"slide\">slide to \((words.action ?? "view").lowercased())</p>") : .empty
        let banner: HTML = """
            <div class="push local-note"><div class="push-head"><span class="app-icon with-badge">\(initial)\(badge)</span>\
            <span>\(app.name)</span>\(sound)<span class="push-time">now</span></div>\
            <p class="push-text">\(words.body)</p></div>
            """
        let lock: HTML = """
            <div class="phone"><div class="phone-clip"><div class="screen lock">\
            <div class="statusbar"><span>9:41</span><span class="island"></span><span>100 %</span></div>\
            <p class="lock-time">9:41</p>\(banner)\(slide)</div></div></div>
            """
        let times: [HTML] = fireTimeZones.compactMap { TimeZone(identifier: $0) }.map { zone in
            let next = LocalFireTimes.next(notification, key: campaign.key, after: at, timeZone: zone)
            let readings = next.isEmpty ? "no more (its time has passed)" : next.map(\.local).joined(separator: ", ")
            return "<li data-zone=\"\(zone.identifier)\"><span class=\"rule\">\(zone.identifier):</span> \(readings)</li>"
        }
        let repeats = notification.repeatInterval.map { "then every \($0.rawValue)" } ?? "once"
        return """
            <figure>\(lock)<figcaption>As the lock screen shows it: app icon\(notification.badge.map { HTML(trusted: " with badge \($0)") }), \
            app name, body, \(notification.hasAction ? HTML(trusted: "the action as \u{201C}slide to \u{2026}\u{201D}") : HTML(trusted: "no action")), \
            \(notification.sound == nil ? HTML(trusted: "no sound") : HTML(trusted: "a sound")).</figcaption></figure>
            <p class="fires">Fires \(notification.fireDate.words), \(repeats). Next on a device in:</p>
            <ul class="fire-times">\(times)</ul>
            """
    }
}

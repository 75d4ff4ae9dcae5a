import Foundation
import HeraldCore
import HeraldPublish

/// A campaign's badge: its state as a device sees it at the board's moment (HeraldCore's
/// `CampaignState`, the one rule `campaign list` uses too), with the times the badge names.
struct CampaignBadge: Equatable, Sendable {
    let state: CampaignState
    let startsAt: Date?
    let endsAt: Date?

    init(_ campaign: CampaignSpec, at: Date) {
        state = CampaignState(campaign, at: at)
        startsAt = campaign.startsAt
        endsAt = campaign.endsAt
    }

    /// One word, also the CSS class of its badge.
    var name: String { state.rawValue }

    /// What the badge says, with the time relative to the board's moment.
    func label(at: Date) -> String {
        switch state {
        case .scheduled: startsAt.map { "scheduled · starts \(Relative.phrase(from: at, to: $0))" } ?? name
        case .ended: endsAt.map { "ended \(Relative.phrase(from: at, to: $0))" } ?? name
        default: name
        }
    }

    /// The badge as markup: its words, and on hover the UTC instant they are relative to.
    func html(at: Date) -> HTML {
        let instant: Date? =
            switch state {
            case .scheduled: startsAt
            case .ended: endsAt
            default: nil
            }
        guard let instant else { return "<span class=\"badge \(name)\">\(label(at: at))</span>" }
        let iso = Timestamp.format(instant)
        return "<span class=\"badge \(name)\" title=\"\(state == .scheduled ? "starts" : "ended") \(iso) (UTC; the board does not assume your time zone)\">\(label(at: at))</span>"
    }

    /// Where it sorts in a list: what devices get now first, archived last.
    var order: Int {
        switch state {
        case .live: 0
        case .scheduled: 1
        case .paused: 2
        case .draft: 3
        case .ended: 4
        case .archived: 5
        }
    }

    /// Devices get it now.
    var isLive: Bool { state == .live }
}

/// "in 3 days", "2 hours ago", "in 2 minutes": days and hours whole, the last two hours to
/// the nearest minute, and never "now" for a time that is not (a campaign starting at
/// 00:27:57 seen at 00:26 starts "in 2 minutes"; one that ended 30 s ago ended "under a
/// minute ago").
enum Relative {
    static func phrase(from now: Date, to time: Date) -> String {
        let seconds = time.timeIntervalSince(now)
        let amount = abs(seconds)
        let text: String
        if amount >= 2 * 86_400 {
            text = "\(Int(amount / 86_400)) days"
        } else if amount >= 2 * 3_600 {
            text = "\(Int(amount / 3_600)) hours"
        } else if amount >= 30 {
            let minutes = Int((amount / 60).rounded())
            text = minutes == 1 ? "1 minute" : "\(minutes) minutes"
        } else if amount >= 1 {
            return seconds > 0 ? "in under a minute" : "under a minute ago"
        } else {
            return "now"
        }
        return seconds > 0 ? "in \(text)" : "\(text) ago"
    }
}

/// Times for people: `2026-05-01 09:00 UTC`.
enum When {
    static func text(_ date: Date) -> String {
        let iso = Timestamp.format(date)  // 2026-05-01T09:00:00Z
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

    static func day(_ date: Date) -> String { String(Timestamp.format(date).prefix(10)) }

    /// A time as markup: in UTC, with the instant in `datetime` and in a title (hover) that
    /// says the reviewer's own time zone is not assumed (no script converts it).
    static func html(_ date: Date) -> HTML {
        let iso = Timestamp.format(date)
        return "<time datetime=\"\(iso)\" title=\"\(iso): in UTC; the board does not assume your time zone\">\(text(date))</time>"
    }

    /// The schedule as markup, each time a `<time>`.
    static func scheduleHTML(_ campaign: CampaignSpec) -> HTML {
        switch (campaign.startsAt, campaign.endsAt) {
        case (nil, nil): "no schedule: runs while active"
        case (let starts?, nil): "from \(html(starts)), open-ended"
        case (nil, let ends?): "until \(html(ends))"
        case (let starts?, let ends?): "\(html(starts)) → \(html(ends))"
        }
    }

    /// The schedule in words.
    static func schedule(_ campaign: CampaignSpec) -> String {
        switch (campaign.startsAt, campaign.endsAt) {
        case (nil, nil): "no schedule: runs while active"
        case (let starts?, nil): "from \(text(starts)), open-ended"
        case (nil, let ends?): "until \(text(ends))"
        case (let starts?, let ends?): "\(text(starts)) → \(text(ends))"
        }
    }
}

/// Which locale's content a device of one locale gets, and why: the content publish writes
/// (`PublishSelection.resolved`), so an alert's inherited ActionURL and ActionButton are drawn.
struct LocaleContent {
    let locale: LocaleTag
    /// The content shown, nil when none reaches this locale.
    let content: CampaignContent?
    /// The locale whose content it is (the locale itself, or one along the fallback chain).
    let source: LocaleTag?
    /// For an alert: where its ActionURL and ActionButton come from, when another locale.
    let actionURLFrom: LocaleTag?
    let actionButtonFrom: LocaleTag?
    /// The chain walked: `pt-BR → pt → en`.
    let chain: [LocaleTag]
    /// Set when the campaign is restricted away from this locale.
    let restrictedTo: [LocaleTag]?

    init(campaign: CampaignSpec, locale: LocaleTag, app: AppSpec) {
        self.locale = locale
        chain = locale.fallbackChain(defaultLocale: app.defaultLocale)
        restrictedTo = campaign.locales.flatMap { $0.contains(locale) ? nil : $0 }
        let resolved = PublishSelection.resolved(campaign, for: locale, in: app)
        content = resolved?.content
        source = resolved?.source
        actionURLFrom = resolved?.actionURLFrom
        actionButtonFrom = resolved?.actionButtonFrom
    }

    /// The card's note on where its text comes from.
    var note: String {
        let chainText = chain.map(\.rawValue).joined(separator: " → ")
        if let restrictedTo {
            return "Not sent to \(locale) devices: the campaign is restricted to \(restrictedTo.map(\.rawValue).joined(separator: ", "))."
        }
        guard let source else {
            return "No content for \(locale) devices: none along \(chainText)."
        }
        var inherited: [String] = []
        if let actionURLFrom { inherited.append("its action URL from the \(actionURLFrom) content") }
        if let actionButtonFrom { inherited.append("its action button from the \(actionButtonFrom) content") }
        let inheritance = inherited.isEmpty ? "" : " Like publish, it takes " + inherited.joined(separator: " and ") + "."
        if source == locale { return "Shows its own \(locale) content." + inheritance }
        let skipped = chain.prefix { $0 != source }.map(\.rawValue).joined(separator: ", ")
        return "Shows the \(source) content: no \(skipped) content (fallback \(chainText))." + inheritance
    }
}

/// Conditions in words.
enum ConditionWords {
    static func describe(_ condition: Condition) -> String {
        let value = condition.value.text
        switch condition.type {
        case .onWifi: return condition.value == .bool(true) ? "the device is on Wi-Fi" : "the device is not on Wi-Fi"
        case .neverDisplayed:
            return condition.value == .bool(true) ? "this banner was never shown on the device" : "this banner was shown on the device before"
        case .lastDisplayMinimumSeconds: return "more than \(value) seconds (\(duration(value))) since it was last shown"
        case .lastDisplayMinimumLaunches: return "more than \(value) app launches since it was last shown (counted from install when never shown)"
        case .flagNotSet: return "the banner's flag \u{201C}\(value)\u{201D} is not set"
        case .iOSVersionLessThan: return "the OS version is below \(value)"
        case .appVersionLessThan: return "the app's build version is below \(value)"
        case .minAppVersion: return "the app version is \(value) or later"
        case .maxAppVersion: return "the app version is \(value) or earlier"
        }
    }

    private static func duration(_ text: String) -> String {
        guard let seconds = Int(text) else { return text }
        if seconds >= 86_400 { return "\(seconds / 86_400) d \((seconds % 86_400) / 3_600) h" }
        if seconds >= 3_600 { return "\(seconds / 3_600) h \((seconds % 3_600) / 60) min" }
        return "\(seconds / 60) min \(seconds % 60) s"
    }

    /// Who gets the campaign, in sentences.
    static func sentences(_ campaign: CampaignSpec) -> [String] {
        let all = campaign.conditions.conditions.filter { $0.group == .all }.map(describe)
        let any = campaign.conditions.conditions.filter { $0.group == .any }.map(describe)
        switch campaign.kind {
        case .story:
            return ["No device conditions: every device of a locale it reaches gets the push when it is sent."]
        case .local:
            var lines = ["No device conditions: every device of a locale it reaches schedules it (Herald's client, iOS's 64 pending at most)."]
            if let notification = campaign.localNotification {
                lines.append("Fires \(notification.fireDate.words)" + (notification.repeatInterval.map { ", then every \($0.rawValue)" } ?? ", once") + ".")
            }
            return lines
        case .alert:
            var lines = [all.isEmpty ? "Every app version." : "Shown when " + all.joined(separator: " and ") + "."]
            lines.append("iNotify shows one message per check, newest message key first, once per device (never on the first launch).")
            return lines
        case .banner:
            var lines: [String] = []
            if all.isEmpty, any.isEmpty { lines.append("No conditions: every device.") }
            if !all.isEmpty { lines.append("Shown when " + all.joined(separator: ", and ") + ".") }
            if !any.isEmpty {
                lines.append((all.isEmpty ? "Shown when " : "And ") + (any.count == 1 ? "" : "at least one of: ") + any.joined(separator: "; or ") + ".")
            }
            lines.append("Notable shows one banner per launch: of several that qualify, one in dictionary order.")
            return lines
        }
    }
}

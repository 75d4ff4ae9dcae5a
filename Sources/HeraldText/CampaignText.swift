import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish

/// A campaign for people: `campaign show`.
public enum CampaignText {
    /// `campaign list`: STATE is what devices see at `now` (an active campaign may not have
    /// started, or have ended).
    public static func table(_ rows: [(app: Slug, campaign: CampaignSpec)], now: Date) -> TextTable {
        var table = TextTable("APP", "KEY", "KIND", "STATE", "NAME", "STARTS", "ENDS", "PRIORITY", "CONTENT IN")
        for (app, campaign) in rows {
            table.append(
                app.rawValue, campaign.key.rawValue, campaign.kind.rawValue, CampaignState(campaign, at: now).rawValue, campaign.name,
                formatOptional(campaign.startsAt), formatOptional(campaign.endsAt), String(campaign.priority),
                campaign.content.keys.sorted().map(\.rawValue).joined(separator: ","))
        }
        return table
    }

    public static func describe(_ spec: CampaignSpec, app: AppSpec, now: Date = Date()) -> String {
        var lines = [
            "campaign     \(spec.key) (\(spec.kind.rawValue))",
            "name         \(Excerpt.escaped(spec.name))",
            "status       \(spec.status.rawValue) (devices: \(CampaignState(spec, at: now).rawValue))",
            "schedule     \(formatOptional(spec.startsAt)) .. \(formatOptional(spec.endsAt))",
            "priority     \(spec.priority)",
            "locales      \(spec.locales.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "all of the app's")",
        ]
        if let key = spec.messageKey { lines.append("message key  \(key)") }
        if let sound = spec.push.sound { lines.append("push sound   \(sound)") }
        if let badge = spec.push.badge { lines.append("push badge   \(badge)") }
        if let notification = spec.localNotification {
            lines.append("fires        \(notification.fireDate.words)")
            lines.append("repeat       \(notification.repeatInterval?.rawValue ?? "never")")
            if let badge = notification.badge { lines.append("badge        \(badge)") }
            lines.append("sound        \(notification.sound.map { Excerpt.escaped($0.rawValue) } ?? "none (silent)")")
            if let image = notification.launchImage { lines.append("launch image \(Excerpt.escaped(image.rawValue))") }
            lines.append("action       \(notification.hasAction ? "yes" : "none (--no-action)")")
            let pairs = notification.publishedUserInfo(campaign: spec.key).sorted { $0.key < $1.key }
            lines.append("userInfo     " + pairs.map { "\($0.key)=\(Excerpt.escaped($0.value))" }.joined(separator: ", "))
        }
        let conditions = spec.conditions.conditions
        lines.append(conditions.isEmpty ? "conditions   -" : "conditions")
        for condition in conditions {
            lines.append("  \(condition.group.rawValue): \(condition.type.rawValue) = \(Excerpt.escaped(condition.value.jsonText))")
        }
        lines.append(spec.content.isEmpty ? "content      -" : "content")
        for (locale, content) in spec.content.sorted(by: { $0.key < $1.key }) {
            lines.append("  [\(locale)]")
            switch content {
            case .alert(let alert):
                lines.append("    title: \(Excerpt.escaped(alert.title))")
                lines.append("    message: \(Excerpt.escaped(alert.message))")
                if let url = alert.actionURL { lines.append("    action: \(Excerpt.escaped(alert.actionButton ?? "More Info")) -> \(url.rawValue)") }
            case .banner(let banner):
                lines.append("    entry: \(banner.entry)")
                for view in banner.views {
                    let source: String =
                        switch view.source {
                        case .file(let url): url.rawValue
                        case .html(let html): "inline html (\(html.utf8.count) bytes)"
                        }
                    var extras: [String] = []
                    if let height = view.height { extras.append("height \(NumberText.format(height))") }
                    if let origin = view.origin { extras.append("origin \(origin.rawValue)") }
                    lines.append("    view \(view.id): \(source)\(extras.isEmpty ? "" : " (\(extras.joined(separator: ", ")))")")
                }
            case .local(let words):
                lines.append("    body: \(Excerpt.escaped(words.body))")
                if let action = words.action { lines.append("    action: \(Excerpt.escaped(action))") }
            case .story(let story):
                if let title = story.pushTitle { lines.append("    push title: \(Excerpt.escaped(title))") }
                lines.append("    push text: \(Excerpt.escaped(story.pushText))")
                for (index, page) in story.pages.enumerated() {
                    var fields = ["image \(page.image.rawValue)"]
                    if let duration = page.duration { fields.append("duration \(NumberText.format(duration)) s") }
                    if let title = page.title { fields.append("title \"\(Excerpt.escaped(title))\"") }
                    if let subtitle = page.subtitle { fields.append("subtitle \"\(Excerpt.escaped(subtitle))\"") }
                    if let button = page.buttonTitle { fields.append("button \"\(Excerpt.escaped(button))\"") }
                    if let link = page.link { fields.append("link \(link.rawValue)") }
                    lines.append("    page \(index + 1): " + fields.joined(separator: ", "))
                }
            }
        }
        // What each of the app's locales gets: its own content, a fallback, or nothing.
        lines.append("devices by locale")
        for locale in app.locales {
            let shown = PublishSelection.contentLocale(of: spec, for: locale, in: app)
            let text: String =
                switch shown {
                case nil where spec.locales.map({ !$0.contains(locale) }) ?? false: "nothing (the campaign is not for this locale)"
                case nil: "nothing (no content in \(locale.fallbackChain(defaultLocale: app.defaultLocale).map(\.rawValue).joined(separator: " → ")))"
                case locale?: "its own content"
                case let other?: "the \(other) content (falls back \(locale.fallbackChain(defaultLocale: app.defaultLocale).map(\.rawValue).joined(separator: " → ")))"
                }
            lines.append("  \(locale): \(text)")
        }
        return lines.joined(separator: "\n")
    }
}

extension ChangeJSON {
    /// `[de] title: "Hallo" → "Hallo!"`, values quoted as bounded excerpts.
    public static func line(_ change: FieldChange) -> String {
        func text(_ value: FieldChange.Value?) -> String {
            switch value {
            case nil: "(none)"
            case .text(let text)?: Excerpt.quoted(text)
            case .integer(let number)?: String(number)
            case .number(let number)?: NumberText.format(number)
            case .bool(let flag)?: flag ? "true" : "false"
            case .date(let date)?: formatTimestamp(date)
            case .list(let items)?: "[" + items.joined(separator: ", ") + "]"
            }
        }
        return (change.locale.map { "[\($0)] " } ?? "") + "\(change.field): \(text(change.old)) → \(text(change.new))"
    }
}

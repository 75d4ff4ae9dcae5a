import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish

/// A campaign for `--json`.
struct CampaignJSON: Encodable {
    let app: String?
    let key: String
    let kind: String
    let name: String
    let status: String
    /// What a device sees now: live, scheduled, ended, draft, paused or archived.
    let state: String
    let startsAt: Date?
    let endsAt: Date?
    let priority: Int
    let locales: [String]?
    let messageKey: String?
    /// Group (`all`, `any`) → condition type → its value as the clients read it (true, 5, "2.4.0").
    let conditions: [String: [String: ParsedJSON]]
    let contentLocales: [String]
    /// Each locale's content (`campaign show`, `create` and `update`; not in lists).
    let content: [String: CampaignContentJSON]?
    /// For each locale the app supports, the locale whose content its devices get, or null
    /// when they get none (restricted away, or nothing to fall back to).
    let localeContent: [String: String?]?
    /// What an update changed, field by field (updates only).
    var changes: [ChangeJSON]?

    /// `detail`: the campaign's app, for the content of every locale and where each falls back.
    init(_ spec: CampaignSpec, app: Slug? = nil, now: Date = Date(), detail: AppSpec? = nil) {
        self.app = app?.rawValue
        key = spec.key.rawValue
        kind = spec.kind.rawValue
        name = spec.name
        status = spec.status.rawValue
        state = CampaignState(spec, at: now).rawValue
        startsAt = spec.startsAt
        endsAt = spec.endsAt
        priority = spec.priority
        locales = spec.locales?.map(\.rawValue)
        messageKey = spec.messageKey?.rawValue
        var conditions: [String: [String: ParsedJSON]] = [:]
        for condition in spec.conditions.conditions {
            let text = condition.value.jsonText
            conditions[condition.group.rawValue, default: [:]][condition.type.rawValue] = ParsedJSON(text: text) ?? .string(text)
        }
        self.conditions = conditions
        contentLocales = spec.content.keys.sorted().map(\.rawValue)
        if let detail {
            content = Dictionary(uniqueKeysWithValues: spec.content.map { ($0.key.rawValue, CampaignContentJSON($0.value)) })
            localeContent = Dictionary(
                uniqueKeysWithValues: detail.locales.map {
                    ($0.rawValue, PublishSelection.contentLocale(of: spec, for: $0, in: detail)?.rawValue)
                })
        } else {
            content = nil
            localeContent = nil
        }
    }
}

/// A campaign for people: `campaign show`.
enum CampaignText {
    static func describe(_ spec: CampaignSpec, app: AppSpec, now: Date = Date()) -> String {
        var lines = [
            "campaign     \(spec.key) (\(spec.kind.rawValue))",
            "name         \(Excerpt.escaped(spec.name))",
            "status       \(spec.status.rawValue) (devices: \(CampaignState(spec, at: now).rawValue))",
            "schedule     \(formatOptional(spec.startsAt)) .. \(formatOptional(spec.endsAt))",
            "priority     \(spec.priority)",
            "locales      \(spec.locales.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "all of the app's")",
        ]
        if let key = spec.messageKey { lines.append("message key  \(key)") }
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

/// One changed field in `--json`: `{"field": "title", "locale": "de", "old": "Hallo", "new": "Hallo!"}`
/// (`locale` only for content; `old` or `new` null when the field was absent).
struct ChangeJSON: Encodable {
    let field: String
    let locale: String?
    let old: ParsedJSON
    let new: ParsedJSON

    init(_ change: FieldChange) {
        field = change.field
        locale = change.locale?.rawValue
        old = change.old.map(Self.json) ?? .null
        new = change.new.map(Self.json) ?? .null
    }

    static func json(_ value: FieldChange.Value) -> ParsedJSON {
        switch value {
        case .text(let text): .string(text)
        case .integer(let number): .integer(Int64(number))
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .string(formatTimestamp(date))
        case .list(let items): .array(items.map(ParsedJSON.string))
        }
    }

    /// `[de] title: "Hallo" → "Hallo!"`, values quoted as bounded excerpts.
    static func line(_ change: FieldChange) -> String {
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

/// What `campaign update` and `campaign condition add|remove` print: every changed field,
/// old → new, or with --json the campaign as it is now with its `changes`.
func printUpdate(_ edit: CampaignEditing.Edit, json: Bool) throws {
    if json {
        var campaign = CampaignJSON(edit.after, app: edit.app.slug, detail: edit.app)
        campaign.changes = edit.changes.map(ChangeJSON.init)
        try printJSON(campaign)
    } else if edit.changes.isEmpty {
        print("no change")
    } else {
        print("updated \(edit.after.key): \(edit.changes.count) change(s)")
        for change in edit.changes { print("  " + ChangeJSON.line(change)) }
    }
}

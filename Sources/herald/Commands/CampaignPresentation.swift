import Foundation
import HeraldCore
import HeraldStore

/// A campaign for `--json`.
struct CampaignJSON: Encodable {
    let app: String?
    let key: String
    let kind: String
    let name: String
    let status: String
    let startsAt: Date?
    let endsAt: Date?
    let priority: Int
    let locales: [String]?
    let messageKey: String?
    let conditions: [String: [String: String]]
    let contentLocales: [String]

    init(_ spec: CampaignSpec, app: Slug? = nil) {
        self.app = app?.rawValue
        key = spec.key.rawValue
        kind = spec.kind.rawValue
        name = spec.name
        status = spec.status.rawValue
        startsAt = spec.startsAt
        endsAt = spec.endsAt
        priority = spec.priority
        locales = spec.locales?.map(\.rawValue)
        messageKey = spec.messageKey?.rawValue
        var conditions: [String: [String: String]] = [:]
        for condition in spec.conditions.conditions {
            conditions[condition.group.rawValue, default: [:]][condition.type.rawValue] = condition.value.jsonText
        }
        self.conditions = conditions
        contentLocales = spec.content.keys.sorted().map(\.rawValue)
    }
}

/// A campaign for people: `campaign show`.
enum CampaignText {
    static func describe(_ record: CampaignRecord) -> String {
        let spec = record.spec
        var lines = [
            "campaign     \(spec.key) (\(spec.kind.rawValue))",
            "name         \(spec.name)",
            "status       \(spec.status.rawValue)",
            "schedule     \(formatOptional(spec.startsAt)) .. \(formatOptional(spec.endsAt))",
            "priority     \(spec.priority)",
            "locales      \(spec.locales.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "all of the app's")",
        ]
        if let key = spec.messageKey { lines.append("message key  \(key)") }
        let conditions = spec.conditions.conditions
        lines.append(conditions.isEmpty ? "conditions   -" : "conditions")
        for condition in conditions {
            lines.append("  \(condition.group.rawValue): \(condition.type.rawValue) = \(condition.value.jsonText)")
        }
        lines.append(spec.content.isEmpty ? "content      -" : "content")
        for (locale, content) in spec.content.sorted(by: { $0.key < $1.key }) {
            lines.append("  [\(locale)]")
            switch content {
            case .alert(let alert):
                lines.append("    title: \(alert.title)")
                lines.append("    message: \(alert.message)")
                if let url = alert.actionURL { lines.append("    action: \(alert.actionButton ?? "More Info") -> \(url.rawValue)") }
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
                if let title = story.pushTitle { lines.append("    push title: \(title)") }
                lines.append("    push text: \(story.pushText)")
                for (index, page) in story.pages.enumerated() {
                    lines.append("    page \(index + 1): \(page.image.rawValue)\(page.title.map { " \"\($0)\"" } ?? "")")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation

extension CampaignsDocument {
    /// The canonical YAML: fixed key order, sorted apps, campaigns, locales and conditions,
    /// whole-second UTC times, integers without `.0`, and strings quoted whenever YAML could
    /// read them as anything but that string.
    public func yaml() -> String {
        var out = YAMLWriter()
        out.line(0, "version: \(version)")
        out.line(0, "tenants:")
        for tenant in tenants {
            out.item(0, "slug: \(YAMLWriter.scalar(tenant.slug.rawValue))")
            out.line(1, "name: \(YAMLWriter.scalar(tenant.name))")
            guard !tenant.apps.isEmpty else { continue }
            out.line(1, "apps:")
            for app in tenant.apps.sorted(by: { $0.slug < $1.slug }) { write(app, &out) }
        }
        return out.text
    }

    /// One campaign as the file holds it (an item of its app's `campaigns:`): what
    /// `apply --dry-run` compares to show each changed value.
    public static func yaml(of campaign: CampaignSpec) -> String {
        var out = YAMLWriter()
        CampaignsDocument(version: currentVersion, tenants: []).write(campaign, &out)
        return out.text
    }

    /// An app's own fields as the file holds them, without its campaigns.
    public static func yaml(of app: AppSpec) -> String {
        var out = YAMLWriter()
        var fields = app
        fields.campaigns = []
        CampaignsDocument(version: currentVersion, tenants: []).write(fields, &out)
        return out.text
    }

    private func write(_ app: AppSpec, _ out: inout YAMLWriter) {
        out.item(1, "slug: \(YAMLWriter.scalar(app.slug.rawValue))")
        out.line(2, "name: \(YAMLWriter.scalar(app.name))")
        out.line(2, "platform: \(app.platform.rawValue)")
        out.line(2, "bundleId: \(YAMLWriter.scalar(app.bundleID))")
        out.line(2, "defaultLocale: \(app.defaultLocale)")
        out.line(2, "locales: [\(app.locales.map(\.rawValue).joined(separator: ", "))]")
        if let baseURL = app.baseURL { out.line(2, "baseUrl: \(YAMLWriter.scalar(baseURL.rawValue))") }
        guard !app.campaigns.isEmpty else { return }
        out.line(2, "campaigns:")
        for campaign in app.campaigns.sorted(by: { $0.key < $1.key }) { write(campaign, &out) }
    }

    private func write(_ campaign: CampaignSpec, _ out: inout YAMLWriter) {
        out.item(2, "key: \(campaign.key)")
        out.line(3, "kind: \(campaign.kind.rawValue)")
        out.line(3, "name: \(YAMLWriter.scalar(campaign.name))")
        out.line(3, "status: \(campaign.status.rawValue)")
        if let startsAt = campaign.startsAt { out.line(3, "startsAt: \(Timestamp.format(startsAt))") }
        if let endsAt = campaign.endsAt { out.line(3, "endsAt: \(Timestamp.format(endsAt))") }
        if campaign.priority != 0 { out.line(3, "priority: \(campaign.priority)") }
        if let locales = campaign.locales { out.line(3, "locales: [\(locales.map(\.rawValue).joined(separator: ", "))]") }
        if let messageKey = campaign.messageKey { out.line(3, "messageKey: \(YAMLWriter.scalar(messageKey.rawValue))") }
        if let sound = campaign.push.sound { out.line(3, "pushSound: \(YAMLWriter.scalar(sound.rawValue))") }
        if let badge = campaign.push.badge { out.line(3, "pushBadge: \(YAMLWriter.scalar(badge.description))") }
        if let notification = campaign.localNotification { write(notification, &out) }
        if !campaign.conditions.isEmpty {
            out.line(3, "conditions:")
            for group in ConditionGroup.allCases {
                let conditions = campaign.conditions.conditions.filter { $0.group == group }
                guard !conditions.isEmpty else { continue }
                out.line(4, "\(group.rawValue):")
                for condition in conditions {
                    let value: String =
                        switch condition.value {
                        case .bool, .integer: condition.value.text
                        case .string(let text): YAMLWriter.scalar(text)
                        case .version(let version): JSONText.quoted(version.rawValue)
                        }
                    out.line(5, "\(condition.type.rawValue): \(value)")
                }
            }
        }
        guard !campaign.content.isEmpty else { return }
        out.line(3, "content:")
        for (locale, content) in campaign.content.sorted(by: { $0.key < $1.key }) {
            out.line(4, "\(locale):")
            write(content, &out)
        }
    }

    private func write(_ notification: LocalNotification, _ out: inout YAMLWriter) {
        out.line(3, "fireAt: \(YAMLWriter.scalar(notification.fireDate.description))")
        if let interval = notification.repeatInterval { out.line(3, "repeat: \(interval.rawValue)") }
        if let badge = notification.badge { out.line(3, "badge: \(badge)") }
        if let sound = notification.sound { out.line(3, "sound: \(YAMLWriter.scalar(sound.rawValue))") }
        if let image = notification.launchImage { out.line(3, "launchImage: \(YAMLWriter.scalar(image.rawValue))") }
        if !notification.hasAction { out.line(3, "hasAction: false") }
        guard !notification.userInfo.isEmpty else { return }
        out.line(3, "userInfo:")
        for (name, value) in notification.userInfo.sorted(by: { $0.key < $1.key }) {
            out.line(4, "\(YAMLWriter.scalar(name)): \(YAMLWriter.scalar(value))")
        }
    }

    private func write(_ content: CampaignContent, _ out: inout YAMLWriter) {
        switch content {
        case .local(let local):
            out.line(5, "body: \(YAMLWriter.scalar(local.body))")
            if let action = local.action { out.line(5, "action: \(YAMLWriter.scalar(action))") }
        case .banner(let banner):
            out.line(5, "entry: \(banner.entry)")
            out.line(5, "views:")
            for view in banner.views {
                out.item(5, "id: \(view.id)")
                switch view.source {
                case .file(let url): out.line(6, "file: \(YAMLWriter.scalar(url.rawValue))")
                case .html(let html): out.line(6, "html: \(YAMLWriter.scalar(html))")
                }
                if let height = view.height { out.line(6, "height: \(NumberText.format(height))") }
                if let origin = view.origin { out.line(6, "origin: \(origin.rawValue)") }
            }
        case .alert(let alert):
            out.line(5, "title: \(YAMLWriter.scalar(alert.title))")
            out.line(5, "message: \(YAMLWriter.scalar(alert.message))")
            if let url = alert.actionURL { out.line(5, "actionUrl: \(YAMLWriter.scalar(url.rawValue))") }
            if let button = alert.actionButton { out.line(5, "actionButton: \(YAMLWriter.scalar(button))") }
        case .story(let story):
            if let title = story.pushTitle { out.line(5, "pushTitle: \(YAMLWriter.scalar(title))") }
            out.line(5, "pushText: \(YAMLWriter.scalar(story.pushText))")
            out.line(5, "pages:")
            for page in story.pages {
                out.item(5, "image: \(YAMLWriter.scalar(page.image.rawValue))")
                if let duration = page.duration { out.line(6, "duration: \(NumberText.format(duration))") }
                if let link = page.link { out.line(6, "link: \(YAMLWriter.scalar(link.rawValue))") }
                if let text = page.buttonTitle { out.line(6, "buttonTitle: \(YAMLWriter.scalar(text))") }
                if let text = page.title { out.line(6, "title: \(YAMLWriter.scalar(text))") }
                if let text = page.subtitle { out.line(6, "subtitle: \(YAMLWriter.scalar(text))") }
            }
        }
    }
}

/// Block-style YAML, two spaces a level; list items start with "- " at their parent's level.
struct YAMLWriter {
    private(set) var text = ""

    mutating func line(_ level: Int, _ content: String) {
        text += String(repeating: "  ", count: level) + content + "\n"
    }

    /// The first line of a list item at `level` (the item's fields continue at level + 1).
    mutating func item(_ level: Int, _ content: String) {
        text += String(repeating: "  ", count: level) + "- " + content + "\n"
    }

    /// A string as a plain scalar when YAML would read it back as that same string,
    /// else double-quoted.
    static func scalar(_ value: String) -> String {
        isSafePlain(value) ? value : quoted(value)
    }

    /// A double-quoted YAML scalar: JSON's escapes, and `\u` escapes for the characters YAML
    /// cannot carry raw (DEL and the C1 controls), reads as something else (U+0085, U+2028
    /// and U+2029 are line breaks to YAML 1.1, U+FEFF a byte order mark) or that would make
    /// the file read differently from what it holds (bidirectional controls).
    static func quoted(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: needsEscape) else { return JSONText.quoted(value) }
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result.append(contentsOf: "\\\"".unicodeScalars)
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            case _ where scalar.value < 0x20 || needsEscape(scalar):
                result.append(contentsOf: ("\\u" + String(format: "%04x", scalar.value)).unicodeScalars)
            default: result.append(scalar)
            }
        }
        result.append("\"")
        return String(result)
    }

    /// DEL, the C1 controls, YAML 1.1's line breaks, the byte order mark, and the
    /// bidirectional marks, embeddings, overrides and isolates (a file read in a terminal or a
    /// review shows them as escapes, not as text that reads differently from what it holds).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x7F && Excerpt.isInvisible(scalar)
    }

    private static let reserved: Set<String> = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "", ".inf", "-.inf", "+.inf", ".nan",
    ]

    static func isSafePlain(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else { return false }
        if reserved.contains(value.lowercased()) { return false }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) || first == " " || last == " " || last == ":" {
            return false
        }
        if value.contains(": ") || value.contains(" #") || value.contains("\t") { return false }
        // Anything number- or date-like (1, 1.5, 0x1f, 1e3, 2026-05-01) would not stay a string.
        if value.unicodeScalars.allSatisfy({ "0123456789.-+_:eExXoObB".unicodeScalars.contains($0) || ("a"..."f").contains($0) }),
            value.unicodeScalars.contains(where: { ("0"..."9").contains($0) })
        {
            return false
        }
        return value.unicodeScalars.allSatisfy { scalar in scalar.value >= 0x20 && !needsEscape(scalar) }
    }
}

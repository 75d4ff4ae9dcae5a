import Foundation
import HeraldCore
import HeraldPublish

/// A campaign for `--json`.
public struct CampaignJSON: Encodable, Sendable {
    public let app: String?
    public let key: String
    public let kind: String
    public let name: String
    public let status: String
    /// What a device sees now: live, scheduled, ended, draft, paused or archived.
    public let state: String
    public let startsAt: Date?
    public let endsAt: Date?
    public let priority: Int
    public let locales: [String]?
    public let messageKey: String?
    /// A story's push sound and badge (`default`, `Chime.caf`; `3`, `+1`).
    public let pushSound: String?
    public let pushBadge: String?
    /// A local campaign's notification (its words are in `content`).
    public let notification: LocalNotificationJSON?
    /// Group (`all`, `any`) → condition type → its value as the clients read it (true, 5, "2.4.0").
    public let conditions: [String: [String: ParsedJSON]]
    public let contentLocales: [String]
    /// Each locale's content (`campaign show`, `create` and `update`; not in lists).
    public let content: [String: CampaignContentJSON]?
    /// For each locale the app supports, the locale whose content its devices get, or null
    /// when they get none (restricted away, or nothing to fall back to).
    public let localeContent: [String: String?]?
    /// What an update changed, field by field (updates only).
    public var changes: [ChangeJSON]?

    /// `detail`: the campaign's app, for the content of every locale and where each falls back.
    public init(_ spec: CampaignSpec, app: Slug? = nil, now: Date = Date(), detail: AppSpec? = nil) {
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
        pushSound = spec.push.sound?.rawValue
        pushBadge = spec.push.badge?.description
        notification = spec.localNotification.map(LocalNotificationJSON.init)
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

/// A local campaign's notification in `--json`: `fireAt` with a zone (`…Z`, one instant
/// everywhere) or without one (a time on each device's own clock).
public struct LocalNotificationJSON: Encodable, Sendable {
    public let fireAt: String
    /// `instant` or `wallClock`.
    public let fireAtKind: String
    public let `repeat`: String?
    public let badge: Int?
    public let sound: String?
    public let launchImage: String?
    public let hasAction: Bool
    public let userInfo: [String: String]

    public init(_ notification: LocalNotification) {
        fireAt = notification.fireDate.description
        switch notification.fireDate {
        case .instant: fireAtKind = "instant"
        case .wallClock: fireAtKind = "wallClock"
        }
        `repeat` = notification.repeatInterval?.rawValue
        badge = notification.badge
        sound = notification.sound?.rawValue
        launchImage = notification.launchImage?.rawValue
        hasAction = notification.hasAction
        userInfo = notification.userInfo
    }
}

/// One changed field in `--json`: `{"field": "title", "locale": "de", "old": "Hallo", "new": "Hallo!"}`
/// (`locale` only for content; `old` or `new` null when the field was absent).
public struct ChangeJSON: Encodable, Sendable {
    public let field: String
    public let locale: String?
    public let old: ParsedJSON
    public let new: ParsedJSON

    public init(_ change: FieldChange) {
        field = change.field
        locale = change.locale?.rawValue
        old = change.old.map(Self.json) ?? .null
        new = change.new.map(Self.json) ?? .null
    }

    public static func json(_ value: FieldChange.Value) -> ParsedJSON {
        switch value {
        case .text(let text): .string(text)
        case .integer(let number): .integer(Int64(number))
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .string(Timestamp.format(date))
        case .list(let items): .array(items.map(ParsedJSON.string))
        }
    }
}

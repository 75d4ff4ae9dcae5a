import Foundation

/// One field of a campaign that an update changed: its old and new value (nil: absent).
public struct FieldChange: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case text(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case date(Date)
        case list([String])
    }

    /// `name`, `startsAt`, `pushSound`, `fireAt`, `userInfo.screen`, `conditions.all.flagNotSet`, `title`,
    /// `views.banner.file`, `pages[2].title`, `body` …
    public var field: String
    /// The locale of a content field; nil for the campaign's own fields.
    public var locale: LocaleTag?
    public var old: Value?
    public var new: Value?

    public init(field: String, locale: LocaleTag? = nil, old: Value?, new: Value?) {
        self.field = field
        self.locale = locale
        self.old = old
        self.new = new
    }
}

extension CampaignSpec {
    /// Every field that differs from `old`, in a fixed order: the campaign's own fields,
    /// conditions by group and type, then content by locale (field by field, a view by its
    /// id, a page by its position).
    public func changes(from old: CampaignSpec) -> [FieldChange] {
        var changes = Changes()
        changes.compare("name", old.name.text, name.text)
        changes.compare("status", old.status.rawValue.text, status.rawValue.text)
        changes.compare("startsAt", old.startsAt.map(FieldChange.Value.date), startsAt.map(FieldChange.Value.date))
        changes.compare("endsAt", old.endsAt.map(FieldChange.Value.date), endsAt.map(FieldChange.Value.date))
        changes.compare("priority", .integer(old.priority), .integer(priority))
        changes.compare("locales", old.locales.map { .list($0.map(\.rawValue)) }, locales.map { .list($0.map(\.rawValue)) })
        changes.compare("messageKey", old.messageKey?.rawValue.text, messageKey?.rawValue.text)
        changes.compare("pushSound", old.push.sound?.rawValue.text, push.sound?.rawValue.text)
        changes.compare("pushBadge", old.push.badge?.description.text, push.badge?.description.text)
        changes.compare(old.localNotification, localNotification)
        for group in ConditionGroup.allCases {
            for type in ConditionType.allCases {
                changes.compare(
                    "conditions.\(group.rawValue).\(type.rawValue)", old.conditions.value(group: group, type: type)?.changeValue,
                    conditions.value(group: group, type: type)?.changeValue)
            }
        }
        for locale in Set(old.content.keys).union(content.keys).sorted() {
            changes.locale = locale
            changes.compare(old.content[locale], content[locale])
        }
        return changes.list
    }
}

/// Collects changes field by field.
private struct Changes {
    var list: [FieldChange] = []
    var locale: LocaleTag?

    mutating func compare(_ field: String, _ old: FieldChange.Value?, _ new: FieldChange.Value?) {
        if old != new { list.append(FieldChange(field: field, locale: locale, old: old, new: new)) }
    }

    /// A local campaign's notification, field by field (`userInfo` pair by pair).
    mutating func compare(_ old: LocalNotification?, _ new: LocalNotification?) {
        compare("fireAt", old?.fireDate.description.text, new?.fireDate.description.text)
        compare("repeat", old?.repeatInterval?.rawValue.text, new?.repeatInterval?.rawValue.text)
        compare("badge", old?.badge.map(FieldChange.Value.integer), new?.badge.map(FieldChange.Value.integer))
        compare("sound", old?.sound?.rawValue.text, new?.sound?.rawValue.text)
        compare("launchImage", old?.launchImage?.rawValue.text, new?.launchImage?.rawValue.text)
        compare("hasAction", old.map { .bool($0.hasAction) }, new.map { .bool($0.hasAction) })
        let (before, after) = (old?.userInfo ?? [:], new?.userInfo ?? [:])
        for name in Set(before.keys).union(after.keys).sorted() {
            compare("userInfo.\(name)", before[name]?.text, after[name]?.text)
        }
    }

    /// One locale's content, field by field (a locale added or removed: every field of it).
    mutating func compare(_ old: CampaignContent?, _ new: CampaignContent?) {
        switch (old ?? new)?.kind {
        case .local?:
            func local(_ content: CampaignContent?) -> LocalContent? {
                if case .local(let local)? = content { return local }
                return nil
            }
            let (before, after) = (local(old), local(new))
            compare("body", before?.body.text, after?.body.text)
            compare("action", before?.action?.text, after?.action?.text)
        case .alert?:
            func alert(_ content: CampaignContent?) -> AlertContent? {
                if case .alert(let alert)? = content { return alert }
                return nil
            }
            let (before, after) = (alert(old), alert(new))
            compare("title", before?.title.text, after?.title.text)
            compare("message", before?.message.text, after?.message.text)
            compare("actionUrl", before?.actionURL?.rawValue.text, after?.actionURL?.rawValue.text)
            compare("actionButton", before?.actionButton?.text, after?.actionButton?.text)
        case .story?:
            func story(_ content: CampaignContent?) -> StoryContent? {
                if case .story(let story)? = content { return story }
                return nil
            }
            let (before, after) = (story(old), story(new))
            compare("pushTitle", before?.pushTitle?.text, after?.pushTitle?.text)
            compare("pushText", before?.pushText.text, after?.pushText.text)
            let (oldPages, newPages) = (before?.pages ?? [], after?.pages ?? [])
            for index in 0..<max(oldPages.count, newPages.count) {
                let x = oldPages.indices.contains(index) ? oldPages[index] : nil
                let y = newPages.indices.contains(index) ? newPages[index] : nil
                let name = "pages[\(index + 1)]"
                compare("\(name).image", x?.image.rawValue.text, y?.image.rawValue.text)
                compare("\(name).duration", x?.duration.map(FieldChange.Value.number), y?.duration.map(FieldChange.Value.number))
                compare("\(name).link", x?.link?.rawValue.text, y?.link?.rawValue.text)
                compare("\(name).buttonTitle", x?.buttonTitle?.text, y?.buttonTitle?.text)
                compare("\(name).title", x?.title?.text, y?.title?.text)
                compare("\(name).subtitle", x?.subtitle?.text, y?.subtitle?.text)
            }
        case .banner?:
            func banner(_ content: CampaignContent?) -> BannerContent? {
                if case .banner(let banner)? = content { return banner }
                return nil
            }
            let (before, after) = (banner(old), banner(new))
            compare("entry", before?.entry.rawValue.text, after?.entry.rawValue.text)
            compare("views", before.map { .list($0.views.map(\.id.rawValue)) }, after.map { .list($0.views.map(\.id.rawValue)) })
            let (oldViews, newViews) = (before?.views ?? [], after?.views ?? [])
            var ids = oldViews.map(\.id)
            for view in newViews where !ids.contains(view.id) { ids.append(view.id) }
            for id in ids {
                let (x, y) = (oldViews.first { $0.id == id }, newViews.first { $0.id == id })
                compare("views.\(id).file", x?.file?.text, y?.file?.text)
                compare("views.\(id).html", x?.html?.text, y?.html?.text)
                compare("views.\(id).height", x?.height.map(FieldChange.Value.number), y?.height.map(FieldChange.Value.number))
                compare("views.\(id).origin", x?.origin?.rawValue.text, y?.origin?.rawValue.text)
            }
        case nil:
            break
        }
    }
}

extension String {
    fileprivate var text: FieldChange.Value { .text(self) }
}

extension BannerView {
    fileprivate var file: String? {
        if case .file(let url) = source { return url.rawValue }
        return nil
    }

    fileprivate var html: String? {
        if case .html(let html) = source { return html }
        return nil
    }
}

extension ConditionValue {
    var changeValue: FieldChange.Value {
        switch self {
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .string(let value): .text(value)
        case .version(let value): .text(value.rawValue)
        }
    }
}

import HeraldCore

/// What bringing a stored campaign from `old` to `new` writes, part by part, worked out from
/// the one list of changed fields (`CampaignSpec.changes(from:)`) that `campaign update`
/// prints, apply's plan summarises (`fields`) and the planner writes.
struct CampaignDifference {
    /// The campaign as it will be stored: `new`, keeping the old message key when `new` has none.
    let stored: CampaignSpec
    /// Every changed field, old → new.
    let changes: [FieldChange]
    /// The campaigns row itself (name, status, schedule, priority, locales, a story's push).
    let row: Bool
    /// A local campaign's notification as it will be, when it differs.
    let localNotification: LocalNotification?
    /// A new current message key (never a removal: a spec without one keeps the old).
    let messageKey: MessageKey?
    /// The condition rows to delete and upsert, when the conditions differ.
    let conditions: ConditionChanges?
    /// Locales whose content differs, sorted: each is deleted (when it was there) and
    /// inserted again (when it still is), never updated in place.
    let contentLocales: [LocaleTag]
    /// The parts that changed, as apply prints them: name, status, schedule, priority,
    /// locales, messageKey, push, notification, conditions, content.<locale>, in this order.
    let fields: [String]

    init(from old: CampaignSpec, to new: CampaignSpec) {
        var stored = new
        if stored.messageKey == nil { stored.messageKey = old.messageKey }  // kept, not cleared
        self.stored = stored
        changes = stored.changes(from: old)
        let fields = Self.parts(changes)
        self.fields = fields
        row = fields.contains { ["name", "status", "schedule", "priority", "locales", "push"].contains($0) }
        localNotification = fields.contains("notification") ? new.localNotification : nil
        messageKey = fields.contains("messageKey") ? stored.messageKey : nil
        conditions = fields.contains("conditions") ? ConditionChanges(from: old.conditions, to: new.conditions) : nil
        contentLocales = Array(Set(changes.compactMap(\.locale))).sorted()
    }

    var isEmpty: Bool { changes.isEmpty }

    /// A local campaign's notification fields (`CampaignSpec.changes`), but its userInfo pairs.
    static let notificationFields: Set<String> = ["fireAt", "repeat", "badge", "sound", "launchImage", "hasAction"]

    /// The parts of a campaign `changes` touch, as apply prints them, in their order.
    static func parts(_ changes: [FieldChange]) -> [String] {
        var parts: [String] = []
        for change in changes {
            let part: String =
                if let locale = change.locale {
                    "content.\(locale)"
                } else if change.field == "startsAt" || change.field == "endsAt" {
                    "schedule"
                } else if change.field.hasPrefix("conditions.") {
                    "conditions"
                } else if change.field == "pushSound" || change.field == "pushBadge" {
                    "push"
                } else if Self.notificationFields.contains(change.field) || change.field.hasPrefix("userInfo.") {
                    "notification"
                } else {
                    change.field
                }
            if parts.last != part { parts.append(part) }
        }
        return parts
    }
}

/// The condition rows that change when a campaign's conditions go from `previous` to `wanted`:
/// the slots (group and type) that went away are deleted; every condition that is not
/// exactly as before is upserted (a new slot inserted, a new value for a slot updated).
struct ConditionChanges {
    let deleted: [Condition]
    let upserted: [Condition]

    init(from previous: ConditionSet?, to wanted: ConditionSet) {
        let slots = Set(wanted.conditions.map { ConditionSlot(group: $0.group, type: $0.type) })
        deleted = (previous?.conditions ?? []).filter { !slots.contains(ConditionSlot(group: $0.group, type: $0.type)) }
        let unchanged = Set(previous?.conditions ?? [])
        upserted = wanted.conditions.filter { !unchanged.contains($0) }
    }
}

private struct ConditionSlot: Hashable {
    let group: ConditionGroup
    let type: ConditionType
}

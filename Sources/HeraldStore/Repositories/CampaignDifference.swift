import HeraldCore

/// What bringing a stored campaign from `old` to `new` writes, part by part. `save` and
/// `apply` both write exactly this (one campaign at a time, or many at once), so the rows
/// they touch — and the audit rows the triggers write for them — are the same.
struct CampaignDifference {
    /// The campaigns row itself (name, status, schedule, priority, locales).
    let row: Bool
    /// A new current message key (never a removal: a spec without one keeps the old).
    let messageKey: MessageKey?
    /// The condition rows to delete and upsert, when the conditions differ.
    let conditions: ConditionChanges?
    /// Locales whose content differs, sorted: each is deleted (when it was there) and
    /// inserted again (when it still is), never updated in place.
    let contentLocales: [LocaleTag]
    /// The names `save` returns and `apply` prints, in this order.
    let fields: [String]

    init(from old: CampaignSpec, to new: CampaignSpec) {
        var fields: [String] = []
        row =
            old.name != new.name || old.status != new.status || old.startsAt != new.startsAt
            || old.endsAt != new.endsAt || old.priority != new.priority || old.locales != new.locales
        if row {
            if old.name != new.name { fields.append("name") }
            if old.status != new.status { fields.append("status") }
            if old.startsAt != new.startsAt || old.endsAt != new.endsAt { fields.append("schedule") }
            if old.priority != new.priority { fields.append("priority") }
            if old.locales != new.locales { fields.append("locales") }
        }
        if let key = new.messageKey, key != old.messageKey {
            messageKey = key
            fields.append("messageKey")
        } else {
            messageKey = nil
        }
        if old.conditions != new.conditions {
            conditions = ConditionChanges(from: old.conditions, to: new.conditions)
            fields.append("conditions")
        } else {
            conditions = nil
        }
        var locales: [LocaleTag] = []
        if old.content != new.content {
            for locale in Set(old.content.keys).union(new.content.keys).sorted() where old.content[locale] != new.content[locale] {
                locales.append(locale)
                fields.append("content.\(locale)")
            }
        }
        contentLocales = locales
        self.fields = fields
    }

    var isEmpty: Bool { fields.isEmpty }
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

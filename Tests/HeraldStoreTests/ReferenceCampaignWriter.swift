import Foundation
import HeraldCore
import PostgresClient

@testable import HeraldStore

/// How a campaign's rows were written before the CLI's commands went through apply's planner
/// and writer (issue #22): row by row, each table with its own statement, deciding what
/// changed by comparing whole values. Kept word for word as the reference apply's writer, so
/// that the product's one write path is tested against code that shares none of its SQL.
struct ReferenceCampaignWriter {
    let session: TenantSession
    let now: Date

    private var connection: Connection { session.connection }

    func create(_ spec: CampaignSpec, in app: AppRecord) throws {
        var spec = spec
        let problems = CampaignRepository.problems(spec, in: app.spec, now: now)
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
        if spec.kind == .alert, spec.messageKey == nil {
            let rows = try connection.query("SELECT message_key FROM alert_message_keys WHERE app_id = $1", [app.id])
            let taken = Set(try rows.map { try $0.decode("message_key", as: String.self) })
            spec.messageKey = MessageKey.defaultKey(for: spec.startsAt ?? now, taken: taken)
        }
        let rows = try connection.query(
            """
            INSERT INTO campaigns (app_id, key, kind, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge)
            VALUES ($1, $2, $3::campaign_kind, $4, $5::campaign_status, $6, $7, $8, $9::text[]::locale_tag[], $10, $11)
            RETURNING id
            """,
            [app.id, spec.key.rawValue, spec.kind.rawValue, spec.name, spec.status.rawValue,
             spec.startsAt, spec.endsAt, spec.priority, spec.locales?.map(\.rawValue), spec.push.sound?.rawValue,
             spec.push.badge?.description])
        let id: Int64 = try rows[0].decode("id")
        if let messageKey = spec.messageKey { try assignMessageKey(messageKey, campaign: id, app: app.id) }
        if let notification = spec.localNotification { try writeNotification(notification, campaign: id) }
        try replaceConditions(campaign: id, kind: spec.kind, from: nil, to: spec.conditions)
        for (locale, content) in spec.content.sorted(by: { $0.key < $1.key }) {
            try insertContent(content, locale: locale, campaign: id)
        }
    }

    /// Returns the parts that changed, as apply names them.
    func save(_ spec: CampaignSpec, in app: AppRecord) throws -> [String] {
        guard let current = try session.campaigns.load(appIDs: [app.id]).first(where: { $0.spec.key == spec.key }) else {
            throw StoreError.notFound(what: "campaign", name: spec.key.rawValue, listCommand: "-")
        }
        let old = current.spec
        if let refusal = CampaignRepository.kindChangeRefusal(old, spec) { throw refusal }
        let becomesActive = spec.status == .active && old.status != .active
        let problems = CampaignRepository.problems(spec, in: app.spec, now: now, requireReadiness: becomesActive, stored: old)
        guard problems.isEmpty else { throw StoreError.invalid(problems) }
        var fields: [String] = []
        let row =
            old.name != spec.name || old.status != spec.status || old.startsAt != spec.startsAt || old.endsAt != spec.endsAt
            || old.priority != spec.priority || old.locales != spec.locales || old.push != spec.push
        if row {
            if old.name != spec.name { fields.append("name") }
            if old.status != spec.status { fields.append("status") }
            if old.startsAt != spec.startsAt || old.endsAt != spec.endsAt { fields.append("schedule") }
            if old.priority != spec.priority { fields.append("priority") }
            if old.locales != spec.locales { fields.append("locales") }
            try connection.execute(
                """
                UPDATE campaigns SET name = $2, status = $3::campaign_status, starts_at = $4, ends_at = $5,
                    priority = $6, locales = $7::text[]::locale_tag[], push_sound = $8, push_badge = $9
                WHERE id = $1
                """,
                [current.id, spec.name, spec.status.rawValue, spec.startsAt, spec.endsAt, spec.priority,
                 spec.locales?.map(\.rawValue), spec.push.sound?.rawValue, spec.push.badge?.description])
        }
        if let key = spec.messageKey, key != old.messageKey {
            fields.append("messageKey")
            try assignMessageKey(key, campaign: current.id, app: app.id)
        }
        if old.push != spec.push { fields.append("push") }
        if let notification = spec.localNotification, notification != old.localNotification {
            fields.append("notification")
            if old.localNotification == nil {
                try writeNotification(notification, campaign: current.id)
            } else {
                try updateNotification(notification, campaign: current.id)
            }
        }
        if old.conditions != spec.conditions {
            fields.append("conditions")
            try replaceConditions(campaign: current.id, kind: spec.kind, from: old.conditions, to: spec.conditions)
        }
        for locale in Set(old.content.keys).union(spec.content.keys).sorted() where old.content[locale] != spec.content[locale] {
            fields.append("content.\(locale)")
            if old.content[locale] != nil { try deleteContent(kind: spec.kind, locale: locale, campaign: current.id) }
            if let after = spec.content[locale] { try insertContent(after, locale: locale, campaign: current.id) }
        }
        return fields
    }

    func archive(_ record: CampaignRecord, in app: AppRecord) throws {
        var spec = record.spec
        spec.status = .archived
        _ = try save(spec, in: app)
    }

    private func assignMessageKey(_ key: MessageKey, campaign: Int64, app: Int64) throws {
        try connection.execute(
            "INSERT INTO alert_message_keys (app_id, campaign_id, message_key) VALUES ($1, $2, $3)", [app, campaign, key.rawValue])
    }

    private func replaceConditions(campaign: Int64, kind: CampaignKind, from old: ConditionSet?, to new: ConditionSet) throws {
        let changes = ConditionChanges(from: old, to: new)
        for condition in changes.deleted {
            try connection.execute(
                "DELETE FROM campaign_conditions WHERE campaign_id = $1 AND grp = $2::condition_group AND type = $3",
                [campaign, condition.group.rawValue, condition.type.rawValue])
        }
        for condition in changes.upserted {
            try connection.execute(
                """
                INSERT INTO campaign_conditions (campaign_id, kind, grp, type, value)
                VALUES ($1, $2::campaign_kind, $3::condition_group, $4, $5::jsonb)
                ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = EXCLUDED.value
                """,
                [campaign, kind.rawValue, condition.group.rawValue, condition.type.rawValue, condition.value.jsonText])
        }
    }

    private func deleteContent(kind: CampaignKind, locale: LocaleTag, campaign: Int64) throws {
        let table: UnsafeSQL =
            switch kind {
            case .banner: UnsafeSQL("banner_contents")
            case .alert: UnsafeSQL("alert_contents")
            case .story: UnsafeSQL("story_contents")
            case .local: UnsafeSQL("local_contents")
            }
        // `table` is one of four constants above, never input.
        try connection.execute("DELETE FROM \(table) WHERE campaign_id = $1 AND locale = $2", [campaign, locale.rawValue])
    }

    private func writeNotification(_ notification: LocalNotification, campaign: Int64) throws {
        var instant: Date?
        var wallClock: String?
        switch notification.fireDate {
        case .instant(let date): instant = date
        case .wallClock(let time): wallClock = time.description
        }
        try connection.execute(
            """
            INSERT INTO local_notifications (campaign_id, fire_at, fire_wall_clock, repeat_interval, badge, sound, launch_image,
                                             has_action, user_info)
            VALUES ($1, $2, $3::timestamp, $4::calendar_unit, $5, $6, $7, $8, $9::jsonb)
            """,
            [campaign, instant, wallClock, notification.repeatInterval?.rawValue, notification.badge, notification.sound?.rawValue,
             notification.launchImage?.rawValue, notification.hasAction, JSONText.object(notification.userInfo)])
    }

    private func updateNotification(_ notification: LocalNotification, campaign: Int64) throws {
        var instant: Date?
        var wallClock: String?
        switch notification.fireDate {
        case .instant(let date): instant = date
        case .wallClock(let time): wallClock = time.description
        }
        try connection.execute(
            """
            UPDATE local_notifications SET fire_at = $2, fire_wall_clock = $3::timestamp, repeat_interval = $4::calendar_unit,
                badge = $5, sound = $6, launch_image = $7, has_action = $8, user_info = $9::jsonb
            WHERE campaign_id = $1
            """,
            [campaign, instant, wallClock, notification.repeatInterval?.rawValue, notification.badge, notification.sound?.rawValue,
             notification.launchImage?.rawValue, notification.hasAction, JSONText.object(notification.userInfo)])
    }

    private func insertContent(_ content: CampaignContent, locale: LocaleTag, campaign: Int64) throws {
        switch content {
        case .local(let words):
            try connection.execute(
                "INSERT INTO local_contents (campaign_id, locale, body, action) VALUES ($1, $2, $3, $4)",
                [campaign, locale.rawValue, words.body, words.action])
        case .banner(let banner):
            try connection.execute(
                "INSERT INTO banner_contents (campaign_id, locale, entry_view) VALUES ($1, $2, $3)",
                [campaign, locale.rawValue, banner.entry.rawValue])
            for (position, view) in banner.views.enumerated() {
                let (file, html) = view.storedSource
                try connection.execute(
                    """
                    INSERT INTO banner_views (campaign_id, locale, view_id, position, file_url, inline_html, height, origin)
                    VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8::view_origin)
                    """,
                    [campaign, locale.rawValue, view.id.rawValue, position, file, html, view.height, view.origin?.rawValue])
            }
        case .alert(let alert):
            try connection.execute(
                """
                INSERT INTO alert_contents (campaign_id, locale, title, message, action_url, action_button)
                VALUES ($1, $2, $3, $4, $5, $6)
                """,
                [campaign, locale.rawValue, alert.title, alert.message, alert.actionURL?.rawValue, alert.actionButton])
        case .story(let story):
            try connection.execute(
                "INSERT INTO story_contents (campaign_id, locale, push_title, push_text) VALUES ($1, $2, $3, $4)",
                [campaign, locale.rawValue, story.pushTitle, story.pushText])
            for (position, page) in story.pages.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO story_pages (campaign_id, locale, position, image, duration, link, button_title, title, subtitle)
                    VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9)
                    """,
                    [campaign, locale.rawValue, position, page.image.rawValue, page.duration, page.link?.rawValue,
                     page.buttonTitle, page.title, page.subtitle])
            }
        }
    }
}

import Foundation
import HeraldCore
import PostgresClient

/// Writes the child rows of one campaign: message keys, conditions, per-locale content.
struct CampaignContentWriter {
    let connection: Connection
    let campaignID: Int64
    let kind: CampaignKind

    func assignMessageKey(_ key: MessageKey, appID: Int64) throws {
        try connection.execute(
            "INSERT INTO alert_message_keys (app_id, campaign_id, message_key) VALUES ($1, $2, $3)",
            [appID, campaignID, key.rawValue])
    }

    /// Deletes the conditions that went away and upserts the rest.
    func replaceConditions(_ changes: ConditionChanges) throws {
        for old in changes.deleted {
            try connection.execute(
                "DELETE FROM campaign_conditions WHERE campaign_id = $1 AND grp = $2::condition_group AND type = $3",
                [campaignID, old.group.rawValue, old.type.rawValue])
        }
        for condition in changes.upserted {
            try connection.execute(
                """
                INSERT INTO campaign_conditions (campaign_id, kind, grp, type, value)
                VALUES ($1, $2::campaign_kind, $3::condition_group, $4, $5::jsonb)
                ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = EXCLUDED.value
                """,
                [campaignID, kind.rawValue, condition.group.rawValue, condition.type.rawValue,
                 condition.value.jsonText])
        }
    }

    func deleteContent(locale: LocaleTag) throws {
        let table: UnsafeSQL =
            switch kind {
            case .banner: UnsafeSQL("banner_contents")
            case .alert: UnsafeSQL("alert_contents")
            case .story: UnsafeSQL("story_contents")
            }
        // `table` is one of three constants above, never input.
        try connection.execute(
            "DELETE FROM \(table) WHERE campaign_id = $1 AND locale = $2", [campaignID, locale.rawValue])
    }

    func insertContent(_ content: CampaignContent, locale: LocaleTag) throws {
        switch content {
        case .banner(let banner):
            try connection.execute(
                "INSERT INTO banner_contents (campaign_id, locale, entry_view) VALUES ($1, $2, $3)",
                [campaignID, locale.rawValue, banner.entry.rawValue])
            for (position, view) in banner.views.enumerated() {
                let (file, html) = view.storedSource
                try connection.execute(
                    """
                    INSERT INTO banner_views (campaign_id, locale, view_id, position, file_url, inline_html, height, origin)
                    VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8::view_origin)
                    """,
                    [campaignID, locale.rawValue, view.id.rawValue, position, file, html, view.height,
                     view.origin?.rawValue])
            }
        case .alert(let alert):
            try connection.execute(
                """
                INSERT INTO alert_contents (campaign_id, locale, title, message, action_url, action_button)
                VALUES ($1, $2, $3, $4, $5, $6)
                """,
                [campaignID, locale.rawValue, alert.title, alert.message, alert.actionURL?.rawValue,
                 alert.actionButton])
        case .story(let story):
            try connection.execute(
                "INSERT INTO story_contents (campaign_id, locale, push_title, push_text) VALUES ($1, $2, $3, $4)",
                [campaignID, locale.rawValue, story.pushTitle, story.pushText])
            for (position, page) in story.pages.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO story_pages (campaign_id, locale, position, image, duration, link, button_title, title, subtitle)
                    VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9)
                    """,
                    [campaignID, locale.rawValue, position, page.image.rawValue, page.duration, page.link?.rawValue,
                     page.buttonTitle, page.title, page.subtitle])
            }
        }
    }
}

extension BannerView {
    /// banner_views' two source columns (file_url, inline_html): exactly one is set.
    var storedSource: (file: String?, html: String?) {
        switch source {
        case .file(let url): (url.rawValue, nil)
        case .html(let text): (nil, text)
        }
    }
}

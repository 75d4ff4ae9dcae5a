import PostgresClient

/// The statements `apply` runs, one per table and kind of change, whatever the number of rows.
/// Each takes its rows as parallel arrays, one parameter per column (`unnest` turns them back
/// into rows); values never enter the SQL text. Lists of locales travel as one comma-joined
/// text per row (a locale tag has no comma) and become arrays with `string_to_array`.
///
/// Every statement writes the rows the one-campaign-at-a-time repositories would write, with
/// the same values, so the per-row audit triggers log exactly the same rows. Inserts keep the
/// order of the plan (`WITH ORDINALITY … ORDER BY`), so identities are handed out in the
/// order a campaign-by-campaign apply would use.
enum ApplySQL {
    // MARK: Reading

    /// Every message key the apps ever used (all of them stay taken forever).
    static let messageKeys: SQL = """
        SELECT app_id, message_key FROM alert_message_keys WHERE app_id = ANY($1::bigint[])
        """

    // MARK: Apps

    static let insertApps: SQL = """
        INSERT INTO apps (slug, name, platform, bundle_id, default_locale, locales, base_url)
        SELECT u.slug, u.name, u.platform::app_platform, u.bundle_id, u.default_locale,
               string_to_array(u.locales, ',')::locale_tag[], u.base_url
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
            WITH ORDINALITY AS u(slug, name, platform, bundle_id, default_locale, locales, base_url, position)
        ORDER BY u.position
        RETURNING id, slug
        """

    static let updateApps: SQL = """
        UPDATE apps a
        SET name = u.name, platform = u.platform::app_platform, bundle_id = u.bundle_id,
            default_locale = u.default_locale, locales = string_to_array(u.locales, ',')::locale_tag[],
            base_url = u.base_url
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
            AS u(id, name, platform, bundle_id, default_locale, locales, base_url)
        WHERE a.id = u.id
        """

    // MARK: Campaigns

    static let insertCampaigns: SQL = """
        INSERT INTO campaigns (app_id, key, kind, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge)
        SELECT u.app_id, u.key, u.kind::campaign_kind, u.name, u.status::campaign_status, u.starts_at, u.ends_at,
               u.priority, string_to_array(u.locales, ',')::locale_tag[], u.push_sound, u.push_badge
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
                    $7::timestamptz[], $8::integer[], $9::text[], $10::text[], $11::text[])
            WITH ORDINALITY AS u(app_id, key, kind, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge,
                                 position)
        ORDER BY u.position
        RETURNING id, app_id, key
        """

    static let updateCampaigns: SQL = """
        UPDATE campaigns c
        SET name = u.name, status = u.status::campaign_status, starts_at = u.starts_at, ends_at = u.ends_at,
            priority = u.priority, locales = string_to_array(u.locales, ',')::locale_tag[], push_sound = u.push_sound,
            push_badge = u.push_badge
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::integer[], $7::text[],
                    $8::text[], $9::text[])
            AS u(id, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge)
        WHERE c.id = u.id
        """

    static let insertMessageKeys: SQL = """
        INSERT INTO alert_message_keys (app_id, campaign_id, message_key)
        SELECT u.app_id, u.campaign_id, u.message_key
        FROM unnest($1::bigint[], $2::bigint[], $3::text[]) WITH ORDINALITY AS u(app_id, campaign_id, message_key, position)
        ORDER BY u.position
        """

    // MARK: Conditions

    static let deleteConditions: SQL = """
        DELETE FROM campaign_conditions k
        USING unnest($1::bigint[], $2::text[], $3::text[]) AS u(campaign_id, grp, type)
        WHERE k.campaign_id = u.campaign_id AND k.grp = u.grp::condition_group AND k.type = u.type
        """

    static let upsertConditions: SQL = """
        INSERT INTO campaign_conditions (campaign_id, kind, grp, type, value)
        SELECT u.campaign_id, u.kind::campaign_kind, u.grp::condition_group, u.type, u.value::jsonb
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(campaign_id, kind, grp, type, value)
        ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = EXCLUDED.value
        """

    // MARK: Content

    /// Content is replaced per campaign and locale: the old row goes (its views or pages with
    /// it, by the foreign keys' ON DELETE CASCADE), the new one is inserted.
    static let deleteBannerContents: SQL = """
        DELETE FROM banner_contents t USING unnest($1::bigint[], $2::text[]) AS u(campaign_id, locale)
        WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale
        """

    static let deleteAlertContents: SQL = """
        DELETE FROM alert_contents t USING unnest($1::bigint[], $2::text[]) AS u(campaign_id, locale)
        WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale
        """

    static let deleteStoryContents: SQL = """
        DELETE FROM story_contents t USING unnest($1::bigint[], $2::text[]) AS u(campaign_id, locale)
        WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale
        """

    static let deleteLocalContents: SQL = """
        DELETE FROM local_contents t USING unnest($1::bigint[], $2::text[]) AS u(campaign_id, locale)
        WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale
        """

    /// A local campaign's notification, new or changed (a campaign keeps its row for good). The
    /// wall-clock time travels as ISO 8601 text; userInfo as a JSON object's text.
    static let upsertLocalNotifications: SQL = """
        INSERT INTO local_notifications (campaign_id, fire_at, fire_wall_clock, repeat_interval, badge, sound, launch_image,
                                         has_action, user_info)
        SELECT u.campaign_id, u.fire_at, u.fire_wall_clock::timestamp, u.repeat_interval::calendar_unit, u.badge, u.sound,
               u.launch_image, u.has_action, u.user_info::jsonb
        FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::integer[], $6::text[], $7::text[],
                    $8::boolean[], $9::text[])
            AS u(campaign_id, fire_at, fire_wall_clock, repeat_interval, badge, sound, launch_image, has_action, user_info)
        ON CONFLICT (tenant_id, campaign_id) DO UPDATE
        SET fire_at = EXCLUDED.fire_at, fire_wall_clock = EXCLUDED.fire_wall_clock, repeat_interval = EXCLUDED.repeat_interval,
            badge = EXCLUDED.badge, sound = EXCLUDED.sound, launch_image = EXCLUDED.launch_image,
            has_action = EXCLUDED.has_action, user_info = EXCLUDED.user_info
        """

    static let insertLocalContents: SQL = """
        INSERT INTO local_contents (campaign_id, locale, body, action)
        SELECT u.campaign_id, u.locale, u.body, u.action
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(campaign_id, locale, body, action)
        """

    static let insertBannerContents: SQL = """
        INSERT INTO banner_contents (campaign_id, locale, entry_view)
        SELECT u.campaign_id, u.locale, u.entry_view
        FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(campaign_id, locale, entry_view)
        """

    static let insertBannerViews: SQL = """
        INSERT INTO banner_views (campaign_id, locale, view_id, position, file_url, inline_html, height, origin)
        SELECT u.campaign_id, u.locale, u.view_id, u.position, u.file_url, u.inline_html, u.height, u.origin::view_origin
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::text[], $7::numeric[], $8::text[])
            AS u(campaign_id, locale, view_id, position, file_url, inline_html, height, origin)
        """

    static let insertAlertContents: SQL = """
        INSERT INTO alert_contents (campaign_id, locale, title, message, action_url, action_button)
        SELECT u.campaign_id, u.locale, u.title, u.message, u.action_url, u.action_button
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
            AS u(campaign_id, locale, title, message, action_url, action_button)
        """

    static let insertStoryContents: SQL = """
        INSERT INTO story_contents (campaign_id, locale, push_title, push_text)
        SELECT u.campaign_id, u.locale, u.push_title, u.push_text
        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(campaign_id, locale, push_title, push_text)
        """

    static let insertStoryPages: SQL = """
        INSERT INTO story_pages (campaign_id, locale, position, image, duration, link, button_title, title, subtitle)
        SELECT u.campaign_id, u.locale, u.position, u.image, u.duration, u.link, u.button_title, u.title, u.subtitle
        FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[], $5::numeric[], $6::text[], $7::text[],
                    $8::text[], $9::text[])
            AS u(campaign_id, locale, position, image, duration, link, button_title, title, subtitle)
        """
}

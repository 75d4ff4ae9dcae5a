-- What `apply` writes (ApplyWriter), and so every change to a campaign's rows: `campaign
-- create`, `update`, `condition` and the status commands are one-campaign plans of the same
-- planner, written by these same statements. One statement per table and kind of change,
-- whatever the number of rows: each takes its rows as parallel arrays, one parameter per
-- column, which `unnest` turns back into rows; values never enter the SQL text. A list of
-- locales travels as one comma-joined text per row (a locale tag has no comma).
--
-- Every statement writes the rows a campaign-by-campaign apply would write, with the same
-- values, so the per-row audit triggers log exactly the same rows. Inserts keep the plan's
-- order (`WITH ORDINALITY … ORDER BY`), so identities are handed out in that order.

-- name: apply-message-keys
-- Every message key the apps ever used (all of them stay taken forever).
SELECT app_id, message_key FROM alert_message_keys WHERE app_id = ANY(:app_ids::bigint[]);

-- name: apply-insert-apps
INSERT INTO apps (slug, name, platform, bundle_id, default_locale, locales, base_url)
SELECT u.slug, u.name, u.platform::app_platform, u.bundle_id, u.default_locale,
       string_to_array(u.locales, ',')::locale_tag[], u.base_url
FROM unnest(:slugs::text[], :names::text[], :platforms::text[], :bundle_ids::text[], :default_locales::text[],
            :locales::text[], :base_urls::text[])
    WITH ORDINALITY AS u(slug, name, platform, bundle_id, default_locale, locales, base_url, position)
ORDER BY u.position
RETURNING id, slug;

-- name: apply-update-apps
UPDATE apps a
SET name = u.name, platform = u.platform::app_platform, bundle_id = u.bundle_id,
    default_locale = u.default_locale, locales = string_to_array(u.locales, ',')::locale_tag[], base_url = u.base_url
FROM unnest(:ids::bigint[], :names::text[], :platforms::text[], :bundle_ids::text[], :default_locales::text[],
            :locales::text[], :base_urls::text[])
    AS u(id, name, platform, bundle_id, default_locale, locales, base_url)
WHERE a.id = u.id;

-- name: apply-insert-campaigns
INSERT INTO campaigns (app_id, key, kind, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge)
SELECT u.app_id, u.key, u.kind::campaign_kind, u.name, u.status::campaign_status, u.starts_at, u.ends_at,
       u.priority, string_to_array(u.locales, ',')::locale_tag[], u.push_sound, u.push_badge
FROM unnest(:app_ids::bigint[], :keys::text[], :kinds::text[], :names::text[], :statuses::text[],
            :starts_at::timestamptz[], :ends_at::timestamptz[], :priorities::integer[], :locales::text[],
            :push_sounds::text[], :push_badges::text[])
    WITH ORDINALITY AS u(app_id, key, kind, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge, position)
ORDER BY u.position
RETURNING id, app_id, key;

-- name: apply-update-campaigns
-- The campaigns row (name, status, schedule, priority, locales, a story's push), written whole.
UPDATE campaigns c
SET name = u.name, status = u.status::campaign_status, starts_at = u.starts_at, ends_at = u.ends_at,
    priority = u.priority, locales = string_to_array(u.locales, ',')::locale_tag[], push_sound = u.push_sound,
    push_badge = u.push_badge
FROM unnest(:ids::bigint[], :names::text[], :statuses::text[], :starts_at::timestamptz[], :ends_at::timestamptz[],
            :priorities::integer[], :locales::text[], :push_sounds::text[], :push_badges::text[])
    AS u(id, name, status, starts_at, ends_at, priority, locales, push_sound, push_badge)
WHERE c.id = u.id;

-- name: apply-insert-message-keys
INSERT INTO alert_message_keys (app_id, campaign_id, message_key)
SELECT u.app_id, u.campaign_id, u.message_key
FROM unnest(:app_ids::bigint[], :campaign_ids::bigint[], :message_keys::text[])
    WITH ORDINALITY AS u(app_id, campaign_id, message_key, position)
ORDER BY u.position;

-- name: apply-delete-conditions
DELETE FROM campaign_conditions k
USING unnest(:campaign_ids::bigint[], :groups::text[], :types::text[]) AS u(campaign_id, grp, type)
WHERE k.campaign_id = u.campaign_id AND k.grp = u.grp::condition_group AND k.type = u.type;

-- name: apply-upsert-conditions
INSERT INTO campaign_conditions (campaign_id, kind, grp, type, value)
SELECT u.campaign_id, u.kind::campaign_kind, u.grp::condition_group, u.type, u.value::jsonb
FROM unnest(:campaign_ids::bigint[], :kinds::text[], :groups::text[], :types::text[], :condition_values::text[])
    AS u(campaign_id, kind, grp, type, value)
ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = EXCLUDED.value;

-- Content is replaced per campaign and locale: the old row goes (its views or pages with it,
-- by the foreign keys' ON DELETE CASCADE), the new one is inserted.

-- name: apply-delete-banner-contents
DELETE FROM banner_contents t USING unnest(:campaign_ids::bigint[], :locales::text[]) AS u(campaign_id, locale)
WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale;

-- name: apply-delete-alert-contents
DELETE FROM alert_contents t USING unnest(:campaign_ids::bigint[], :locales::text[]) AS u(campaign_id, locale)
WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale;

-- name: apply-delete-story-contents
DELETE FROM story_contents t USING unnest(:campaign_ids::bigint[], :locales::text[]) AS u(campaign_id, locale)
WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale;

-- name: apply-delete-local-contents
DELETE FROM local_contents t USING unnest(:campaign_ids::bigint[], :locales::text[]) AS u(campaign_id, locale)
WHERE t.campaign_id = u.campaign_id AND t.locale = u.locale;

-- name: apply-upsert-local-notifications
-- A local campaign's notification, new or changed (a campaign keeps its row for good). The
-- wall-clock time travels as ISO 8601 text; userInfo as a JSON object's text.
INSERT INTO local_notifications (campaign_id, fire_at, fire_wall_clock, repeat_interval, badge, sound, launch_image,
                                 has_action, user_info)
SELECT u.campaign_id, u.fire_at, u.fire_wall_clock::timestamp, u.repeat_interval::calendar_unit, u.badge, u.sound,
       u.launch_image, u.has_action, u.user_info::jsonb
FROM unnest(:campaign_ids::bigint[], :fire_at::timestamptz[], :fire_wall_clock::text[], :repeat_intervals::text[],
            :badges::integer[], :sounds::text[], :launch_images::text[], :has_action::boolean[], :user_info::text[])
    AS u(campaign_id, fire_at, fire_wall_clock, repeat_interval, badge, sound, launch_image, has_action, user_info)
ON CONFLICT (tenant_id, campaign_id) DO UPDATE
SET fire_at = EXCLUDED.fire_at, fire_wall_clock = EXCLUDED.fire_wall_clock, repeat_interval = EXCLUDED.repeat_interval,
    badge = EXCLUDED.badge, sound = EXCLUDED.sound, launch_image = EXCLUDED.launch_image,
    has_action = EXCLUDED.has_action, user_info = EXCLUDED.user_info;

-- name: apply-insert-local-contents
INSERT INTO local_contents (campaign_id, locale, body, action)
SELECT u.campaign_id, u.locale, u.body, u.action
FROM unnest(:campaign_ids::bigint[], :locales::text[], :bodies::text[], :actions::text[]) AS u(campaign_id, locale, body, action);

-- name: apply-insert-banner-contents
INSERT INTO banner_contents (campaign_id, locale, entry_view)
SELECT u.campaign_id, u.locale, u.entry_view
FROM unnest(:campaign_ids::bigint[], :locales::text[], :entry_views::text[]) AS u(campaign_id, locale, entry_view);

-- name: apply-insert-banner-views
INSERT INTO banner_views (campaign_id, locale, view_id, position, file_url, inline_html, height, origin)
SELECT u.campaign_id, u.locale, u.view_id, u.position, u.file_url, u.inline_html, u.height, u.origin::view_origin
FROM unnest(:campaign_ids::bigint[], :locales::text[], :view_ids::text[], :positions::integer[], :file_urls::text[],
            :inline_html::text[], :heights::numeric[], :origins::text[])
    AS u(campaign_id, locale, view_id, position, file_url, inline_html, height, origin);

-- name: apply-insert-alert-contents
INSERT INTO alert_contents (campaign_id, locale, title, message, action_url, action_button)
SELECT u.campaign_id, u.locale, u.title, u.message, u.action_url, u.action_button
FROM unnest(:campaign_ids::bigint[], :locales::text[], :titles::text[], :messages::text[], :action_urls::text[],
            :action_buttons::text[])
    AS u(campaign_id, locale, title, message, action_url, action_button);

-- name: apply-insert-story-contents
INSERT INTO story_contents (campaign_id, locale, push_title, push_text)
SELECT u.campaign_id, u.locale, u.push_title, u.push_text
FROM unnest(:campaign_ids::bigint[], :locales::text[], :push_titles::text[], :push_texts::text[])
    AS u(campaign_id, locale, push_title, push_text);

-- name: apply-insert-story-pages
INSERT INTO story_pages (campaign_id, locale, position, image, duration, link, button_title, title, subtitle)
SELECT u.campaign_id, u.locale, u.position, u.image, u.duration, u.link, u.button_title, u.title, u.subtitle
FROM unnest(:campaign_ids::bigint[], :locales::text[], :positions::integer[], :images::text[], :durations::numeric[],
            :links::text[], :button_titles::text[], :titles::text[], :subtitles::text[])
    AS u(campaign_id, locale, position, image, duration, link, button_title, title, subtitle);

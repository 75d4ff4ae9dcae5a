-- Whole campaigns in six statements whatever their number (CampaignLoader): the campaigns,
-- their conditions, and their content of each kind. Each starts with loaded-campaigns (its
-- "-- with:" line), the campaigns it reads, chosen by three parameters:
--   :apps         the apps (bigint[])
--   :key          one campaign key, or NULL for every campaign of those apps
--   :active_only  true for active campaigns only
-- The rows hanging off a campaign are looked up by (tenant_id, campaign_id), their keys'
-- first columns: row security adds a range of tenants (every tenant, for Herald's own
-- login), and a range on the first column alone would scan the whole range for each campaign
-- (an incremental publish of two apps read 14,600 index pages of 20,000 campaigns' conditions;
-- by both columns it reads 140).
-- A parameter that is NULL or false drops out of the plan: PostgreSQL plans each run with
-- its values, so every filter below is planned as if written for that one case (and
-- loaded-campaigns, put in front NOT MATERIALIZED, is planned as if written out in each).

-- name: loaded-campaigns
SELECT c.* FROM campaigns c
WHERE c.app_id = ANY(:apps::bigint[]) AND (:key::text IS NULL OR c.key = :key)
  AND (NOT :active_only::boolean OR c.status = 'active');

-- name: load-campaigns
-- with: loaded-campaigns
-- In no order: the loader puts the campaigns in app and key order itself, checking first
-- whether they came that way (sorting them took the server about a fifth of the statement).
SELECT c.id, c.app_id, c.key, c.kind::text AS kind, c.name, c.status::text AS status,
       c.starts_at, c.ends_at, c.priority, c.locales::text[] AS locales,
       c.created_at, c.updated_at, k.message_key, c.push_sound, c.push_badge
FROM loaded_campaigns c
LEFT JOIN (
    SELECT DISTINCT ON (k.campaign_id) k.campaign_id, k.message_key
    FROM alert_message_keys k
    WHERE (k.tenant_id, k.campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns)
    ORDER BY k.campaign_id, k.seq DESC
) k ON k.campaign_id = c.id;

-- name: load-conditions
-- with: loaded-campaigns
-- In no order: a campaign's conditions are a set, one per group and type (the primary key),
-- which the loader sorts itself; sorting them took the server about a third of the statement.
SELECT campaign_id, grp::text AS grp, type, value::text AS value
FROM campaign_conditions
WHERE (tenant_id, campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns);

-- name: load-banners
-- with: loaded-campaigns
-- In no order: the loader reads a banner's views by position itself (sorting took the server
-- over a quarter of the statement).
SELECT b.campaign_id, b.locale, b.entry_view, v.position, v.view_id, v.file_url, v.inline_html,
       v.height::float8 AS height, v.origin::text AS origin
FROM banner_contents b
JOIN banner_views v USING (tenant_id, campaign_id, locale)
WHERE (b.tenant_id, b.campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns);

-- name: load-alerts
-- with: loaded-campaigns
SELECT campaign_id, locale, title, message, action_url, action_button
FROM alert_contents
WHERE (tenant_id, campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns);

-- name: load-stories
-- with: loaded-campaigns
-- In no order, as banners: the loader reads a story's pages by position itself.
SELECT s.campaign_id, s.locale, s.push_title, s.push_text,
       p.position, p.image, p.duration::float8 AS duration, p.link, p.button_title, p.title, p.subtitle
FROM story_contents s
LEFT JOIN story_pages p USING (tenant_id, campaign_id, locale)
WHERE (s.tenant_id, s.campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns);

-- name: load-locals
-- with: loaded-campaigns
-- A local campaign's notification with its words, a row per locale (one row without a locale
-- when it has no words yet). In no order. The wall-clock time as ISO 8601 text whatever the
-- session's DateStyle; userInfo as its names and values in name order.
SELECT n.campaign_id, n.fire_at, to_char(n.fire_wall_clock, 'YYYY-MM-DD"T"HH24:MI:SS') AS fire_wall_clock,
       n.repeat_interval::text AS repeat_interval, n.badge, n.sound, n.launch_image, n.has_action,
       ARRAY(SELECT i.key FROM jsonb_each_text(n.user_info) i ORDER BY i.key) AS info_names,
       ARRAY(SELECT i.value FROM jsonb_each_text(n.user_info) i ORDER BY i.key) AS info_values,
       w.locale, w.body, w.action
FROM local_notifications n
LEFT JOIN local_contents w USING (tenant_id, campaign_id)
WHERE (n.tenant_id, n.campaign_id) IN (SELECT tenant_id, id FROM loaded_campaigns);

-- Delivery-event ingest (Sources/HeraldStore/Events), in the order a batch runs them.
-- Every statement run per batch is prepared once per connection.

-- name: create-event-staging
-- The batch as COPYed (each tenant's ids unique inside it): private to the connection, made once per
-- connection and emptied by every commit (StagedEvent writes its rows in this column order).
CREATE TEMP TABLE IF NOT EXISTS event_staging (
    event_id     uuid NOT NULL,
    tenant_id    bigint NOT NULL,
    app_id       bigint NOT NULL,
    campaign_id  bigint NOT NULL,
    device       text NOT NULL,
    kind         event_kind NOT NULL,
    at           timestamptz NOT NULL,
    day          date NOT NULL,
    locale       locale_tag NOT NULL,
    app_version  text NOT NULL,
    os_version   text
) ON COMMIT DELETE ROWS;

-- name: create-fresh-ids
CREATE TEMP TABLE IF NOT EXISTS fresh_ids (tenant_id bigint, event_id uuid) ON COMMIT DELETE ROWS;

-- name: create-batch-campaign-totals
-- What storing the batch adds to campaign_rollup, until add-to-rollups adds it.
CREATE TEMP TABLE IF NOT EXISTS batch_campaign_totals (
    tenant_id bigint, app_id bigint, campaign_id bigint, delivered bigint, impressions bigint, clicks bigint,
    dismissals bigint, new_devices bigint, first_at timestamptz, last_at timestamptz
) ON COMMIT DELETE ROWS;

-- name: create-batch-daily-totals
-- What storing the batch adds to campaign_daily_rollup, until add-to-rollups adds it.
CREATE TEMP TABLE IF NOT EXISTS batch_daily_totals (
    tenant_id bigint, app_id bigint, campaign_id bigint, day date, locale locale_tag,
    delivered bigint, impressions bigint, clicks bigint, dismissals bigint,
    delivered_devices bigint, impression_devices bigint, click_devices bigint, dismiss_devices bigint
) ON COMMIT DELETE ROWS;

-- name: lock-event-partitions-alone
-- $1, $2: EventPartitions.lock, the key herald_ensure_event_partitions and herald_prune_events
-- take (0009_delivery_events.sql). Held to make partitions; a prune takes it the same way.
SELECT pg_advisory_xact_lock($1::int, $2::int);

-- name: lock-event-partitions-shared
-- $1, $2: EventPartitions.lock. Each batch holds it shared: beside other batches, never
-- beside a prune.
SELECT pg_advisory_xact_lock_shared($1::int, $2::int);

-- name: pruned-horizon
-- The day before which raw events were pruned, if they ever were (UTCDay counts from 1970).
SELECT pruned_before - date '1970-01-01' AS days_since_1970 FROM event_retention;

-- name: insert-all-ids
-- Usually every id of a batch is new: a plain insert says so at half the cost of an upsert.
-- The first id already stored for its tenant (or being stored beside us: the insert waits
-- for that transaction) fails it, and store-new-ids then sorts new from old. Ids are a
-- tenant's own (0017): another tenant's event with the same id is another event.
INSERT INTO event_ids (tenant_id, event_id) SELECT tenant_id, event_id FROM event_staging ORDER BY tenant_id, event_id;

-- name: store-new-ids
-- The ids never stored before for their tenant (another batch storing the same one at the
-- same time makes this one wait for it, then skip it), kept in fresh_ids; how many there were.
WITH fresh AS (
    INSERT INTO event_ids (tenant_id, event_id)
    SELECT tenant_id, event_id FROM event_staging ORDER BY tenant_id, event_id
    ON CONFLICT (tenant_id, event_id) DO NOTHING
    RETURNING tenant_id, event_id
), kept AS (
    INSERT INTO fresh_ids SELECT tenant_id, event_id FROM fresh
)
SELECT count(*) AS fresh FROM fresh;

-- name: unstage-stored-ids
-- Leaves in the staging table only the events whose id store-new-ids found new.
DELETE FROM event_staging s
WHERE NOT EXISTS (SELECT FROM fresh_ids f WHERE f.tenant_id = s.tenant_id AND f.event_id = s.event_id);

-- name: store-events
-- The new events (what is left in the staging table) into the history, the per-device summary and the
-- device-day marks; what they add to the rollups into the two batch tables. Upserts go
-- in key order, so batches stored beside each other lock rows in the same order.
WITH new_events AS NOT MATERIALIZED (
    SELECT * FROM event_staging
), history AS (
    INSERT INTO delivery_events (tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version)
    SELECT tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version
    FROM new_events
),

-- The batch per device, campaign, UTC day and locale: the one pass over its rows that
-- every summary below is made from.
per_device_day AS MATERIALIZED (
    SELECT tenant_id, app_id, campaign_id, day, locale, device, min(at) AS first_at, max(at) AS last_at,
           count(*) FILTER (WHERE kind = 'delivered') AS delivered,
           count(*) FILTER (WHERE kind = 'impression') AS impressions,
           count(*) FILTER (WHERE kind = 'click') AS clicks,
           count(*) FILTER (WHERE kind = 'dismiss') AS dismissals,
           bit_or(CASE kind WHEN 'delivered' THEN 1 WHEN 'impression' THEN 2 WHEN 'click' THEN 4 ELSE 8 END)::smallint AS kinds
    FROM new_events
    GROUP BY tenant_id, app_id, campaign_id, day, locale, device
),

-- Per device and campaign; (xmax = 0) is true for the rows the upsert inserted, i.e.
-- devices new to the campaign, which is what the campaign's unique count adds.
per_device AS (
    SELECT tenant_id, app_id, campaign_id, device, min(first_at) AS first_at, max(last_at) AS last_at,
           sum(delivered)::bigint AS delivered, sum(impressions)::bigint AS impressions,
           sum(clicks)::bigint AS clicks, sum(dismissals)::bigint AS dismissals
    FROM per_device_day
    GROUP BY tenant_id, app_id, campaign_id, device
), device_summary AS (
    INSERT INTO device_campaign_summary AS d
        (tenant_id, app_id, campaign_id, device, first_at, last_at, delivered, impressions, clicks, dismissals)
    SELECT * FROM per_device ORDER BY campaign_id, device
    ON CONFLICT (campaign_id, device) DO UPDATE SET
        first_at = least(d.first_at, excluded.first_at),
        last_at = greatest(d.last_at, excluded.last_at),
        delivered = d.delivered + excluded.delivered,
        impressions = d.impressions + excluded.impressions,
        clicks = d.clicks + excluded.clicks,
        dismissals = d.dismissals + excluded.dismissals
    RETURNING d.campaign_id, (xmax = 0) AS new_device
), campaign_totals AS (
    INSERT INTO batch_campaign_totals
    SELECT p.tenant_id, p.app_id, p.campaign_id, sum(p.delivered), sum(p.impressions), sum(p.clicks), sum(p.dismissals),
           coalesce(max(n.n), 0), min(p.first_at), max(p.last_at)
    FROM per_device p
    LEFT JOIN (SELECT campaign_id, count(*) FILTER (WHERE new_device) AS n FROM device_summary GROUP BY campaign_id) n
        USING (campaign_id)
    GROUP BY p.tenant_id, p.app_id, p.campaign_id
),

-- Per campaign, UTC day and locale. A device counts once per day, locale and kind:
-- campaign_device_days keeps a bit per kind it has counted (delivered 1, impression 2,
-- click 4, dismiss 8); the upsert returns the bits it set (rows where nothing new was
-- set are left alone and not returned).
marked AS (
    INSERT INTO campaign_device_days AS d (campaign_id, day, locale, device, kinds)
    SELECT campaign_id, day, locale, device, kinds
    FROM per_device_day
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (campaign_id, day, locale, device) DO UPDATE
        SET previous_kinds = d.kinds, kinds = d.kinds | excluded.kinds
        WHERE d.kinds | excluded.kinds <> d.kinds
    RETURNING d.campaign_id, d.day, d.locale, d.kinds & ~d.previous_kinds AS bits
)
INSERT INTO batch_daily_totals
SELECT g.tenant_id, g.app_id, g.campaign_id, g.day, g.locale, g.delivered, g.impressions, g.clicks, g.dismissals,
       coalesce(u.delivered, 0), coalesce(u.impressions, 0), coalesce(u.clicks, 0), coalesce(u.dismissals, 0)
FROM (SELECT tenant_id, app_id, campaign_id, day, locale,
             sum(delivered) AS delivered, sum(impressions) AS impressions,
             sum(clicks) AS clicks, sum(dismissals) AS dismissals
      FROM per_device_day
      GROUP BY 1, 2, 3, 4, 5) g
LEFT JOIN (SELECT campaign_id, day, locale,
                  count(*) FILTER (WHERE bits & 1 <> 0) AS delivered,
                  count(*) FILTER (WHERE bits & 2 <> 0) AS impressions,
                  count(*) FILTER (WHERE bits & 4 <> 0) AS clicks,
                  count(*) FILTER (WHERE bits & 8 <> 0) AS dismissals
           FROM marked
           GROUP BY 1, 2, 3) u USING (campaign_id, day, locale);

-- name: add-to-rollups
-- The batch's totals added to the rollups, in key order, just before the commit: the
-- rows every batch shares are held for as short a time as possible. Returns how many
-- events were new.
WITH campaigns AS (
    INSERT INTO campaign_rollup AS r
        (tenant_id, app_id, campaign_id, delivered, impressions, clicks, dismissals, unique_devices, first_at, last_at)
    SELECT * FROM batch_campaign_totals ORDER BY campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET
        delivered = r.delivered + excluded.delivered,
        impressions = r.impressions + excluded.impressions,
        clicks = r.clicks + excluded.clicks,
        dismissals = r.dismissals + excluded.dismissals,
        unique_devices = r.unique_devices + excluded.unique_devices,
        first_at = least(r.first_at, excluded.first_at),
        last_at = greatest(r.last_at, excluded.last_at)
), daily AS (
    INSERT INTO campaign_daily_rollup AS r
    SELECT * FROM batch_daily_totals ORDER BY campaign_id, day, locale
    ON CONFLICT (campaign_id, day, locale) DO UPDATE SET
        delivered = r.delivered + excluded.delivered,
        impressions = r.impressions + excluded.impressions,
        clicks = r.clicks + excluded.clicks,
        dismissals = r.dismissals + excluded.dismissals,
        delivered_devices = r.delivered_devices + excluded.delivered_devices,
        impression_devices = r.impression_devices + excluded.impression_devices,
        click_devices = r.click_devices + excluded.click_devices,
        dismiss_devices = r.dismiss_devices + excluded.dismiss_devices
)
SELECT coalesce(sum(delivered + impressions + clicks + dismissals), 0)::bigint AS inserted FROM batch_campaign_totals;

-- name: event-targets
-- Every campaign with its tenant and app, slugs and ids: what EventTargets resolves events
-- against, in memory.
SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign, t.id AS tenant_id, a.id AS app_id, c.id
FROM campaigns c JOIN apps a ON a.id = c.app_id JOIN tenants t ON t.id = c.tenant_id;

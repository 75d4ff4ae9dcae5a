-- Per-device delivery history: what each device was shown and what it did, and the rollups
-- reports read. `herald events ingest` writes all of it, a batch per transaction, so the
-- history and its rollups never disagree, even after a crash.

CREATE TYPE event_kind AS ENUM ('delivered', 'impression', 'click', 'dismiss');

-- Every event id ever stored (client-made UUIDs). Re-ingesting a file, or one that overlaps
-- an earlier one, counts nothing twice. Kept when raw partitions are pruned: an old file
-- ingested again still counts nothing.
CREATE TABLE event_ids (
    event_id uuid PRIMARY KEY
);

-- The raw history, one partition per month (created by ingest as needed, dropped whole by
-- `herald events prune`). No foreign keys: campaigns are never deleted, and ingest
-- resolves every id in the same transaction that inserts the row.
CREATE TABLE delivery_events (
    tenant_id    bigint NOT NULL,
    app_id       bigint NOT NULL,
    campaign_id  bigint NOT NULL,
    event_id     uuid NOT NULL,
    device       text NOT NULL CHECK (length(device) BETWEEN 1 AND 128),
    kind         event_kind NOT NULL,
    at           timestamptz NOT NULL,
    locale       locale_tag NOT NULL,
    app_version  text NOT NULL CHECK (length(app_version) <= 64),
    os_version   text CHECK (length(os_version) <= 64)
) PARTITION BY RANGE (at);
-- Per-campaign questions (what happened to campaign C, when) and per-device ones (what did device D see).
CREATE INDEX delivery_events_campaign_idx ON delivery_events (campaign_id, at);
CREATE INDEX delivery_events_device_idx ON delivery_events (tenant_id, device, at);

-- One row per device and campaign: first and last event, counts by kind.
CREATE TABLE device_campaign_summary (
    tenant_id    bigint NOT NULL,
    app_id       bigint NOT NULL,
    campaign_id  bigint NOT NULL,
    device       text NOT NULL,
    first_at     timestamptz NOT NULL,
    last_at      timestamptz NOT NULL,
    delivered    bigint NOT NULL DEFAULT 0,
    impressions  bigint NOT NULL DEFAULT 0,
    clicks       bigint NOT NULL DEFAULT 0,
    dismissals   bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, device)
);

-- Per campaign: totals and exact unique devices (a device counts once, at its first event).
CREATE TABLE campaign_rollup (
    tenant_id       bigint NOT NULL,
    app_id          bigint NOT NULL,
    campaign_id     bigint PRIMARY KEY,
    delivered       bigint NOT NULL DEFAULT 0,
    impressions     bigint NOT NULL DEFAULT 0,
    clicks          bigint NOT NULL DEFAULT 0,
    dismissals      bigint NOT NULL DEFAULT 0,
    unique_devices  bigint NOT NULL DEFAULT 0,
    first_at        timestamptz NOT NULL,
    last_at         timestamptz NOT NULL
);
CREATE INDEX campaign_rollup_app_idx ON campaign_rollup (tenant_id, app_id);

-- Per campaign, UTC day, locale and kind: events and exact unique devices.
CREATE TABLE campaign_daily_rollup (
    tenant_id       bigint NOT NULL,
    app_id          bigint NOT NULL,
    campaign_id     bigint NOT NULL,
    day             date NOT NULL,
    locale          locale_tag NOT NULL,
    kind            event_kind NOT NULL,
    events          bigint NOT NULL,
    unique_devices  bigint NOT NULL,
    PRIMARY KEY (campaign_id, day, locale, kind)
);
CREATE INDEX campaign_daily_rollup_tenant_day_idx ON campaign_daily_rollup (tenant_id, day);

-- Which kinds each device already counted for, per campaign, day and locale (a bit per
-- kind: delivered 1, impression 2, click 4, dismiss 8): what makes the daily unique counts
-- exact. `previous_kinds` is what `kinds` was before the last update, so an upsert's
-- RETURNING tells which bits it set. Partitioned like the raw history and pruned with it
-- (an event older than the pruned horizon is refused, so these rows are never needed again).
CREATE TABLE campaign_device_days (
    campaign_id     bigint NOT NULL,
    day             date NOT NULL,
    locale          locale_tag NOT NULL,
    device          text NOT NULL,
    kinds           smallint NOT NULL,
    previous_kinds  smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, day, locale, device)
) PARTITION BY RANGE (day);

-- Raw events before this date were pruned; ingest refuses events older than it.
CREATE TABLE event_retention (
    only_row       boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    pruned_before  date NOT NULL
);

-- The month partitions of the raw history and of campaign_device_days for the month of
-- `month`. Names come from the date alone (delivery_events_2026_11), never from input.
-- SECURITY DEFINER: partitions belong to the schema owner, whichever role ingests.
CREATE FUNCTION herald_ensure_event_partitions(month date) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
DECLARE
    first_day date := date_trunc('month', month)::date;
    next_day date := (date_trunc('month', month) + interval '1 month')::date;
    suffix text := to_char(first_day, 'YYYY_MM');
BEGIN
    -- Two ingests may want the same month at once: one creates it, the other then sees it.
    PERFORM pg_advisory_xact_lock(4851, 1);  -- "HQ", partitions
    IF to_regclass('delivery_events_' || suffix) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF delivery_events FOR VALUES FROM (%L) TO (%L)',
                       'delivery_events_' || suffix, first_day::timestamptz, next_day::timestamptz);
    END IF;
    IF to_regclass('campaign_device_days_' || suffix) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF campaign_device_days FOR VALUES FROM (%L) TO (%L)',
                       'campaign_device_days_' || suffix, first_day, next_day);
    END IF;
END
$$;

-- Drops the whole months that end on or before `before` (raw events and device-day marks),
-- keeps every rollup, and moves the horizon. Returns the raw partitions dropped.
CREATE FUNCTION herald_prune_events(before date) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
DECLARE
    child record;
    month_start date;
BEGIN
    PERFORM pg_advisory_xact_lock(4851, 1);
    FOR child IN
        SELECT c.relname::text AS name, p.relname::text AS parent
        FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname IN ('delivery_events', 'campaign_device_days')
          AND p.relnamespace = 'public'::regnamespace
          AND c.relname ~ '_[0-9]{4}_[0-9]{2}$'
        ORDER BY c.relname
    LOOP
        month_start := to_date(right(child.name, 7), 'YYYY_MM');
        IF (month_start + interval '1 month')::date <= before THEN
            EXECUTE format('DROP TABLE %I', child.name);
            IF child.parent = 'delivery_events' THEN
                RETURN NEXT child.name;
            END IF;
        END IF;
    END LOOP;
    -- The horizon only moves forward, to the start of the first month still kept.
    INSERT INTO event_retention (pruned_before)
    VALUES (date_trunc('month', before)::date)
    ON CONFLICT (only_row) DO UPDATE
        SET pruned_before = greatest(event_retention.pruned_before, excluded.pruned_before);
END
$$;

REVOKE ALL ON FUNCTION herald_ensure_event_partitions(date), herald_prune_events(date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION herald_ensure_event_partitions(date), herald_prune_events(date) TO herald_operator;

-- Tenant tables: the same two policies as every other (0006).
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['delivery_events', 'device_campaign_summary', 'campaign_rollup', 'campaign_daily_rollup']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I TO herald_tenant
                        USING (tenant_id = herald_current_tenant())
                        WITH CHECK (tenant_id = herald_current_tenant())', t);
        EXECUTE format('CREATE POLICY operator_access ON %I TO herald_operator
                        USING (true) WITH CHECK (true)', t);
    END LOOP;
END
$$;

-- Ingest and prune are operator work; a tenant session may read its own history.
GRANT SELECT ON delivery_events, device_campaign_summary, campaign_rollup, campaign_daily_rollup TO herald_tenant;
GRANT SELECT, INSERT ON event_ids, delivery_events TO herald_operator;
GRANT SELECT, INSERT, UPDATE ON device_campaign_summary, campaign_rollup, campaign_daily_rollup,
    campaign_device_days TO herald_operator;
GRANT SELECT ON event_retention TO herald_operator;

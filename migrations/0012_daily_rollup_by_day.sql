-- The daily rollup keeps one row per campaign, UTC day and locale, with a column pair
-- (events, unique devices) per kind, instead of a row per kind: ingest then upserts a
-- quarter as many rows (the upsert per key is what the daily rollup costs), and
-- reporting.campaign_daily still shows a row per kind, exactly as before.

ALTER TABLE campaign_daily_rollup RENAME TO campaign_daily_rollup_by_kind;

-- Rows are updated in place by every ingest: room on each page lets those updates stay
-- on the page (HOT) instead of adding index entries.
CREATE TABLE campaign_daily_rollup (
    tenant_id           bigint NOT NULL,
    app_id              bigint NOT NULL,
    campaign_id         bigint NOT NULL,
    day                 date NOT NULL,
    locale              locale_tag NOT NULL,
    delivered           bigint NOT NULL DEFAULT 0,
    impressions         bigint NOT NULL DEFAULT 0,
    clicks              bigint NOT NULL DEFAULT 0,
    dismissals          bigint NOT NULL DEFAULT 0,
    delivered_devices   bigint NOT NULL DEFAULT 0,
    impression_devices  bigint NOT NULL DEFAULT 0,
    click_devices       bigint NOT NULL DEFAULT 0,
    dismiss_devices     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, day, locale)
) WITH (fillfactor = 80);

INSERT INTO campaign_daily_rollup
SELECT tenant_id, app_id, campaign_id, day, locale,
       coalesce(sum(events) FILTER (WHERE kind = 'delivered'), 0),
       coalesce(sum(events) FILTER (WHERE kind = 'impression'), 0),
       coalesce(sum(events) FILTER (WHERE kind = 'click'), 0),
       coalesce(sum(events) FILTER (WHERE kind = 'dismiss'), 0),
       coalesce(sum(unique_devices) FILTER (WHERE kind = 'delivered'), 0),
       coalesce(sum(unique_devices) FILTER (WHERE kind = 'impression'), 0),
       coalesce(sum(unique_devices) FILTER (WHERE kind = 'click'), 0),
       coalesce(sum(unique_devices) FILTER (WHERE kind = 'dismiss'), 0)
FROM campaign_daily_rollup_by_kind
GROUP BY tenant_id, app_id, campaign_id, day, locale;

CREATE INDEX campaign_daily_rollup_tenant_day_idx_v2 ON campaign_daily_rollup (tenant_id, day);
ALTER TABLE campaign_rollup SET (fillfactor = 80);

-- The same view as before (a row per kind that happened), now unfolded from the columns.
CREATE OR REPLACE VIEW reporting.campaign_daily WITH (security_barrier) AS
SELECT t.slug::text AS tenant,
       a.slug::text AS app,
       c.key::text AS campaign,
       d.day,
       d.locale::text AS locale,
       k.event,
       k.events,
       k.unique_devices
FROM campaign_daily_rollup d
CROSS JOIN LATERAL (
    VALUES ('delivered', d.delivered, d.delivered_devices),
           ('impression', d.impressions, d.impression_devices),
           ('click', d.clicks, d.click_devices),
           ('dismiss', d.dismissals, d.dismiss_devices)
) AS k (event, events, unique_devices)
JOIN campaigns c ON c.id = d.campaign_id
JOIN apps a ON a.id = d.app_id
JOIN tenants t ON t.id = d.tenant_id
WHERE k.events > 0
  AND (d.tenant_id IN (SELECT g.tenant_id FROM reporting_grants g WHERE g.role_name = current_user)
       OR pg_has_role(current_user, 'herald_operator', 'MEMBER'));

DROP TABLE campaign_daily_rollup_by_kind;
ALTER INDEX campaign_daily_rollup_tenant_day_idx_v2 RENAME TO campaign_daily_rollup_tenant_day_idx;

-- The same policies and grants as every tenant table (0006, 0009).
ALTER TABLE campaign_daily_rollup ENABLE ROW LEVEL SECURITY;
ALTER TABLE campaign_daily_rollup FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON campaign_daily_rollup TO herald_tenant
    USING (tenant_id = herald_current_tenant()) WITH CHECK (tenant_id = herald_current_tenant());
CREATE POLICY operator_access ON campaign_daily_rollup TO herald_operator USING (true) WITH CHECK (true);
GRANT SELECT ON campaign_daily_rollup TO herald_tenant;
GRANT SELECT, INSERT, UPDATE ON campaign_daily_rollup TO herald_operator;

-- Reporting views planned once (issue #29).
--
-- 0025's views were each the union of two readings, a tenant's login's and Herald's operator
-- role's, of which at most one returns rows; PostgreSQL planned both for every query. For one
-- device's history that planning was most of the time: 2.2 times the same question asked of
-- the tables. Each view is now one reading, whose tenants are a list computed once per
-- statement (`herald_reporting_scope`): a tenant's login's own tenant; for Herald's operator
-- role, every tenant, or the one its session names in `herald.reporting_tenant` (a slug:
-- `herald report --tenant` sets it, a DBA may). `tenant_id = ANY (list)` is an index
-- condition that leads with the tenant, as `tenant_id = x` was, and the analyst's own
-- conditions stay beside it.
--
-- The `tenant` column is the scope's slug when it has one tenant: the tenants table is then
-- never read (a condition on `tenant` is checked on the caller's own rows). Over every tenant
-- each row's slug is looked up by the row's tenant id.

-- The tenants the caller reads, and their slug when there is one. Not a security definer: the
-- tenants table is read as Herald's operator role; the login's own tenant comes from
-- herald_login_tenant(), which is one. A tenant's login is held to its tenant whatever it sets.
CREATE FUNCTION herald_reporting_scope(OUT tenant_ids bigint[], OUT tenant text)
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    own bigint := public.herald_login_tenant();
BEGIN
    IF own IS NOT NULL THEN
        tenant_ids := ARRAY[own];
        tenant := public.herald_login_tenant_slug();
    ELSIF public.herald_reporting_every_tenant(current_user) THEN
        tenant := nullif(current_setting('herald.reporting_tenant', true), '');
        tenant_ids := ARRAY(SELECT t.id FROM public.tenants t WHERE tenant IS NULL OR t.slug = tenant);
    END IF;
END
$$;

CREATE OR REPLACE VIEW reporting.campaign_summary WITH (security_barrier) AS
WITH scope AS MATERIALIZED (SELECT s.tenant_ids, s.tenant FROM public.herald_reporting_scope() s)
SELECT coalesce((SELECT tenant FROM scope), (SELECT t.slug::text FROM public.tenants t WHERE t.id = r.tenant_id)) AS tenant,
       a.slug::text AS app,
       c.key::text AS campaign,
       c.kind::text AS kind,
       r.delivered,
       r.impressions,
       r.clicks,
       r.dismissals,
       r.unique_devices,
       CASE WHEN r.impressions > 0 THEN round(r.clicks::numeric / r.impressions, 4) END AS click_through_rate,
       r.first_at AS first_event,
       r.last_at AS last_event
FROM public.campaign_rollup r
JOIN public.campaigns c ON c.id = r.campaign_id
JOIN public.apps a ON a.id = r.app_id AND a.id = c.app_id
WHERE r.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND c.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND a.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[]);

CREATE OR REPLACE VIEW reporting.campaign_daily WITH (security_barrier) AS
WITH scope AS MATERIALIZED (SELECT s.tenant_ids, s.tenant FROM public.herald_reporting_scope() s)
SELECT coalesce((SELECT tenant FROM scope), (SELECT t.slug::text FROM public.tenants t WHERE t.id = d.tenant_id)) AS tenant,
       a.slug::text AS app,
       c.key::text AS campaign,
       d.day,
       d.locale::text AS locale,
       k.event,
       k.events,
       k.unique_devices
FROM public.campaign_daily_rollup d
CROSS JOIN LATERAL (
    VALUES ('delivered', d.delivered, d.delivered_devices),
           ('impression', d.impressions, d.impression_devices),
           ('click', d.clicks, d.click_devices),
           ('dismiss', d.dismissals, d.dismiss_devices)
) AS k (event, events, unique_devices)
JOIN public.campaigns c ON c.id = d.campaign_id
JOIN public.apps a ON a.id = d.app_id AND a.id = c.app_id
WHERE k.events > 0
  AND d.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND c.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND a.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[]);

CREATE OR REPLACE VIEW reporting.device_history WITH (security_barrier) AS
WITH scope AS MATERIALIZED (SELECT s.tenant_ids, s.tenant FROM public.herald_reporting_scope() s)
SELECT coalesce((SELECT tenant FROM scope), (SELECT t.slug::text FROM public.tenants t WHERE t.id = e.tenant_id)) AS tenant,
       a.slug::text AS app,
       e.device,
       e.at,
       c.key::text AS campaign,
       c.kind::text AS kind,
       e.kind::text AS event,
       e.locale::text AS locale,
       e.app_version,
       e.os_version,
       e.event_id
FROM public.delivery_events e
JOIN public.campaigns c ON c.id = e.campaign_id
JOIN public.apps a ON a.id = e.app_id AND a.id = c.app_id
WHERE e.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND c.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND a.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[]);

CREATE OR REPLACE VIEW reporting.app_summary WITH (security_barrier) AS
WITH scope AS MATERIALIZED (SELECT s.tenant_ids, s.tenant FROM public.herald_reporting_scope() s)
SELECT coalesce((SELECT tenant FROM scope), (SELECT t.slug::text FROM public.tenants t WHERE t.id = r.tenant_id)) AS tenant,
       a.slug::text AS app,
       count(*) AS campaigns,
       sum(r.delivered)::bigint AS delivered,
       sum(r.impressions)::bigint AS impressions,
       sum(r.clicks)::bigint AS clicks,
       sum(r.dismissals)::bigint AS dismissals,
       CASE WHEN sum(r.impressions) > 0 THEN round(sum(r.clicks)::numeric / sum(r.impressions), 4) END AS click_through_rate,
       min(r.first_at) AS first_event,
       max(r.last_at) AS last_event
FROM public.campaign_rollup r
JOIN public.apps a ON a.id = r.app_id
WHERE r.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
  AND a.tenant_id = ANY ((SELECT tenant_ids FROM scope)::bigint[])
GROUP BY r.tenant_id, a.slug;

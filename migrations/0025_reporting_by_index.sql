-- Reporting at the speed of an index (issue #29).
--
-- Since 0015 the reporting views read through security-definer functions that returned all
-- of the caller's rows, which the planner could neither filter nor index: one device's
-- history read the tenant's whole history and took minutes at a few million events. The
-- views now read the tables themselves, as security_barrier views: the caller's tenant is
-- a condition of every table in the view, and an analyst's conditions on text, days and
-- times (leakproof operators) are index conditions beside it. A condition that is not
-- leakproof (a cast, a function of the analyst's) runs above the tenant's, on the caller's
-- rows only, so it can neither see nor fail on another tenant's row.
--
-- The rows policies (0015, 0016, 0020) now hold a reporting login to its tenant as they hold
-- a tenant operator's: by who it is (session_user, looked up in the grants tables), in any
-- role, inside views and security-definer functions. A login with no grant and no Herald
-- role still sees no row.
--
-- Every table a view reads has an index leading with tenant_id for each way the view reaches
-- it (or is reached by the id a row of the caller's names). The logins of tenants (analysts
-- and tenant operators) plan without sequential scans and without plain index scans: a plan
-- then reads each table by a bitmap scan, which needs an index condition, and finds the
-- caller's rows by the tenant or by such an id; never by a scan of a whole table or index
-- that filters other tenants' rows out, which EXPLAIN ANALYZE would count. (Herald's
-- own sessions of such a login turn both back on: their plans are never shown.) A login
-- that turns them back on can see in such a plan how many rows a table holds, which
-- pg_class and pg_stat_user_tables show every login anyway. JIT compilation is off for
-- these logins, and for `herald report`: a view's plan holds the branch that does not run,
-- whose estimated cost (and the cost of the scans these logins turned off) would otherwise
-- make PostgreSQL compile every query, which took longer than the query itself.

-- The tenant a tenant's login belongs to: its operator grant (0016) or its reporting grant
-- (0010); NULL for Herald's own login and any other.
CREATE FUNCTION herald_login_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    RETURN coalesce((SELECT g.tenant_id FROM public.operator_grants g WHERE g.role_name = session_user),
                    (SELECT g.tenant_id FROM public.reporting_grants g WHERE g.role_name = session_user));
END
$$;

-- 0020's bounds, with a reporting login held to its tenant as a tenant operator's is: in its
-- own role (reading a view) as in Herald's (inside a security-definer function).
CREATE OR REPLACE FUNCTION herald_first_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    login_tenant bigint := public.herald_login_tenant();
BEGIN
    RETURN CASE
               WHEN login_tenant IS NOT NULL THEN login_tenant
               WHEN current_user = 'herald_operator' THEN '-9223372036854775808'::bigint
               WHEN current_user = 'herald_tenant' THEN public.herald_current_tenant()
           END;
END
$$;

CREATE OR REPLACE FUNCTION herald_last_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    login_tenant bigint := public.herald_login_tenant();
BEGIN
    RETURN CASE
               WHEN login_tenant IS NOT NULL THEN login_tenant
               WHEN current_user = 'herald_operator' THEN '9223372036854775807'::bigint
               WHEN current_user = 'herald_tenant' THEN public.herald_current_tenant()
           END;
END
$$;

-- The slug of the login's tenant (NULL for any other login): the views' `tenant` column.
CREATE FUNCTION herald_login_tenant_slug() RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    RETURN (SELECT t.slug::text FROM public.tenants t WHERE t.id = public.herald_login_tenant());
END
$$;

-- Whether the caller reads every tenant's reporting rows: Herald's operator role in use
-- (`caller`: current_user where the view is queried) by a login that may become it and is
-- no tenant's. A tenant's login reads its own tenant's rows, whatever role it uses. Any
-- other caller (Herald's own login or a superuser without SET ROLE) would read none: told
-- so, with who can read them, rather than given an empty answer that looks like no events.
CREATE FUNCTION herald_reporting_every_tenant(caller name) RETURNS boolean
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    IF public.herald_login_tenant() IS NOT NULL THEN
        RETURN false;
    END IF;
    IF caller = 'herald_operator' AND EXISTS (SELECT FROM pg_roles WHERE rolname = 'herald_operator')
       AND pg_has_role(session_user, 'herald_operator', 'MEMBER') THEN
        RETURN true;
    END IF;
    RAISE EXCEPTION 'the reporting views show % no rows: they show a tenant''s rows to its analysts and operators, and every tenant''s to herald_operator', caller
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Run SET ROLE herald_operator first (Herald''s own login and superusers may), or log in as an analyst of the tenant (herald tenant grant-reporting).';
END
$$;

-- Indexes leading with the tenant for what the views join and the documented questions:
-- one campaign's days, and an app's (its campaigns' days, from the index below); one
-- campaign's raw events (replacing 0009's (campaign_id, at), the one index of the raw
-- history that did not lead with the tenant); each campaign's totals. A day range has
-- (tenant_id, day) (0012), one device (tenant_id, device, at) (0009), an app's totals
-- (tenant_id, app_id) (0009). Rollup rows are updated in place, never in these columns, so
-- the updates stay HOT.
CREATE INDEX campaign_daily_rollup_campaign_idx ON campaign_daily_rollup (tenant_id, campaign_id, day);
CREATE INDEX campaign_rollup_campaign_idx ON campaign_rollup (tenant_id, campaign_id);
CREATE INDEX delivery_events_tenant_campaign_idx ON delivery_events (tenant_id, campaign_id, at);
DROP INDEX delivery_events_campaign_idx;

-- The views: the same names, columns and types as before, each the union of two readings
-- of which at most one returns rows.
--   * A tenant's login's: every table carries `tenant_id = <its tenant>`, a value computed
--     once per statement and compared for equality, which the planner estimates per tenant
--     and an index leading with tenant_id positions on, the analyst's own conditions beside
--     it. Its `tenant` column is the login's tenant's slug, computed once too: the tenants
--     table is not read (a condition on `tenant` decides once whether anything is read).
--   * Herald's operator role's, over every tenant: its condition is checked once per
--     statement, before anything is read, and is false for every tenant's login.
-- Joins go by ids (a row names its own tenant's app and campaign), and app by campaign too,
-- so that a plan may go app → campaign → rows.
CREATE OR REPLACE VIEW reporting.campaign_summary WITH (security_barrier) AS
SELECT (SELECT public.herald_login_tenant_slug()) AS tenant,
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
WHERE r.tenant_id = (SELECT public.herald_login_tenant())
  AND c.tenant_id = (SELECT public.herald_login_tenant())
  AND a.tenant_id = (SELECT public.herald_login_tenant())
UNION ALL
SELECT t.slug::text, a.slug::text, c.key::text, c.kind::text, r.delivered, r.impressions, r.clicks, r.dismissals,
       r.unique_devices, CASE WHEN r.impressions > 0 THEN round(r.clicks::numeric / r.impressions, 4) END,
       r.first_at, r.last_at
FROM public.campaign_rollup r
JOIN public.campaigns c ON c.id = r.campaign_id
JOIN public.apps a ON a.id = r.app_id AND a.id = c.app_id
JOIN public.tenants t ON t.id = r.tenant_id
WHERE (SELECT public.herald_reporting_every_tenant(current_user));

CREATE OR REPLACE VIEW reporting.campaign_daily WITH (security_barrier) AS
SELECT (SELECT public.herald_login_tenant_slug()) AS tenant,
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
  AND d.tenant_id = (SELECT public.herald_login_tenant())
  AND c.tenant_id = (SELECT public.herald_login_tenant())
  AND a.tenant_id = (SELECT public.herald_login_tenant())
UNION ALL
SELECT t.slug::text, a.slug::text, c.key::text, d.day, d.locale::text, k.event, k.events, k.unique_devices
FROM public.campaign_daily_rollup d
CROSS JOIN LATERAL (
    VALUES ('delivered', d.delivered, d.delivered_devices),
           ('impression', d.impressions, d.impression_devices),
           ('click', d.clicks, d.click_devices),
           ('dismiss', d.dismissals, d.dismiss_devices)
) AS k (event, events, unique_devices)
JOIN public.campaigns c ON c.id = d.campaign_id
JOIN public.apps a ON a.id = d.app_id AND a.id = c.app_id
JOIN public.tenants t ON t.id = d.tenant_id
WHERE k.events > 0
  AND (SELECT public.herald_reporting_every_tenant(current_user));

CREATE OR REPLACE VIEW reporting.device_history WITH (security_barrier) AS
SELECT (SELECT public.herald_login_tenant_slug()) AS tenant,
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
WHERE e.tenant_id = (SELECT public.herald_login_tenant())
  AND c.tenant_id = (SELECT public.herald_login_tenant())
  AND a.tenant_id = (SELECT public.herald_login_tenant())
UNION ALL
SELECT t.slug::text, a.slug::text, e.device, e.at, c.key::text, c.kind::text, e.kind::text, e.locale::text,
       e.app_version, e.os_version, e.event_id
FROM public.delivery_events e
JOIN public.campaigns c ON c.id = e.campaign_id
JOIN public.apps a ON a.id = e.app_id AND a.id = c.app_id
JOIN public.tenants t ON t.id = e.tenant_id
WHERE (SELECT public.herald_reporting_every_tenant(current_user));

CREATE OR REPLACE VIEW reporting.app_summary WITH (security_barrier) AS
SELECT (SELECT public.herald_login_tenant_slug()) AS tenant,
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
WHERE r.tenant_id = (SELECT public.herald_login_tenant())
  AND a.tenant_id = (SELECT public.herald_login_tenant())
GROUP BY a.slug
UNION ALL
SELECT t.slug::text, a.slug::text, count(*), sum(r.delivered)::bigint, sum(r.impressions)::bigint, sum(r.clicks)::bigint,
       sum(r.dismissals)::bigint,
       CASE WHEN sum(r.impressions) > 0 THEN round(sum(r.clicks)::numeric / sum(r.impressions), 4) END,
       min(r.first_at), max(r.last_at)
FROM public.campaign_rollup r
JOIN public.apps a ON a.id = r.app_id
JOIN public.tenants t ON t.id = r.tenant_id
WHERE (SELECT public.herald_reporting_every_tenant(current_user))
GROUP BY t.slug, a.slug;

COMMENT ON VIEW reporting.campaign_summary IS
    'Per campaign, all time: delivered, impressions, clicks, dismissals, unique devices, click-through rate, first and last event. '
    'A tenant''s analysts and operators see their tenant''s rows; herald_operator (SET ROLE herald_operator) sees every tenant''s.';
COMMENT ON VIEW reporting.campaign_daily IS
    'Per campaign, UTC day, locale and event kind: events and unique devices (from the daily rollups, kept when raw events are pruned). '
    'Indexed by tenant and campaign, and by tenant and day. Rows as reporting.campaign_summary.';
COMMENT ON VIEW reporting.device_history IS
    'One row per raw delivery event (the months not pruned): one device''s history, in order of at. Indexed by tenant, device and '
    'time, and by tenant, campaign and time. Rows as reporting.campaign_summary.';
COMMENT ON VIEW reporting.app_summary IS
    'Per app, all time: campaigns, delivered, impressions, clicks, dismissals, click-through rate, first and last event. '
    'Rows as reporting.campaign_summary.';

-- The functions the views read through until now.
DROP FUNCTION herald_reporting_campaign_summary(name), herald_reporting_campaign_daily(name),
    herald_reporting_device_history(name), herald_reporting_app_summary(name), herald_reporting_tenants(name);

-- 0016's, and then: a tenant's logins plan without sequential or plain index scans, and
-- without JIT (see the top). Run for
-- every login by herald_ensure_access() on each `herald migrate`, so the setting comes back
-- with a restored login too.
CREATE OR REPLACE FUNCTION herald_grant_login_access(role_name text) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, herald_tenant', current_database());
    IF EXISTS (SELECT FROM public.reporting_grants g WHERE g.role_name = herald_grant_login_access.role_name) THEN
        EXECUTE format('GRANT USAGE ON SCHEMA reporting TO %I', role_name);
        EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO %I', role_name);
    ELSIF EXISTS (SELECT FROM public.operator_grants g WHERE g.role_name = herald_grant_login_access.role_name) THEN
        EXECUTE format('GRANT herald_tenant TO %I', role_name);
        IF to_regclass('public.herald_migrations') IS NOT NULL THEN
            EXECUTE format('GRANT SELECT ON public.herald_migrations TO %I', role_name);
        END IF;
    ELSE
        RETURN;
    END IF;
    EXECUTE format('ALTER ROLE %I SET enable_seqscan = off', role_name);
    EXECUTE format('ALTER ROLE %I SET enable_indexscan = off', role_name);
    EXECUTE format('ALTER ROLE %I SET jit = off', role_name);
END
$$;

-- The logins granted so far get it now.
SELECT herald_ensure_access();

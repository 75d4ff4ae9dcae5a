-- Row-level security follows the role in use, not the roles a login belongs to.
--
-- Until now each tenant table had a policy TO herald_operator and one TO herald_tenant. A
-- policy applies to every member of its role that inherits it, and 0001 makes the database
-- owner a member of both: the owner saw every tenant without switching roles. From here on
-- each tenant table has one policy, for everyone, keeping the rows of the tenants the role
-- *in use* (current_user) may see:
--   herald_operator  every tenant;
--   herald_tenant    the tenant in `herald.tenant_id`;
--   any other role   none: the owner itself (unless it is a superuser), analysts, strangers.
-- The bounds are two scalars the planner evaluates once per statement (InitPlans), so the
-- policy costs two comparisons per row and a tenant's queries still use the (tenant_id, …)
-- indexes. Policies name no role, so a dump restores on a server that has none of Herald's
-- roles yet (`herald migrate` then creates them; see 0016).
--
-- The reporting views used to read the rollups with their owner's rights, which is the
-- database owner and so, through that membership, every tenant; EXPLAIN ANALYZE on them
-- also showed how many rows of other tenants their filter removed. They now read through
-- functions owned by herald_operator that return only the caller's rows: the views show
-- the same columns, and a plan shows one function scan with the caller's rows only.
-- Large objects, which no Herald role uses, can no longer be created by just anyone.

-- The first and last tenant id the role in use may see (NULL: none). Not SECURITY DEFINER:
-- current_user must be the caller's role. 0015 narrows both to a tenant operator's tenant.
CREATE FUNCTION herald_first_visible_tenant() RETURNS bigint
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
        SELECT CASE current_user
                   WHEN 'herald_operator' THEN '-9223372036854775808'::bigint
                   WHEN 'herald_tenant' THEN public.herald_current_tenant()
               END
    $$;
CREATE FUNCTION herald_last_visible_tenant() RETURNS bigint
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
        SELECT CASE current_user
                   WHEN 'herald_operator' THEN '9223372036854775807'::bigint
                   WHEN 'herald_tenant' THEN public.herald_current_tenant()
               END
    $$;

DO $$
DECLARE
    t text;
    key text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tenants', 'apps', 'campaigns', 'alert_message_keys', 'campaign_conditions',
                             'banner_contents', 'banner_views', 'alert_contents', 'story_contents', 'story_pages',
                             'audit_log', 'delivery_events', 'device_campaign_summary', 'campaign_rollup',
                             'campaign_daily_rollup']
    LOOP
        key := CASE WHEN t = 'tenants' THEN 'id' ELSE 'tenant_id' END;
        EXECUTE format('DROP POLICY tenant_isolation ON %I', t);
        EXECUTE format('DROP POLICY operator_access ON %I', t);
        EXECUTE format('CREATE POLICY herald_rows ON %I
                        USING (%I BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
                        WITH CHECK (%I BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))',
                       t, key, key);
    END LOOP;
END
$$;

-- The reporting rows the caller may read, a function per view. `caller` is the role in use
-- where the view is queried (the view passes current_user, which a SECURITY DEFINER function
-- cannot see itself); it only ever narrows: every tenant needs caller = herald_operator AND a
-- login that may become it. Otherwise the login's own grant decides (reporting_grants; 0015
-- adds tenant operators), whatever the caller says. Owned by herald_operator (below), whose
-- rows policy lets them read the rollups; search_path pinned, so no temporary object of the
-- caller's can stand in for a table, and row_security on, whatever the caller set.
CREATE FUNCTION herald_reporting_tenants(caller name) RETURNS TABLE (all_tenants boolean, tenant_id bigint)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT caller = 'herald_operator' AND pg_has_role(session_user, 'herald_operator', 'MEMBER'),
               (SELECT g.tenant_id FROM public.reporting_grants g WHERE g.role_name = session_user)
    $$;

CREATE FUNCTION herald_reporting_campaign_summary(caller name)
    RETURNS TABLE (tenant text, app text, campaign text, kind text, delivered bigint, impressions bigint, clicks bigint,
                   dismissals bigint, unique_devices bigint, click_through_rate numeric, first_event timestamptz,
                   last_event timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT t.slug::text, a.slug::text, c.key::text, c.kind::text, r.delivered, r.impressions, r.clicks, r.dismissals,
               r.unique_devices,
               CASE WHEN r.impressions > 0 THEN round(r.clicks::numeric / r.impressions, 4) END,
               r.first_at, r.last_at
        FROM public.herald_reporting_tenants(caller) s
        JOIN public.campaign_rollup r ON s.all_tenants OR r.tenant_id = s.tenant_id
        JOIN public.campaigns c ON c.id = r.campaign_id
        JOIN public.apps a ON a.id = r.app_id
        JOIN public.tenants t ON t.id = r.tenant_id
    $$;

CREATE FUNCTION herald_reporting_campaign_daily(caller name)
    RETURNS TABLE (tenant text, app text, campaign text, day date, locale text, event text, events bigint,
                   unique_devices bigint)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT t.slug::text, a.slug::text, c.key::text, d.day, d.locale::text, k.event, k.events, k.unique_devices
        FROM public.herald_reporting_tenants(caller) s
        JOIN public.campaign_daily_rollup d ON s.all_tenants OR d.tenant_id = s.tenant_id
        CROSS JOIN LATERAL (
            VALUES ('delivered', d.delivered, d.delivered_devices),
                   ('impression', d.impressions, d.impression_devices),
                   ('click', d.clicks, d.click_devices),
                   ('dismiss', d.dismissals, d.dismiss_devices)
        ) AS k (event, events, unique_devices)
        JOIN public.campaigns c ON c.id = d.campaign_id
        JOIN public.apps a ON a.id = d.app_id
        JOIN public.tenants t ON t.id = d.tenant_id
        WHERE k.events > 0
    $$;

CREATE FUNCTION herald_reporting_device_history(caller name)
    RETURNS TABLE (tenant text, app text, device text, at timestamptz, campaign text, kind text, event text,
                   locale text, app_version text, os_version text, event_id uuid)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT t.slug::text, a.slug::text, e.device, e.at, c.key::text, c.kind::text, e.kind::text, e.locale::text,
               e.app_version, e.os_version, e.event_id
        FROM public.herald_reporting_tenants(caller) s
        JOIN public.delivery_events e ON s.all_tenants OR e.tenant_id = s.tenant_id
        JOIN public.campaigns c ON c.id = e.campaign_id
        JOIN public.apps a ON a.id = e.app_id
        JOIN public.tenants t ON t.id = e.tenant_id
    $$;

CREATE FUNCTION herald_reporting_app_summary(caller name)
    RETURNS TABLE (tenant text, app text, campaigns bigint, delivered bigint, impressions bigint, clicks bigint,
                   dismissals bigint, click_through_rate numeric, first_event timestamptz, last_event timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT t.slug::text, a.slug::text, count(*), sum(r.delivered)::bigint, sum(r.impressions)::bigint,
               sum(r.clicks)::bigint, sum(r.dismissals)::bigint,
               CASE WHEN sum(r.impressions) > 0 THEN round(sum(r.clicks)::numeric / sum(r.impressions), 4) END,
               min(r.first_at), max(r.last_at)
        FROM public.herald_reporting_tenants(caller) s
        JOIN public.campaign_rollup r ON s.all_tenants OR r.tenant_id = s.tenant_id
        JOIN public.apps a ON a.id = r.app_id
        JOIN public.tenants t ON t.id = r.tenant_id
        GROUP BY t.slug, a.slug
    $$;

CREATE OR REPLACE VIEW reporting.campaign_summary WITH (security_barrier) AS
    SELECT * FROM herald_reporting_campaign_summary(current_user);
CREATE OR REPLACE VIEW reporting.campaign_daily WITH (security_barrier) AS
    SELECT * FROM herald_reporting_campaign_daily(current_user);
CREATE OR REPLACE VIEW reporting.device_history WITH (security_barrier) AS
    SELECT * FROM herald_reporting_device_history(current_user);
CREATE OR REPLACE VIEW reporting.app_summary WITH (security_barrier) AS
    SELECT * FROM herald_reporting_app_summary(current_user);

-- herald_operator owns the reporting functions (a role must be allowed to create in a schema
-- to own objects there: only for the hand-over).
GRANT CREATE ON SCHEMA public TO herald_operator;
ALTER FUNCTION herald_reporting_tenants(name) OWNER TO herald_operator;
ALTER FUNCTION herald_reporting_campaign_summary(name) OWNER TO herald_operator;
ALTER FUNCTION herald_reporting_campaign_daily(name) OWNER TO herald_operator;
ALTER FUNCTION herald_reporting_device_history(name) OWNER TO herald_operator;
ALTER FUNCTION herald_reporting_app_summary(name) OWNER TO herald_operator;
REVOKE CREATE ON SCHEMA public FROM herald_operator;

-- Large objects: no Herald role uses them, and PUBLIC may create them by default (storage
-- anyone could fill). Only a superuser may change the rights on these built-in functions:
-- a migration run by the database owner says what a superuser should run instead.
DO $$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        REVOKE EXECUTE ON FUNCTION lo_create(oid), lo_creat(integer), lo_from_bytea(oid, bytea), lo_import(text),
            lo_import(text, oid) FROM PUBLIC;
    ELSE
        RAISE WARNING 'Herald could not stop other logins from creating large objects (that needs a superuser)'
            USING HINT = 'As a superuser, in this database: REVOKE EXECUTE ON FUNCTION lo_create(oid), lo_creat(integer), '
                         'lo_from_bytea(oid, bytea), lo_import(text), lo_import(text, oid) FROM PUBLIC;';
    END IF;
END
$$;

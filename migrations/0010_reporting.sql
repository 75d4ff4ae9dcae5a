-- The reporting schema: what analysts query. Each tenant's analysts log in as their own
-- PostgreSQL role (`herald tenant grant-reporting`), which can read these views and nothing
-- else. The views run with their owner's rights over the rollups and keep only the rows of
-- the tenant granted to `current_user`: keyed on the role the analyst logged in as, which
-- they cannot change (their role is a member of nothing, so SET ROLE has nowhere to go),
-- never on a setting they could SET. Herald's operator role sees every tenant.

CREATE SCHEMA reporting;

-- Which tenant each analyst role reads (managed by grant-reporting / revoke-reporting).
CREATE TABLE reporting_grants (
    role_name   name PRIMARY KEY,
    tenant_id   bigint NOT NULL REFERENCES tenants (id),
    granted_at  timestamptz NOT NULL DEFAULT now()
);
GRANT SELECT ON reporting_grants TO herald_operator;

-- security_barrier: the tenant filter runs before any condition an analyst adds, so a
-- function in their WHERE clause never sees another tenant's rows.
CREATE VIEW reporting.campaign_summary WITH (security_barrier) AS
SELECT t.slug::text AS tenant,
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
FROM campaign_rollup r
JOIN campaigns c ON c.id = r.campaign_id
JOIN apps a ON a.id = r.app_id
JOIN tenants t ON t.id = r.tenant_id
WHERE r.tenant_id IN (SELECT g.tenant_id FROM reporting_grants g WHERE g.role_name = current_user)
   OR pg_has_role(current_user, 'herald_operator', 'MEMBER');

CREATE VIEW reporting.campaign_daily WITH (security_barrier) AS
SELECT t.slug::text AS tenant,
       a.slug::text AS app,
       c.key::text AS campaign,
       d.day,
       d.locale::text AS locale,
       d.kind::text AS event,
       d.events,
       d.unique_devices
FROM campaign_daily_rollup d
JOIN campaigns c ON c.id = d.campaign_id
JOIN apps a ON a.id = d.app_id
JOIN tenants t ON t.id = d.tenant_id
WHERE d.tenant_id IN (SELECT g.tenant_id FROM reporting_grants g WHERE g.role_name = current_user)
   OR pg_has_role(current_user, 'herald_operator', 'MEMBER');

-- Per device, what it was shown and what it did (raw events: only the months not pruned).
CREATE VIEW reporting.device_history WITH (security_barrier) AS
SELECT t.slug::text AS tenant,
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
FROM delivery_events e
JOIN campaigns c ON c.id = e.campaign_id
JOIN apps a ON a.id = e.app_id
JOIN tenants t ON t.id = e.tenant_id
WHERE e.tenant_id IN (SELECT g.tenant_id FROM reporting_grants g WHERE g.role_name = current_user)
   OR pg_has_role(current_user, 'herald_operator', 'MEMBER');

CREATE VIEW reporting.app_summary WITH (security_barrier) AS
SELECT t.slug::text AS tenant,
       a.slug::text AS app,
       count(*) AS campaigns,
       sum(r.delivered)::bigint AS delivered,
       sum(r.impressions)::bigint AS impressions,
       sum(r.clicks)::bigint AS clicks,
       sum(r.dismissals)::bigint AS dismissals,
       CASE WHEN sum(r.impressions) > 0 THEN round(sum(r.clicks)::numeric / sum(r.impressions), 4) END AS click_through_rate,
       min(r.first_at) AS first_event,
       max(r.last_at) AS last_event
FROM campaign_rollup r
JOIN apps a ON a.id = r.app_id
JOIN tenants t ON t.id = r.tenant_id
WHERE r.tenant_id IN (SELECT g.tenant_id FROM reporting_grants g WHERE g.role_name = current_user)
   OR pg_has_role(current_user, 'herald_operator', 'MEMBER')
GROUP BY t.slug, a.slug;

GRANT USAGE ON SCHEMA reporting TO herald_operator;
GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO herald_operator;

-- Analysts create nothing: no tables in public, no temporary tables (Herald's own roles keep
-- the right to temporary tables: ingest stages batches in one).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO herald_operator, herald_tenant', current_database());
END
$$;

-- Creates (or updates the password of) the login role `role_name` reading `tenant`'s
-- reports. The name is checked here and quoted with %I; a role that exists but was not made
-- by this function is refused, so it can never touch Herald's own or anyone else's role.
CREATE FUNCTION herald_grant_reporting(role_name text, tenant bigint, password text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
DECLARE
    granted_tenant bigint;
    outcome text;
BEGIN
    IF role_name !~ '^[a-z_][a-z0-9_]{0,62}$' OR role_name ~ '^(pg_|herald_)' THEN
        RAISE EXCEPTION 'invalid reporting role name "%": use lowercase letters, digits and _ (at most 63), not starting with pg_ or herald_', role_name;
    END IF;
    SELECT g.tenant_id INTO granted_tenant FROM reporting_grants g WHERE g.role_name = herald_grant_reporting.role_name;
    IF FOUND AND granted_tenant <> tenant THEN
        RAISE EXCEPTION 'role "%" already reads another tenant''s reports: revoke it there first, or pick another role name', role_name;
    ELSIF FOUND THEN
        outcome := 'updated';
    ELSIF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN
        RAISE EXCEPTION 'role "%" exists and is not a Herald reporting role: pick another role name', role_name;
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', role_name);
        INSERT INTO reporting_grants (role_name, tenant_id) VALUES (role_name, tenant);
        outcome := 'created';
    END IF;
    IF password IS NOT NULL THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', role_name, password);
    END IF;
    EXECUTE format('GRANT USAGE ON SCHEMA reporting TO %I', role_name);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO %I', role_name);
    -- Again here, not only in the migration: a database copied from a template, or restored,
    -- starts with PUBLIC's default right to temporary tables.
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO herald_operator, herald_tenant', current_database());
    RETURN outcome;
END
$$;

-- Removes `role_name`'s access to `tenant`'s reports and drops the role. False when the
-- role had no such grant (nothing done).
CREATE FUNCTION herald_revoke_reporting(role_name text, tenant bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
    AS $$
BEGIN
    DELETE FROM reporting_grants g WHERE g.role_name = herald_revoke_reporting.role_name AND g.tenant_id = tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT FROM reporting_grants g WHERE g.role_name = herald_revoke_reporting.role_name) THEN
            RAISE EXCEPTION 'role "%" reads another tenant''s reports, not this one''s', role_name;
        END IF;
        RETURN false;
    END IF;
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA reporting FROM %I', role_name);
    EXECUTE format('REVOKE USAGE ON SCHEMA reporting FROM %I', role_name);
    EXECUTE format('DROP ROLE %I', role_name);
    RETURN true;
END
$$;

REVOKE ALL ON FUNCTION herald_grant_reporting(text, bigint, text), herald_revoke_reporting(text, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION herald_grant_reporting(text, bigint, text), herald_revoke_reporting(text, bigint) TO herald_operator;

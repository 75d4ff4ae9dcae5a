-- Tenant operators: a customer's own team logs in as its own PostgreSQL role and manages its
-- tenant, and PostgreSQL keeps it there.
--
-- A tenant operator's login (`herald tenant grant-operator`) is a member of herald_tenant and
-- nothing else, and inherits nothing (NOINHERIT): it works only after SET ROLE herald_tenant,
-- as Herald does. What binds it to its tenant is who it is, not what it sets: the tenant is
-- looked up in operator_grants by session_user, the role that authenticated, which no SET
-- ROLE, RESET ROLE or setting changes (SET SESSION AUTHORIZATION needs a superuser login).
-- Every rows policy keeps such a session to that tenant whatever role it uses and whatever
-- `herald.tenant_id` says, inside views and security-definer functions too (0014's bounds
-- now come from here). Its changes are audited under its login, which `herald.actor` cannot
-- override; it cannot write the audit log itself, nor read or count sequences, nor create
-- temporary objects; a row it inserts never names its own id (a taken id would say "exists").
--
-- Publishing per tenant: a tenant operator's publish writes its own folder (its manifest
-- inside it), records runs visible to that tenant only, keeps the contents for rollbacks per
-- tenant, and takes a lock on its tenant's row of publish_locks, which only that tenant's
-- sessions and Herald's operator can lock.
--
-- herald_ensure_access() (end of file) states every privilege, ownership and login Herald's
-- roles rely on; `herald migrate` runs it every time, so a database restored with
-- `pg_restore --no-owner --no-acl` on a server without Herald's roles works again.

CREATE TABLE operator_grants (
    role_name          name PRIMARY KEY,
    tenant_id          bigint NOT NULL REFERENCES tenants (id),
    granted_at         timestamptz NOT NULL DEFAULT now(),
    -- The SCRAM verifier the CLI computed from the password (never the password itself), so
    -- `herald migrate` can recreate the login with it on a server restored from a dump.
    password_verifier  text
);
ALTER TABLE reporting_grants ADD COLUMN password_verifier text;

-- The tenant this session's login operates, or NULL for every other login.
CREATE FUNCTION herald_session_tenant() RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$ SELECT g.tenant_id FROM public.operator_grants g WHERE g.role_name = session_user $$;

-- 0014's bounds, with a tenant operator's session held to its tenant in either role.
CREATE OR REPLACE FUNCTION herald_first_visible_tenant() RETURNS bigint
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
        SELECT CASE
                   WHEN current_user NOT IN ('herald_operator', 'herald_tenant') THEN NULL
                   WHEN s.tenant IS NOT NULL THEN s.tenant
                   WHEN current_user = 'herald_operator' THEN '-9223372036854775808'::bigint
                   ELSE public.herald_current_tenant()
               END
        FROM (SELECT public.herald_session_tenant() AS tenant) s
    $$;
CREATE OR REPLACE FUNCTION herald_last_visible_tenant() RETURNS bigint
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
        SELECT CASE
                   WHEN current_user NOT IN ('herald_operator', 'herald_tenant') THEN NULL
                   WHEN s.tenant IS NOT NULL THEN s.tenant
                   WHEN current_user = 'herald_operator' THEN '9223372036854775807'::bigint
                   ELSE public.herald_current_tenant()
               END
        FROM (SELECT public.herald_session_tenant() AS tenant) s
    $$;

-- Reporting: a tenant operator reads its tenant's reports (through `herald report` or psql).
CREATE OR REPLACE FUNCTION herald_reporting_tenants(caller name) RETURNS TABLE (all_tenants boolean, tenant_id bigint)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT s.tenant IS NULL AND caller = 'herald_operator'
                   AND CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = 'herald_operator')
                            THEN pg_has_role(session_user, 'herald_operator', 'MEMBER') ELSE false END,
               coalesce(s.tenant, (SELECT g.tenant_id FROM public.reporting_grants g WHERE g.role_name = session_user))
        FROM (SELECT public.herald_session_tenant() AS tenant) s
    $$;

-- Who this session's login is to Herald, for `herald whoami` and the CLI's choice of tenant:
-- 'owner' (may become herald_operator), 'operator' (of tenant_id), 'analyst' (reads
-- tenant_id's reports) or 'none'. Runs as herald_operator (ownership below) to name the tenant.
CREATE FUNCTION herald_login() RETURNS TABLE (login text, kind text, tenant_id bigint, tenant text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
        SELECT session_user::text, g.kind, g.tenant_id, t.slug::text
        FROM (
            SELECT 1 AS rank, 'operator' AS kind, o.tenant_id FROM public.operator_grants o WHERE o.role_name = session_user
            UNION ALL
            SELECT 2, 'analyst', r.tenant_id FROM public.reporting_grants r WHERE r.role_name = session_user
            UNION ALL
            SELECT 3, 'owner', NULL
            WHERE CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = 'herald_operator')
                       THEN pg_has_role(session_user, 'herald_operator', 'MEMBER')
                       ELSE true END  -- restored on a server without Herald's roles: `herald migrate` makes them
            UNION ALL
            SELECT 4, 'none', NULL
            ORDER BY 1
            LIMIT 1
        ) g
        LEFT JOIN public.tenants t ON t.id = g.tenant_id
    $$;

-- The audit actor: a tenant operator is its login, always; anyone else what `herald.actor`
-- says (HERALD_ACTOR or the OS user, set by the CLI), else its login.
CREATE FUNCTION herald_actor() RETURNS text
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
        SELECT CASE WHEN public.herald_session_tenant() IS NOT NULL THEN session_user::text
                    ELSE coalesce(nullif(current_setting('herald.actor', true), ''), session_user::text) END
    $$;

-- The audit trigger now writes as herald_operator (SECURITY DEFINER; ownership below), so no
-- tenant session needs, or has, the right to insert into audit_log itself. It serves only
-- Herald's tables: attached anywhere else it refuses.
CREATE OR REPLACE FUNCTION herald_audit_row() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
DECLARE
    old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
    new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
    row_data jsonb := coalesce(new_row, old_row);
BEGIN
    IF TG_TABLE_SCHEMA <> 'public' OR TG_TABLE_NAME NOT IN ('tenants', 'apps', 'campaigns', 'alert_message_keys',
            'campaign_conditions', 'banner_contents', 'banner_views', 'alert_contents', 'story_contents', 'story_pages') THEN
        RAISE EXCEPTION 'herald_audit_row() audits Herald''s own tables only' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP = 'UPDATE' AND (old_row - 'updated_at') = (new_row - 'updated_at') THEN
        RETURN NULL;  -- nothing really changed
    END IF;
    INSERT INTO public.audit_log (tenant_id, actor, action, entity, entity_id, before, after)
    VALUES (
        CASE WHEN TG_TABLE_NAME = 'tenants' THEN (row_data ->> 'id')::bigint
             ELSE (row_data ->> 'tenant_id')::bigint END,
        public.herald_actor(),
        lower(TG_OP),
        TG_TABLE_NAME,
        -- A readable id: the row's own key or slug, else its campaign plus what the row is.
        concat_ws(' ',
            coalesce(row_data ->> 'key', row_data ->> 'slug', row_data ->> 'message_key',
                     (SELECT c.key FROM public.campaigns c WHERE c.id = (row_data ->> 'campaign_id')::bigint),
                     'campaign#' || (row_data ->> 'campaign_id')),
            row_data ->> 'locale',
            row_data ->> 'view_id',
            CASE WHEN TG_TABLE_NAME = 'story_pages' THEN 'page#' || (row_data ->> 'position') END,
            (row_data ->> 'grp') || '.' || (row_data ->> 'type')),
        old_row,
        new_row
    );
    RETURN NULL;
END
$$;

-- Publishing per tenant. A run with a tenant_id wrote that tenant's folder only, as that
-- tenant's operator; Herald's own runs (the whole site, or a part of it) have none.
ALTER TABLE publish_runs ADD COLUMN tenant_id bigint REFERENCES tenants (id);
-- A tenant's manifests are kept with its contents (tenant_publish_blobs), not in publish_blobs.
ALTER TABLE publish_runs DROP CONSTRAINT publish_runs_manifest_digest_fkey;
CREATE INDEX publish_runs_tenant_idx ON publish_runs (tenant_id, out_dir, id) WHERE tenant_id IS NOT NULL;

CREATE TABLE tenant_publish_blobs (
    tenant_id  bigint NOT NULL DEFAULT herald_current_tenant() REFERENCES tenants (id),
    digest     text NOT NULL CHECK (digest ~ '^[0-9a-f]{64}$'),
    content    bytea NOT NULL,
    PRIMARY KEY (tenant_id, digest)
);

-- A row per tenant, locked (FOR UPDATE, on a connection of its own) by whoever writes that
-- tenant's folder: a tenant operator's publish, or Herald's run over the site.
CREATE TABLE publish_locks (
    tenant_id  bigint PRIMARY KEY REFERENCES tenants (id)
);

ALTER TABLE publish_runs ENABLE ROW LEVEL SECURITY;
ALTER TABLE publish_runs FORCE ROW LEVEL SECURITY;
CREATE POLICY herald_rows ON publish_runs
    USING (coalesce(tenant_id, 0) BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
    WITH CHECK (coalesce(tenant_id, 0) BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()));
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tenant_publish_blobs', 'publish_locks']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY herald_rows ON %I
                        USING (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
                        WITH CHECK (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))', t);
    END LOOP;
END
$$;

-- A tenant operator's run is recorded under its login, and can only be the rollback of one
-- of its tenant's runs (a foreign key alone would say whether another tenant's run exists).
CREATE FUNCTION herald_publish_runs_guard() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
    AS $$
BEGIN
    IF public.herald_session_tenant() IS NOT NULL THEN
        NEW.actor := session_user::text;
        IF NEW.rollback_of IS NOT NULL AND NOT EXISTS (
            SELECT FROM public.publish_runs r WHERE r.id = NEW.rollback_of AND r.tenant_id = NEW.tenant_id
        ) THEN
            RAISE EXCEPTION 'publish run % does not exist', NEW.rollback_of USING ERRCODE = 'foreign_key_violation';
        END IF;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER publish_runs_guard BEFORE INSERT ON publish_runs
    FOR EACH ROW EXECUTE FUNCTION herald_publish_runs_guard();

-- What a login of Herald's gets, by what it is in the grants tables: an analyst reads the
-- reporting views; a tenant operator may become herald_tenant and read the migration ledger
-- (every command checks the schema first). Neither may create temporary objects: a database
-- copied from a template, or restored, starts with PUBLIC's right to, so it is taken again
-- here. Called by the grant functions and herald_ensure_access(), with the owner's rights.
CREATE FUNCTION herald_grant_login_access(role_name text) RETURNS void
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
    END IF;
END
$$;

-- Drops a login Herald made, after what it was granted (it can own nothing Herald knows of;
-- anything else it made goes with it).
CREATE FUNCTION herald_drop_login(role_name text) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    EXECUTE format('GRANT %I TO %I', role_name, current_user);  -- DROP OWNED needs its rights
    EXECUTE format('DROP OWNED BY %I', role_name);
    EXECUTE format('DROP ROLE %I', role_name);
END
$$;

-- Creates (or updates the password of) the login role `role_name` that operates `tenant`.
-- Checked and quoted like grant-reporting's; a role Herald did not make as this tenant's
-- operator is refused, so it never touches Herald's own roles, analysts' or anyone else's.
-- `password`: a SCRAM verifier (kept, for restores) or a password.
CREATE FUNCTION herald_grant_operator(role_name text, tenant bigint, password text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    granted_tenant bigint;
    outcome text;
BEGIN
    IF role_name !~ '^[a-z_][a-z0-9_]{0,62}$' OR role_name ~ '^(pg_|herald_)' THEN
        RAISE EXCEPTION 'invalid operator role name "%": use lowercase letters, digits and _ (at most 63), not starting with pg_ or herald_', role_name;
    END IF;
    SELECT g.tenant_id INTO granted_tenant FROM public.operator_grants g WHERE g.role_name = herald_grant_operator.role_name;
    IF FOUND AND granted_tenant <> tenant THEN
        RAISE EXCEPTION 'role "%" already operates another tenant: revoke it there first, or pick another role name', role_name;
    ELSIF FOUND THEN
        outcome := 'updated';
        IF NOT EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN  -- a restore, before `herald migrate`
            EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', role_name);
        END IF;
    ELSIF EXISTS (SELECT FROM public.reporting_grants g WHERE g.role_name = herald_grant_operator.role_name) THEN
        RAISE EXCEPTION 'role "%" is a reporting role: pick another role name for an operator', role_name;
    ELSIF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN
        RAISE EXCEPTION 'role "%" exists and is not a Herald operator role: pick another role name', role_name;
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', role_name);
        INSERT INTO public.operator_grants (role_name, tenant_id) VALUES (role_name, tenant);
        outcome := 'created';
    END IF;
    IF password IS NOT NULL THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', role_name, password);
        UPDATE public.operator_grants g SET password_verifier = CASE WHEN password ~ '^SCRAM-SHA-256\$' THEN password END
        WHERE g.role_name = herald_grant_operator.role_name;
    END IF;
    PERFORM public.herald_grant_login_access(role_name);
    RETURN outcome;
END
$$;

-- Drops `role_name`, an operator of `tenant`. False when it had no such grant (nothing done).
CREATE FUNCTION herald_revoke_operator(role_name text, tenant bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    DELETE FROM public.operator_grants g WHERE g.role_name = herald_revoke_operator.role_name AND g.tenant_id = tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT FROM public.operator_grants g WHERE g.role_name = herald_revoke_operator.role_name) THEN
            RAISE EXCEPTION 'role "%" operates another tenant, not this one', role_name;
        END IF;
        RETURN false;
    END IF;
    IF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN
        PERFORM public.herald_drop_login(role_name);
    END IF;
    RETURN true;
END
$$;

-- 0010's, now also refusing a tenant operator's name, keeping a SCRAM verifier for restores,
-- and granting through herald_grant_login_access.
CREATE OR REPLACE FUNCTION herald_grant_reporting(role_name text, tenant bigint, password text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    granted_tenant bigint;
    outcome text;
BEGIN
    IF role_name !~ '^[a-z_][a-z0-9_]{0,62}$' OR role_name ~ '^(pg_|herald_)' THEN
        RAISE EXCEPTION 'invalid reporting role name "%": use lowercase letters, digits and _ (at most 63), not starting with pg_ or herald_', role_name;
    END IF;
    SELECT g.tenant_id INTO granted_tenant FROM public.reporting_grants g WHERE g.role_name = herald_grant_reporting.role_name;
    IF FOUND AND granted_tenant <> tenant THEN
        RAISE EXCEPTION 'role "%" already reads another tenant''s reports: revoke it there first, or pick another role name', role_name;
    ELSIF FOUND THEN
        outcome := 'updated';
        IF NOT EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN  -- a restore, before `herald migrate`
            EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', role_name);
        END IF;
    ELSIF EXISTS (SELECT FROM public.operator_grants g WHERE g.role_name = herald_grant_reporting.role_name) THEN
        RAISE EXCEPTION 'role "%" is a tenant operator role: pick another role name for analysts', role_name;
    ELSIF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN
        RAISE EXCEPTION 'role "%" exists and is not a Herald reporting role: pick another role name', role_name;
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', role_name);
        INSERT INTO public.reporting_grants (role_name, tenant_id) VALUES (role_name, tenant);
        outcome := 'created';
    END IF;
    IF password IS NOT NULL THEN
        EXECUTE format('ALTER ROLE %I PASSWORD %L', role_name, password);
        UPDATE public.reporting_grants g SET password_verifier = CASE WHEN password ~ '^SCRAM-SHA-256\$' THEN password END
        WHERE g.role_name = herald_grant_reporting.role_name;
    END IF;
    PERFORM public.herald_grant_login_access(role_name);
    RETURN outcome;
END
$$;

CREATE OR REPLACE FUNCTION herald_revoke_reporting(role_name text, tenant bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    DELETE FROM public.reporting_grants g WHERE g.role_name = herald_revoke_reporting.role_name AND g.tenant_id = tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT FROM public.reporting_grants g WHERE g.role_name = herald_revoke_reporting.role_name) THEN
            RAISE EXCEPTION 'role "%" reads another tenant''s reports, not this one''s', role_name;
        END IF;
        RETURN false;
    END IF;
    IF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = role_name) THEN
        PERFORM public.herald_drop_login(role_name);
    END IF;
    RETURN true;
END
$$;

-- Every privilege, ownership and login Herald's roles rely on, stated once; run by this
-- migration and by every `herald migrate`, as the database's owner (Herald's own login, which
-- needs CREATEROLE) or a superuser (who can also hand objects back to the owner after a
-- restore and close built-in functions to other logins). Idempotent. Returns what it had to
-- repair, in words: nothing on a database that is whole. A migration that adds a table, a
-- function or a right changes this function too.
CREATE FUNCTION herald_ensure_access() RETURNS SETOF text
    LANGUAGE plpgsql SET search_path = public, pg_temp
    AS $$
DECLARE
    item record;
    name text;
    superuser boolean := (SELECT rolsuper FROM pg_roles WHERE rolname = current_user);
    -- Herald's own login: the database's owner (who runs this, unless a superuser does).
    owner text := (SELECT pg_get_userbyid(d.datdba) FROM pg_database d WHERE d.datname = current_database());
    open_functions text[];
BEGIN
    -- Herald's two roles, and its owner's membership in them (for SET ROLE; the rows policies
    -- ignore memberships).
    FOREACH name IN ARRAY ARRAY['herald_tenant', 'herald_operator']
    LOOP
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = name) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', name);
                RETURN NEXT format('created role %s', name);
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- made meanwhile by another database's migrate
            END;
        END IF;
        IF NOT pg_has_role(owner, name, 'MEMBER') THEN
            BEGIN
                EXECUTE format('GRANT %I TO %I', name, owner);
                RETURN NEXT format('made %s a member of %s', owner, name);
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END;
        END IF;
    END LOOP;

    -- Run by a superuser (after `pg_restore --no-owner`, say), Herald's objects go back to its
    -- owner, so that the owner can migrate them later.
    IF superuser AND owner <> current_user THEN
        FOR item IN
            SELECT format('ALTER %s %s OWNER TO %I', CASE c.relkind WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END, c.oid::regclass, owner) AS statement
            FROM pg_class c
            WHERE c.relnamespace IN ('public'::regnamespace, 'reporting'::regnamespace) AND c.relkind IN ('r', 'p', 'v')
              AND pg_get_userbyid(c.relowner) <> owner
            UNION ALL
            SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, owner) FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace AND pg_get_userbyid(p.proowner) NOT IN (owner, 'herald_operator')
            UNION ALL
            SELECT format('ALTER %s %s OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype, owner)
            FROM pg_type t
            WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('d', 'e') AND pg_get_userbyid(t.typowner) <> owner
            UNION ALL
            SELECT format('ALTER SCHEMA reporting OWNER TO %I', owner) FROM pg_namespace n
            WHERE n.nspname = 'reporting' AND pg_get_userbyid(n.nspowner) <> owner
        LOOP
            EXECUTE item.statement;
        END LOOP;
        IF FOUND THEN
            RETURN NEXT format('handed Herald''s tables, views, types and functions to %s, the database''s owner', owner);
        END IF;
    END IF;

    -- The database and its schemas.
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, herald_tenant', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO herald_operator', current_database());
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
    GRANT USAGE ON SCHEMA public TO herald_operator, herald_tenant;
    GRANT USAGE ON SCHEMA reporting TO herald_operator, herald_tenant;

    -- Tables: exactly these rights on the tables named here (row-level security then narrows
    -- the rows); none for PUBLIC on any; a table this function does not name keeps what its
    -- migration gave. Sequences: herald_operator's alone (identity columns need no right).
    FOR item IN
        SELECT c.oid::regclass AS rel, c.relkind AS kind,
               c.relkind = 'S' OR c.relname IN (
                   'tenants', 'apps', 'campaigns', 'alert_message_keys', 'campaign_conditions', 'banner_contents',
                   'banner_views', 'alert_contents', 'story_contents', 'story_pages', 'audit_log', 'publish_blobs',
                   'publish_runs', 'event_ids', 'delivery_events', 'device_campaign_summary', 'campaign_rollup',
                   'campaign_daily_rollup', 'campaign_device_days', 'event_retention', 'reporting_grants', 'operator_grants',
                   'tenant_publish_blobs', 'publish_locks', 'herald_migrations') AS named
        FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'S') AND NOT c.relispartition
    LOOP
        EXECUTE format('REVOKE ALL ON %s %s FROM PUBLIC%s', CASE WHEN item.kind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
                       item.rel, CASE WHEN item.named THEN ', herald_operator, herald_tenant' ELSE '' END);
    END LOOP;
    GRANT SELECT, INSERT, UPDATE ON tenants, apps, campaigns, publish_runs, device_campaign_summary, campaign_rollup,
        campaign_daily_rollup, campaign_device_days TO herald_operator;
    GRANT SELECT, INSERT ON alert_message_keys, audit_log, publish_blobs, event_ids, delivery_events, tenant_publish_blobs
        TO herald_operator;
    -- publish --prune-history (0014): old runs, and the contents no kept run needs.
    GRANT DELETE ON publish_runs, publish_blobs TO herald_operator;
    GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_conditions, banner_contents, banner_views, alert_contents,
        story_contents, story_pages TO herald_operator, herald_tenant;
    GRANT SELECT ON event_retention TO herald_operator;
    GRANT SELECT (role_name, tenant_id, granted_at) ON reporting_grants, operator_grants TO herald_operator;
    GRANT SELECT, INSERT, UPDATE ON publish_locks TO herald_operator, herald_tenant;
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO herald_operator;
    -- A tenant session reads its tenant, writes apps and campaigns without naming their ids,
    -- appends message keys, reads its history and audit log, and publishes its own folder.
    GRANT SELECT ON tenants, audit_log, delivery_events, device_campaign_summary, campaign_rollup, campaign_daily_rollup
        TO herald_tenant;
    GRANT SELECT, UPDATE ON apps, campaigns TO herald_tenant;
    GRANT SELECT ON alert_message_keys TO herald_tenant;
    GRANT SELECT, INSERT ON tenant_publish_blobs TO herald_tenant;
    GRANT SELECT ON publish_runs TO herald_tenant;
    GRANT UPDATE (finished_at, outcome, files_written, files_unchanged, files_removed, manifest_digest, message,
        source_snapshot, repeats, last_repeated_at) ON publish_runs TO herald_tenant;
    FOR item IN
        SELECT c.oid::regclass AS rel,
               string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) FILTER (
                   WHERE a.attidentity = '' AND a.attgenerated = '') AS writable
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.oid IN ('public.apps'::regclass, 'public.campaigns'::regclass, 'public.alert_message_keys'::regclass,
                        'public.publish_runs'::regclass)
        GROUP BY c.oid
    LOOP
        EXECUTE format('GRANT INSERT (%s) ON %s TO herald_tenant', item.writable, item.rel);
    END LOOP;
    GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO herald_operator, herald_tenant;

    -- Functions: security-definer and trigger functions only for whom they serve.
    FOR item IN
        SELECT p.oid::regprocedure AS fn, p.proname::text AS fname FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace
          AND p.proname IN ('herald_ensure_event_partitions', 'herald_prune_events', 'herald_grant_reporting',
                            'herald_revoke_reporting', 'herald_grant_operator', 'herald_revoke_operator', 'herald_audit_row',
                            'herald_publish_runs_guard', 'herald_grant_login_access', 'herald_drop_login',
                            'herald_ensure_access')
    LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', item.fn);
        IF item.fname IN ('herald_ensure_event_partitions', 'herald_prune_events', 'herald_grant_reporting',
                          'herald_revoke_reporting', 'herald_grant_operator', 'herald_revoke_operator') THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO herald_operator', item.fn);
        END IF;
    END LOOP;

    -- Functions that read tenant rows on the caller's behalf run as herald_operator (the
    -- database owner sees no tenant rows itself). To own them, a role must be allowed to
    -- create in their schema: granted for the hand-over only.
    GRANT CREATE ON SCHEMA public TO herald_operator;
    FOR item IN
        SELECT p.oid::regprocedure AS fn FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> 'herald_operator'::regrole
          AND p.proname IN ('herald_reporting_tenants', 'herald_reporting_campaign_summary', 'herald_reporting_campaign_daily',
                            'herald_reporting_device_history', 'herald_reporting_app_summary', 'herald_audit_row',
                            'herald_publish_runs_guard', 'herald_login')
    LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO herald_operator', item.fn);
        RETURN NEXT format('%s now runs as herald_operator', item.fn);
    END LOOP;
    REVOKE CREATE ON SCHEMA public FROM herald_operator;

    -- Built-in functions no one but Herald's operator needs: creating large objects, and
    -- advisory locks (with which anyone could hold up Herald's publishes and migrations).
    -- Only a superuser may change them; the owner is told what to ask for.
    FOR item IN
        SELECT p.oid::regprocedure AS fn, p.proname LIKE '%advisory%' AS advisory FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace
          AND (p.proname IN ('lo_create', 'lo_creat', 'lo_from_bytea', 'lo_import')
               OR (p.proname LIKE 'pg%advisory%lock%' AND p.proname NOT LIKE '%unlock%'))
          AND (p.proacl IS NULL OR EXISTS (SELECT FROM aclexplode(p.proacl) x WHERE x.grantee = 0))
    LOOP
        IF superuser THEN
            EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', item.fn);
            IF item.advisory THEN
                EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO herald_operator', item.fn);
            END IF;
        ELSE
            open_functions := open_functions || item.fn::text;
        END IF;
    END LOOP;
    IF open_functions IS NOT NULL THEN
        RETURN NEXT format('every login may still create large objects and take advisory locks (%s): run `herald migrate` '
                           'once as a superuser to close them', array_to_string(open_functions, ', '));
    END IF;

    -- The tenants' logins, as the grants tables list them (a dump holds no roles).
    FOR item IN
        SELECT g.role_name::text AS role, g.password_verifier AS verifier, t.slug::text AS tenant, 'reads the reports of' AS what
        FROM public.reporting_grants g JOIN public.tenants t ON t.id = g.tenant_id
        UNION ALL
        SELECT g.role_name::text, g.password_verifier, t.slug::text, 'operates'
        FROM public.operator_grants g JOIN public.tenants t ON t.id = g.tenant_id
        ORDER BY 1
    LOOP
        IF NOT EXISTS (SELECT FROM pg_roles r WHERE r.rolname = item.role) THEN
            EXECUTE format('CREATE ROLE %I LOGIN NOINHERIT NOCREATEDB NOCREATEROLE', item.role);
            IF item.verifier IS NOT NULL THEN
                EXECUTE format('ALTER ROLE %I PASSWORD %L', item.role, item.verifier);
            END IF;
            RETURN NEXT format('recreated login %s (%s %s%s)', item.role, item.what, item.tenant,
                               CASE WHEN item.verifier IS NULL THEN '; it has no password: grant it again with one' ELSE ', with its password' END);
        END IF;
        PERFORM public.herald_grant_login_access(item.role);
    END LOOP;
END
$$;

-- From here on herald_ensure_access() states the rights. The tenants' own sessions lose what
-- 0006 and 0010 gave them and they do not need: writing audit rows, sequences (an identity
-- column needs no right on its sequence), naming the id of a row they insert, and temporary
-- tables.
SELECT herald_ensure_access();

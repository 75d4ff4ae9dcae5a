-- The schema migrations/ makes, as pg_dump --schema-only prints it: written by
-- scripts/update-schema (never by hand), checked by SchemaFileTests. What the
-- migrating role owns carries no owner line; herald_operator's things say so.

--
-- Name: reporting; Type: SCHEMA; Schema: -
--

CREATE SCHEMA reporting;

--
-- Name: app_platform; Type: TYPE; Schema: public
--

CREATE TYPE public.app_platform AS ENUM (
    'ios',
    'macos'
);

--
-- Name: bundle_file_name; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.bundle_file_name AS text
	CONSTRAINT bundle_file_name_check CHECK (((VALUE ~ '^[A-Za-z0-9_@~+-][A-Za-z0-9 _.@~+-]{0,254}$'::text) AND (VALUE !~ ' $'::text)));

--
-- Name: calendar_unit; Type: TYPE; Schema: public
--

CREATE TYPE public.calendar_unit AS ENUM (
    'minute',
    'hour',
    'day',
    'week',
    'month',
    'year'
);

--
-- Name: campaign_kind; Type: TYPE; Schema: public
--

CREATE TYPE public.campaign_kind AS ENUM (
    'banner',
    'alert',
    'story',
    'local'
);

--
-- Name: campaign_status; Type: TYPE; Schema: public
--

CREATE TYPE public.campaign_status AS ENUM (
    'draft',
    'active',
    'paused',
    'archived'
);

--
-- Name: condition_group; Type: TYPE; Schema: public
--

CREATE TYPE public.condition_group AS ENUM (
    'all',
    'any'
);

--
-- Name: event_kind; Type: TYPE; Schema: public
--

CREATE TYPE public.event_kind AS ENUM (
    'delivered',
    'impression',
    'click',
    'dismiss'
);

--
-- Name: http_url; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.http_url AS text
	CONSTRAINT http_url_check CHECK ((VALUE ~ '^https?://[^\s/?#@]+[^\s]*$'::text));

--
-- Name: link_url; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.link_url AS text
	CONSTRAINT link_url_check CHECK ((VALUE ~ '^[A-Za-z][A-Za-z0-9+.-]*:\S+$'::text));

--
-- Name: locale_tag; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.locale_tag AS text
	CONSTRAINT locale_tag_check CHECK ((VALUE ~ '^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$'::text));

--
-- Name: message_key; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.message_key AS text
	CONSTRAINT message_key_check CHECK ((VALUE ~ '^[A-Za-z0-9][A-Za-z0-9/_.:-]{0,63}$'::text));

--
-- Name: slug; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.slug AS text
	CONSTRAINT slug_check CHECK ((VALUE ~ '^[a-z0-9][a-z0-9-]{0,62}$'::text));

--
-- Name: sound_name; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.sound_name AS text
	CONSTRAINT sound_name_check CHECK (((VALUE = 'default'::text) OR ((VALUE ~ '^[A-Za-z0-9_@~+-][A-Za-z0-9 _.@~+-]{0,254}$'::text) AND (VALUE !~ ' $'::text) AND (VALUE ~* '\.(caf|aif|aiff|wav)$'::text))));

--
-- Name: version_text; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.version_text AS text
	CONSTRAINT version_text_check CHECK ((VALUE ~ '^[\x21-\x7E]([\x20-\x7E]{0,62}[\x21-\x7E])?$'::text));

--
-- Name: view_origin; Type: TYPE; Schema: public
--

CREATE TYPE public.view_origin AS ENUM (
    'top',
    'bottom'
);

--
-- Name: xml_text; Type: DOMAIN; Schema: public
--

CREATE DOMAIN public.xml_text AS text
	CONSTRAINT xml_text_check CHECK ((VALUE !~ '[\x01-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]'::text));

--
-- Name: herald_actor(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_actor() RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    RETURN CASE WHEN public.herald_session_tenant() IS NOT NULL THEN session_user::text
                ELSE coalesce(nullif(current_setting('herald.actor', true), ''), session_user::text) END;
END
$$;

--
-- Name: herald_add_tenant_lock_rows(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_add_tenant_lock_rows() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.tenant_locks (tenant_id, purpose)
    VALUES (NEW.id, 'publish'), (NEW.id, 'apply')
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

--
-- Name: herald_app_keys_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_app_keys_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.created_by := public.herald_actor();
        NEW.created_at := now();
        NEW.revoked_at := NULL;
        NEW.revoked_by := NULL;
        RETURN NEW;
    END IF;
    IF NEW.tenant_id <> OLD.tenant_id OR NEW.app_id <> OLD.app_id OR NEW.key_hash <> OLD.key_hash
       OR NEW.key_hint <> OLD.key_hint OR NEW.created_at <> OLD.created_at OR NEW.created_by <> OLD.created_by THEN
        RAISE EXCEPTION 'an app key''s app, hash and origin never change' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'app_keys_immutable';
    END IF;
    IF OLD.revoked_at IS NOT NULL THEN
        NEW.revoked_at := OLD.revoked_at;
        NEW.revoked_by := OLD.revoked_by;
    ELSIF NEW.revoked_at IS NOT NULL THEN
        NEW.revoked_at := now();
        NEW.revoked_by := public.herald_actor();
    END IF;
    RETURN NEW;
END
$$;

--
-- Name: herald_apps_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_apps_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NEW.tenant_id <> OLD.tenant_id THEN
        RAISE EXCEPTION 'an app cannot move to another tenant' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'apps_tenant_immutable';
    END IF;
    IF NEW.slug <> OLD.slug THEN
        RAISE EXCEPTION 'an app''s slug cannot change (it names its published folder)'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'apps_slug_immutable';
    END IF;
    RETURN NEW;
END
$$;

--
-- Name: herald_audit_log_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_audit_log_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = 'restrict_violation';
END
$$;

--
-- Name: herald_audit_row(); Type: FUNCTION; Schema: public; Owner: herald_operator
--

CREATE FUNCTION public.herald_audit_row() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET row_security TO 'on'
    AS $$
DECLARE
    old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
    new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
    row_data jsonb := coalesce(new_row, old_row);
BEGIN
    IF TG_TABLE_SCHEMA <> 'public' OR TG_TABLE_NAME NOT IN ('tenants', 'apps', 'campaigns', 'alert_message_keys',
            'campaign_conditions', 'banner_contents', 'banner_views', 'alert_contents', 'story_contents', 'story_pages', 'campaign_approvals', 'local_notifications', 'local_contents') THEN
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

ALTER FUNCTION public.herald_audit_row() OWNER TO herald_operator;

--
-- Name: herald_campaign_approvals_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_campaign_approvals_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    current record;
BEGIN
    SELECT v.version, v.edited_by, c.key INTO current
    FROM public.campaign_versions v JOIN public.campaigns c ON c.id = v.campaign_id
    WHERE v.campaign_id = NEW.campaign_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such campaign to approve' USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.version <> current.version THEN
        RAISE EXCEPTION 'campaign "%" changed since version % was reviewed: it is at version % now; review it again',
            current.key, NEW.version, current.version
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaign_approvals_current_version';
    END IF;
    IF current.edited_by = session_user THEN
        RAISE EXCEPTION 'four eyes: % made the last change to campaign "%" (version %), so another login must approve it',
            session_user, current.key, current.version
            USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'campaign_approvals_four_eyes';
    END IF;
    NEW.approved_by := session_user;
    NEW.approved_at := now();
    RETURN NEW;
END
$$;

--
-- Name: herald_campaign_edited(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_campaign_edited() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    row_data jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
    campaign bigint := CASE WHEN TG_TABLE_NAME = 'campaigns' THEN (row_data ->> 'id')::bigint
                            ELSE (row_data ->> 'campaign_id')::bigint END;
BEGIN
    -- A campaign row's status and touch time are not its content.
    IF TG_TABLE_NAME = 'campaigns' AND TG_OP = 'UPDATE'
       AND (to_jsonb(OLD) - 'status' - 'updated_at') = (row_data - 'status' - 'updated_at') THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT FROM public.campaigns c WHERE c.id = campaign) THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.campaign_versions (tenant_id, campaign_id) VALUES ((row_data ->> 'tenant_id')::bigint, campaign)
    ON CONFLICT (campaign_id) DO UPDATE SET version = public.campaign_versions.version
    WHERE public.campaign_versions.edit_txid IS DISTINCT FROM pg_current_xact_id();
    RETURN NULL;
END
$$;

--
-- Name: herald_campaign_needs_approval(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_campaign_needs_approval() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    row_data jsonb := to_jsonb(NEW);
    campaign bigint := CASE WHEN TG_TABLE_NAME = 'campaigns' THEN (row_data ->> 'id')::bigint
                            ELSE (row_data ->> 'campaign_id')::bigint END;
    current record;
BEGIN
    SELECT c.key, c.status, t.require_approval, v.version INTO current
    FROM public.campaigns c JOIN public.tenants t ON t.id = c.tenant_id
    LEFT JOIN public.campaign_versions v ON v.campaign_id = c.id
    WHERE c.id = campaign;
    IF NOT FOUND OR current.status <> 'active' OR NOT current.require_approval THEN
        RETURN NULL;
    END IF;
    -- A campaign live before stays so: its changes come through campaign_versions.
    IF TG_TABLE_NAME = 'campaigns' AND TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> 'status' = 'active' THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT FROM public.campaign_approvals a WHERE a.campaign_id = campaign AND a.version = current.version) THEN
        RAISE EXCEPTION 'campaign "%" needs approval: its tenant requires four eyes, and version % is not approved. Pause it to change it; another login than its last editor runs `herald campaign approve %`, then activate it',
            current.key, current.version, current.key
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaigns_approved_when_live';
    END IF;
    RETURN NULL;
END
$$;

--
-- Name: herald_campaign_versions_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_campaign_versions_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.edited_by := session_user;
    NEW.edited_at := now();
    NEW.edit_txid := pg_current_xact_id();
    IF TG_OP = 'UPDATE' THEN
        NEW.tenant_id := OLD.tenant_id;
        NEW.campaign_id := OLD.campaign_id;
        NEW.version := OLD.version + 1;
    ELSE
        NEW.version := 1;
    END IF;
    RETURN NEW;
END
$$;

--
-- Name: herald_campaigns_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_campaigns_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'campaigns are never deleted: archive "%" instead', OLD.key
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'campaigns_never_deleted';
    END IF;
    IF NEW.key <> OLD.key THEN
        RAISE EXCEPTION 'a campaign key cannot change: devices remember "%"', OLD.key
            USING ERRCODE = 'check_violation', CONSTRAINT = 'campaigns_key_immutable';
    END IF;
    IF NEW.kind <> OLD.kind OR NEW.app_id <> OLD.app_id OR NEW.tenant_id <> OLD.tenant_id THEN
        RAISE EXCEPTION 'a campaign''s kind and app cannot change' USING ERRCODE = 'check_violation',
            CONSTRAINT = 'campaigns_kind_app_immutable';
    END IF;
    RETURN NEW;
END
$$;

--
-- Name: herald_cluster_id(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_cluster_id() RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog'
    AS $$ SELECT system_identifier::text FROM pg_control_system() $$;

--
-- Name: herald_current_tenant(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_current_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN nullif(current_setting('herald.tenant_id', true), '')::bigint;
END
$$;

--
-- Name: herald_drop_login(text); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_drop_login(role_name text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    EXECUTE format('GRANT %I TO %I', role_name, current_user);  -- DROP OWNED needs its rights
    EXECUTE format('DROP OWNED BY %I', role_name);
    EXECUTE format('DROP ROLE %I', role_name);
END
$$;

--
-- Name: herald_ensure_access(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_ensure_access() RETURNS SETOF text
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN QUERY SELECT note FROM herald_ensure_access_0026() AS note;
    -- Versions are written by the triggers only (each row's login, time and number are the
    -- guard's); approvals are made, never changed or taken back.
    REVOKE ALL ON campaign_versions, campaign_approvals FROM PUBLIC, herald_operator, herald_tenant;
    GRANT SELECT, INSERT, UPDATE (version) ON campaign_versions TO herald_operator, herald_tenant;
    GRANT SELECT, INSERT (campaign_id, version, snapshot) ON campaign_approvals TO herald_operator, herald_tenant;
    GRANT INSERT (tenant_id) ON campaign_approvals TO herald_operator;
    REVOKE ALL ON FUNCTION herald_try_folder_lock(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION herald_try_folder_lock(text) TO herald_operator, herald_tenant;
END
$$;

--
-- Name: herald_ensure_access_0016(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_ensure_access_0016() RETURNS SETOF text
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
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
                   'banner_views', 'alert_contents', 'story_contents', 'story_pages', 'local_notifications', 'local_contents', 'audit_log', 'publish_blobs',
                   'publish_runs', 'event_ids', 'delivery_events', 'device_campaign_summary', 'campaign_rollup',
                   'campaign_daily_rollup', 'campaign_device_days', 'event_retention', 'reporting_grants', 'operator_grants',
                   'tenant_publish_blobs', 'tenant_locks', 'herald_migrations') AS named
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
        story_contents, story_pages, local_notifications, local_contents TO herald_operator, herald_tenant;
    GRANT SELECT ON event_retention TO herald_operator;
    GRANT SELECT (role_name, tenant_id, granted_at) ON reporting_grants, operator_grants TO herald_operator;
    GRANT SELECT, INSERT, UPDATE ON tenant_locks TO herald_operator, herald_tenant;
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
        source_snapshot, source_cluster, repeats, last_repeated_at) ON publish_runs TO herald_tenant;
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

--
-- Name: herald_ensure_access_0022(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_ensure_access_0022() RETURNS SETOF text
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN QUERY SELECT note FROM herald_ensure_access_0016() AS note;
    -- publish --prune-history: a tenant's own contents that no kept run of its needs.
    GRANT DELETE ON tenant_publish_blobs TO herald_operator;
END
$$;

--
-- Name: herald_ensure_access_0026(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_ensure_access_0026() RETURNS SETOF text
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN QUERY SELECT note FROM herald_ensure_access_0022() AS note;
    -- App keys: Herald's operator reads every key (the collector) and makes and revokes any;
    -- a tenant session (a tenant operator) makes, lists and revokes its own tenant's, and
    -- names no id of a key it makes. Nobody deletes one, and only the revocation changes.
    REVOKE ALL ON app_keys FROM PUBLIC, herald_operator, herald_tenant;
    GRANT SELECT, INSERT (tenant_id, app_id, name, key_hash, key_hint), UPDATE (revoked_at, revoked_by) ON app_keys
        TO herald_operator, herald_tenant;
END
$$;

--
-- Name: herald_ensure_event_partitions(date); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_ensure_event_partitions(month date) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
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

--
-- Name: herald_first_visible_tenant(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_first_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_grant_login_access(text); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_grant_login_access(role_name text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_grant_operator(text, bigint, text); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_grant_operator(role_name text, tenant bigint, password text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
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
$_$;

--
-- Name: herald_grant_reporting(text, bigint, text); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_grant_reporting(role_name text, tenant bigint, password text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
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
$_$;

--
-- Name: herald_installation_id(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_installation_id() RETURNS uuid
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public'
    AS $$ SELECT id FROM public.herald_installation $$;

--
-- Name: herald_last_visible_tenant(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_last_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_login(); Type: FUNCTION; Schema: public; Owner: herald_operator
--

CREATE FUNCTION public.herald_login() RETURNS TABLE(login text, kind text, tenant_id bigint, tenant text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET row_security TO 'on'
    AS $$
        SELECT session_user::text, g.kind, g.tenant_id,
               CASE WHEN g.tenant_id IS NOT NULL THEN public.herald_tenant_slug(g.tenant_id) END
        FROM (
            SELECT 1 AS rank, 'operator' AS kind, o.tenant_id FROM public.operator_grants o WHERE o.role_name = session_user
            UNION ALL
            SELECT 2, 'analyst', r.tenant_id FROM public.reporting_grants r WHERE r.role_name = session_user
            UNION ALL
            SELECT 3, 'owner', NULL
            WHERE CASE WHEN to_regrole('herald_operator') IS NOT NULL
                       THEN pg_has_role(session_user, 'herald_operator', 'MEMBER')
                       ELSE true END  -- restored on a server without Herald's roles: `herald migrate` makes them
            UNION ALL
            SELECT 4, 'none', NULL
            ORDER BY 1
            LIMIT 1
        ) g
    $$;

ALTER FUNCTION public.herald_login() OWNER TO herald_operator;

--
-- Name: herald_login_tenant(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_login_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    RETURN coalesce((SELECT g.tenant_id FROM public.operator_grants g WHERE g.role_name = session_user),
                    (SELECT g.tenant_id FROM public.reporting_grants g WHERE g.role_name = session_user));
END
$$;

--
-- Name: herald_login_tenant_slug(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_login_tenant_slug() RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    RETURN (SELECT t.slug::text FROM public.tenants t WHERE t.id = public.herald_login_tenant());
END
$$;

--
-- Name: herald_message_keys_guard(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_message_keys_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'message keys are permanent: devices remember them'
        USING ERRCODE = 'restrict_violation', CONSTRAINT = 'alert_message_keys_permanent';
END
$$;

--
-- Name: herald_notify_publishers(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_notify_publishers() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    noticed text := coalesce(nullif(current_setting('herald.noticed_tenants', true), ''), ',');
BEGIN
    -- A statement inserting several audit rows queues this trigger for each before it runs.
    IF strpos(noticed, ',' || NEW.tenant_id || ',') > 0 THEN
        RETURN NULL;
    END IF;
    PERFORM set_config('herald.noticed_tenants', noticed || NEW.tenant_id || ',', true);
    PERFORM pg_notify(public.herald_publish_channel_name(NULL), '');
    PERFORM pg_notify(public.herald_publish_channel_name(NEW.tenant_id), '');
    RETURN NULL;
END
$$;

--
-- Name: herald_prune_events(date); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_prune_events(before date) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
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
$_$;

--
-- Name: herald_publish_channel(bigint); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_publish_channel(tenant_id bigint) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT public.herald_publish_channel_name(herald_publish_channel.tenant_id)
    FROM public.herald_login() l
    WHERE l.kind = 'owner' OR (l.kind = 'operator' AND l.tenant_id = herald_publish_channel.tenant_id)
$$;

--
-- Name: herald_publish_channel_name(bigint); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_publish_channel_name(tenant_id bigint) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'herald_publish_' || md5(s.secret || ':' || coalesce(tenant_id::text, 'site')) FROM public.publish_channel_secret s
$$;

--
-- Name: herald_publish_runs_guard(); Type: FUNCTION; Schema: public; Owner: herald_operator
--

CREATE FUNCTION public.herald_publish_runs_guard() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET row_security TO 'on'
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

ALTER FUNCTION public.herald_publish_runs_guard() OWNER TO herald_operator;

--
-- Name: herald_reporting_every_tenant(name); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_reporting_every_tenant(caller name) RETURNS boolean
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_reporting_scope(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_reporting_scope(OUT tenant_ids bigint[], OUT tenant text) RETURNS record
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_revoke_operator(text, bigint); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_revoke_operator(role_name text, tenant bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_revoke_reporting(text, bigint); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_revoke_reporting(role_name text, tenant bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
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

--
-- Name: herald_session_tenant(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_session_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    RETURN (SELECT g.tenant_id FROM public.operator_grants g WHERE g.role_name = session_user LIMIT 1);
END
$$;

--
-- Name: herald_tenant_slug(bigint); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_tenant_slug(tenant_id bigint) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ SELECT t.slug::text FROM public.tenants t WHERE t.id = tenant_id $$;

--
-- Name: herald_touch_updated_at(); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_touch_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;

--
-- Name: herald_try_folder_lock(text); Type: FUNCTION; Schema: public
--

CREATE FUNCTION public.herald_try_folder_lock(folder text) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog'
    AS $$ SELECT pg_try_advisory_xact_lock(4853, hashtext('herald-folder:' || folder)) $$;

--
-- Name: alert_contents; Type: TABLE; Schema: public
--

CREATE TABLE public.alert_contents (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT 'alert'::public.campaign_kind NOT NULL,
    locale public.locale_tag NOT NULL,
    title public.xml_text NOT NULL,
    message public.xml_text NOT NULL,
    action_url public.link_url,
    action_button public.xml_text,
    CONSTRAINT alert_contents_action_button_check CHECK (((action_button)::text <> ''::text)),
    CONSTRAINT alert_contents_kind_check CHECK ((kind = 'alert'::public.campaign_kind)),
    CONSTRAINT alert_contents_message_check CHECK (((message)::text <> ''::text)),
    CONSTRAINT alert_contents_title_check CHECK (((title)::text <> ''::text))
);

ALTER TABLE ONLY public.alert_contents FORCE ROW LEVEL SECURITY;

--
-- Name: alert_message_keys; Type: TABLE; Schema: public
--

CREATE TABLE public.alert_message_keys (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    app_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT 'alert'::public.campaign_kind NOT NULL,
    message_key public.message_key NOT NULL,
    seq bigint NOT NULL,
    assigned_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT alert_message_keys_kind_check CHECK ((kind = 'alert'::public.campaign_kind))
);

ALTER TABLE ONLY public.alert_message_keys FORCE ROW LEVEL SECURITY;

--
-- Name: alert_message_keys_seq_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.alert_message_keys ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.alert_message_keys_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: app_keys; Type: TABLE; Schema: public
--

CREATE TABLE public.app_keys (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    id bigint NOT NULL,
    app_id bigint NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    key_hash bytea NOT NULL,
    key_hint text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT public.herald_actor() NOT NULL,
    revoked_at timestamp with time zone,
    revoked_by text,
    CONSTRAINT app_keys_key_hash_check CHECK ((length(key_hash) = 32)),
    CONSTRAINT app_keys_key_hint_check CHECK ((key_hint ~ '^[A-Za-z0-9_-]{1,16}$'::text)),
    CONSTRAINT app_keys_name_check CHECK (((length(name) <= 200) AND (name !~ '[[:cntrl:]]'::text))),
    CONSTRAINT app_keys_revoked_by_with_revoked_at CHECK (((revoked_at IS NULL) = (revoked_by IS NULL)))
);

ALTER TABLE ONLY public.app_keys FORCE ROW LEVEL SECURITY;

--
-- Name: app_keys_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.app_keys ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.app_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: apps; Type: TABLE; Schema: public
--

CREATE TABLE public.apps (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    id bigint NOT NULL,
    slug public.slug NOT NULL,
    name public.xml_text NOT NULL,
    platform public.app_platform NOT NULL,
    bundle_id text NOT NULL,
    default_locale public.locale_tag NOT NULL,
    locales public.locale_tag[] NOT NULL,
    base_url public.http_url,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT apps_bundle_id_check CHECK ((bundle_id ~ '^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$'::text)),
    CONSTRAINT apps_default_locale_supported CHECK (((default_locale)::text = ANY ((locales)::text[]))),
    CONSTRAINT apps_locales_count CHECK (((cardinality(locales) >= 1) AND (cardinality(locales) <= 200))),
    CONSTRAINT apps_name_check CHECK (((name)::text <> ''::text))
);

ALTER TABLE ONLY public.apps FORCE ROW LEVEL SECURITY;

--
-- Name: apps_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.apps ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.apps_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: audit_log; Type: TABLE; Schema: public
--

CREATE TABLE public.audit_log (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    entity text NOT NULL,
    entity_id text,
    before jsonb,
    after jsonb,
    txid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT audit_log_action_check CHECK ((action = ANY (ARRAY['insert'::text, 'update'::text, 'delete'::text])))
);

ALTER TABLE ONLY public.audit_log FORCE ROW LEVEL SECURITY;

--
-- Name: audit_log_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.audit_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: banner_contents; Type: TABLE; Schema: public
--

CREATE TABLE public.banner_contents (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT 'banner'::public.campaign_kind NOT NULL,
    locale public.locale_tag NOT NULL,
    entry_view public.slug NOT NULL,
    CONSTRAINT banner_contents_kind_check CHECK ((kind = 'banner'::public.campaign_kind))
);

ALTER TABLE ONLY public.banner_contents FORCE ROW LEVEL SECURITY;

--
-- Name: banner_views; Type: TABLE; Schema: public
--

CREATE TABLE public.banner_views (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    locale public.locale_tag NOT NULL,
    view_id public.slug NOT NULL,
    "position" integer NOT NULL,
    file_url public.http_url,
    inline_html text,
    height numeric,
    origin public.view_origin,
    CONSTRAINT banner_views_height_check CHECK (((height > (0)::numeric) AND (height < (100000)::numeric))),
    CONSTRAINT banner_views_one_source CHECK (((file_url IS NULL) <> (inline_html IS NULL))),
    CONSTRAINT banner_views_position_check CHECK (("position" >= 0))
);

ALTER TABLE ONLY public.banner_views FORCE ROW LEVEL SECURITY;

--
-- Name: campaign_approvals; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_approvals (
    id bigint NOT NULL,
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    version bigint NOT NULL,
    approved_by text DEFAULT SESSION_USER NOT NULL,
    approved_at timestamp with time zone DEFAULT now() NOT NULL,
    snapshot text
);

ALTER TABLE ONLY public.campaign_approvals FORCE ROW LEVEL SECURITY;

--
-- Name: campaign_approvals_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.campaign_approvals ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.campaign_approvals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: campaign_conditions; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_conditions (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind NOT NULL,
    grp public.condition_group NOT NULL,
    type text NOT NULL,
    value jsonb NOT NULL,
    CONSTRAINT campaign_conditions_kind_type CHECK ((((kind = 'banner'::public.campaign_kind) AND (type = ANY (ARRAY['onWifi'::text, 'neverDisplayed'::text, 'lastDisplayMinimumSeconds'::text, 'lastDisplayMinimumLaunches'::text, 'flagNotSet'::text, 'iOSVersionLessThan'::text, 'appVersionLessThan'::text]))) OR ((kind = 'alert'::public.campaign_kind) AND (grp = 'all'::public.condition_group) AND (type = ANY (ARRAY['minAppVersion'::text, 'maxAppVersion'::text]))))),
    CONSTRAINT campaign_conditions_value_type CHECK (
CASE
    WHEN (type = ANY (ARRAY['onWifi'::text, 'neverDisplayed'::text])) THEN (jsonb_typeof(value) = 'boolean'::text)
    WHEN (type = ANY (ARRAY['lastDisplayMinimumSeconds'::text, 'lastDisplayMinimumLaunches'::text])) THEN
    CASE
        WHEN ((jsonb_typeof(value) = 'number'::text) AND ((value #>> '{}'::text[]) ~ '^[0-9]+$'::text)) THEN (((value #>> '{}'::text[]))::numeric <= ('9223372036854775807'::bigint)::numeric)
        ELSE false
    END
    WHEN (type = 'flagNotSet'::text) THEN ((jsonb_typeof(value) = 'string'::text) AND ((value #>> '{}'::text[]) <> ''::text) AND ((value #>> '{}'::text[]) !~ '[\x01-\x1F\x7F]'::text))
    ELSE ((jsonb_typeof(value) = 'string'::text) AND ((value #>> '{}'::text[]) ~ '^[\x21-\x7E]([\x20-\x7E]{0,62}[\x21-\x7E])?$'::text))
END)
);

ALTER TABLE ONLY public.campaign_conditions FORCE ROW LEVEL SECURITY;

--
-- Name: campaign_daily_rollup; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_daily_rollup (
    tenant_id bigint NOT NULL,
    app_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    day date NOT NULL,
    locale public.locale_tag NOT NULL,
    delivered bigint DEFAULT 0 NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    dismissals bigint DEFAULT 0 NOT NULL,
    delivered_devices bigint DEFAULT 0 NOT NULL,
    impression_devices bigint DEFAULT 0 NOT NULL,
    click_devices bigint DEFAULT 0 NOT NULL,
    dismiss_devices bigint DEFAULT 0 NOT NULL
)
WITH (fillfactor='80');

ALTER TABLE ONLY public.campaign_daily_rollup FORCE ROW LEVEL SECURITY;

--
-- Name: campaign_device_days; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_device_days (
    campaign_id bigint NOT NULL,
    day date NOT NULL,
    locale public.locale_tag NOT NULL,
    device text NOT NULL,
    kinds smallint NOT NULL,
    previous_kinds smallint DEFAULT 0 NOT NULL
)
PARTITION BY RANGE (day);

--
-- Name: campaign_rollup; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_rollup (
    tenant_id bigint NOT NULL,
    app_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    delivered bigint DEFAULT 0 NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    dismissals bigint DEFAULT 0 NOT NULL,
    unique_devices bigint DEFAULT 0 NOT NULL,
    first_at timestamp with time zone NOT NULL,
    last_at timestamp with time zone NOT NULL
)
WITH (fillfactor='80');

ALTER TABLE ONLY public.campaign_rollup FORCE ROW LEVEL SECURITY;

--
-- Name: campaign_versions; Type: TABLE; Schema: public
--

CREATE TABLE public.campaign_versions (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    edited_by text,
    edited_at timestamp with time zone DEFAULT now() NOT NULL,
    edit_txid xid8
);

ALTER TABLE ONLY public.campaign_versions FORCE ROW LEVEL SECURITY;

--
-- Name: campaigns; Type: TABLE; Schema: public
--

CREATE TABLE public.campaigns (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    app_id bigint NOT NULL,
    id bigint NOT NULL,
    key public.slug NOT NULL,
    kind public.campaign_kind NOT NULL,
    name public.xml_text NOT NULL,
    status public.campaign_status DEFAULT 'draft'::public.campaign_status NOT NULL,
    starts_at timestamp with time zone,
    ends_at timestamp with time zone,
    priority integer DEFAULT 0 NOT NULL,
    locales public.locale_tag[],
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    push_sound public.sound_name,
    push_badge text,
    CONSTRAINT campaigns_locales_nonempty CHECK ((cardinality(locales) >= 1)),
    CONSTRAINT campaigns_name_check CHECK (((name)::text <> ''::text)),
    CONSTRAINT campaigns_push_badge_form CHECK ((push_badge ~ '^([0-9]{1,5}|[+-][1-9][0-9]{0,4})$'::text)),
    CONSTRAINT campaigns_push_only_stories CHECK (((kind = 'story'::public.campaign_kind) OR ((push_sound IS NULL) AND (push_badge IS NULL)))),
    CONSTRAINT campaigns_schedule_order CHECK ((ends_at > starts_at))
);

ALTER TABLE ONLY public.campaigns FORCE ROW LEVEL SECURITY;

--
-- Name: campaigns_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.campaigns ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.campaigns_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: delivery_events; Type: TABLE; Schema: public
--

CREATE TABLE public.delivery_events (
    tenant_id bigint NOT NULL,
    app_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    event_id uuid NOT NULL,
    device text NOT NULL,
    kind public.event_kind NOT NULL,
    at timestamp with time zone NOT NULL,
    locale public.locale_tag NOT NULL,
    app_version text NOT NULL,
    os_version text,
    CONSTRAINT delivery_events_app_version_check CHECK ((length(app_version) <= 64)),
    CONSTRAINT delivery_events_device_check CHECK (((length(device) >= 1) AND (length(device) <= 128))),
    CONSTRAINT delivery_events_os_version_check CHECK ((length(os_version) <= 64))
)
PARTITION BY RANGE (at);

ALTER TABLE ONLY public.delivery_events FORCE ROW LEVEL SECURITY;

--
-- Name: device_campaign_summary; Type: TABLE; Schema: public
--

CREATE TABLE public.device_campaign_summary (
    tenant_id bigint NOT NULL,
    app_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    device text NOT NULL,
    first_at timestamp with time zone NOT NULL,
    last_at timestamp with time zone NOT NULL,
    delivered bigint DEFAULT 0 NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    dismissals bigint DEFAULT 0 NOT NULL
);

ALTER TABLE ONLY public.device_campaign_summary FORCE ROW LEVEL SECURITY;

--
-- Name: event_ids; Type: TABLE; Schema: public
--

CREATE TABLE public.event_ids (
    tenant_id bigint NOT NULL,
    event_id uuid NOT NULL
);

ALTER TABLE ONLY public.event_ids FORCE ROW LEVEL SECURITY;

--
-- Name: event_retention; Type: TABLE; Schema: public
--

CREATE TABLE public.event_retention (
    only_row boolean DEFAULT true NOT NULL,
    pruned_before date NOT NULL,
    CONSTRAINT event_retention_only_row_check CHECK (only_row)
);

--
-- Name: herald_installation; Type: TABLE; Schema: public
--

CREATE TABLE public.herald_installation (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    one_row boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT herald_installation_one_row_check CHECK (one_row)
);

--
-- Name: TABLE herald_installation; Type: COMMENT; Schema: public
--

COMMENT ON TABLE public.herald_installation IS 'This database''s Herald installation id: made at its first migrate, kept by a dump and restore, recorded in every folder it publishes.';

--
-- Name: herald_migrations; Type: TABLE; Schema: public
--

CREATE TABLE public.herald_migrations (
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: local_contents; Type: TABLE; Schema: public
--

CREATE TABLE public.local_contents (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT ('local'::text)::public.campaign_kind NOT NULL,
    locale public.locale_tag NOT NULL,
    body public.xml_text NOT NULL,
    action public.xml_text,
    CONSTRAINT local_contents_action_check CHECK (((action)::text <> ''::text)),
    CONSTRAINT local_contents_body_check CHECK (((body)::text <> ''::text)),
    CONSTRAINT local_contents_kind_check CHECK (((kind)::text = 'local'::text))
);

ALTER TABLE ONLY public.local_contents FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE local_contents; Type: COMMENT; Schema: public
--

COMMENT ON TABLE public.local_contents IS 'A local campaign''s words in one locale: alertBody and alertAction';

--
-- Name: local_notifications; Type: TABLE; Schema: public
--

CREATE TABLE public.local_notifications (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT ('local'::text)::public.campaign_kind NOT NULL,
    fire_at timestamp with time zone,
    fire_wall_clock timestamp without time zone,
    repeat_interval public.calendar_unit,
    badge integer,
    sound public.sound_name,
    launch_image public.bundle_file_name,
    has_action boolean DEFAULT true NOT NULL,
    user_info jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT local_notifications_badge_check CHECK (((badge >= 0) AND (badge <= 99999))),
    CONSTRAINT local_notifications_kind_check CHECK (((kind)::text = 'local'::text)),
    CONSTRAINT local_notifications_one_fire_time CHECK (((fire_at IS NULL) <> (fire_wall_clock IS NULL))),
    CONSTRAINT local_notifications_user_info_pairs CHECK (((jsonb_typeof(user_info) = 'object'::text) AND (NOT (user_info ? 'key'::text)) AND (NOT jsonb_path_exists(user_info, '$.*?(@.type() != "string")'::jsonpath)) AND (NOT jsonb_path_exists(user_info, '$.keyvalue()?(!(@."key" like_regex "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"))'::jsonpath))))
);

ALTER TABLE ONLY public.local_notifications FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE local_notifications; Type: COMMENT; Schema: public
--

COMMENT ON TABLE public.local_notifications IS 'A local campaign''s notification (UILocalNotification but for its words): fire time, repeat, badge, sound, launch image, action, userInfo';

--
-- Name: operator_grants; Type: TABLE; Schema: public
--

CREATE TABLE public.operator_grants (
    role_name name NOT NULL,
    tenant_id bigint NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    password_verifier text
);

--
-- Name: publish_blobs; Type: TABLE; Schema: public
--

CREATE TABLE public.publish_blobs (
    digest text NOT NULL,
    content bytea NOT NULL,
    CONSTRAINT publish_blobs_digest_check CHECK ((digest ~ '^[0-9a-f]{64}$'::text))
);
ALTER TABLE ONLY public.publish_blobs ALTER COLUMN content SET STORAGE EXTERNAL;

--
-- Name: publish_channel_secret; Type: TABLE; Schema: public
--

CREATE TABLE public.publish_channel_secret (
    secret text DEFAULT md5(((gen_random_uuid())::text || (clock_timestamp())::text)) NOT NULL,
    one_row boolean DEFAULT true NOT NULL,
    CONSTRAINT publish_channel_secret_one_row_check CHECK (one_row)
);

--
-- Name: TABLE publish_channel_secret; Type: COMMENT; Schema: public
--

COMMENT ON TABLE public.publish_channel_secret IS 'The random value the names of publish notification channels are derived from (LISTEN needs no privilege: the names are the secret).';

--
-- Name: publish_runs; Type: TABLE; Schema: public
--

CREATE TABLE public.publish_runs (
    id bigint NOT NULL,
    started_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    finished_at timestamp with time zone,
    actor text NOT NULL,
    out_dir text NOT NULL,
    publish_at timestamp with time zone NOT NULL,
    scope text DEFAULT ''::text NOT NULL,
    outcome text NOT NULL,
    rollback_of bigint,
    files_written integer DEFAULT 0 NOT NULL,
    files_unchanged integer DEFAULT 0 NOT NULL,
    files_removed integer DEFAULT 0 NOT NULL,
    manifest_digest text,
    message text,
    source_snapshot pg_snapshot,
    base_url text,
    repeats integer DEFAULT 0 NOT NULL,
    last_repeated_at timestamp with time zone,
    tenant_id bigint,
    source_cluster text,
    CONSTRAINT publish_runs_outcome_check CHECK ((outcome = ANY (ARRAY['running'::text, 'succeeded'::text, 'failed'::text, 'rolled back'::text]))),
    CONSTRAINT publish_runs_repeats_check CHECK ((repeats >= 0))
);

ALTER TABLE ONLY public.publish_runs FORCE ROW LEVEL SECURITY;

--
-- Name: publish_runs_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.publish_runs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.publish_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: reporting_grants; Type: TABLE; Schema: public
--

CREATE TABLE public.reporting_grants (
    role_name name NOT NULL,
    tenant_id bigint NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    password_verifier text
);

--
-- Name: story_contents; Type: TABLE; Schema: public
--

CREATE TABLE public.story_contents (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    kind public.campaign_kind DEFAULT 'story'::public.campaign_kind NOT NULL,
    locale public.locale_tag NOT NULL,
    push_title public.xml_text,
    push_text public.xml_text NOT NULL,
    CONSTRAINT story_contents_kind_check CHECK ((kind = 'story'::public.campaign_kind)),
    CONSTRAINT story_contents_push_text_check CHECK (((push_text)::text <> ''::text)),
    CONSTRAINT story_contents_push_title_check CHECK (((push_title)::text <> ''::text))
);

ALTER TABLE ONLY public.story_contents FORCE ROW LEVEL SECURITY;

--
-- Name: story_pages; Type: TABLE; Schema: public
--

CREATE TABLE public.story_pages (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    campaign_id bigint NOT NULL,
    locale public.locale_tag NOT NULL,
    "position" integer NOT NULL,
    image public.http_url NOT NULL,
    duration numeric,
    link public.link_url,
    button_title public.xml_text,
    title public.xml_text,
    subtitle public.xml_text,
    CONSTRAINT story_pages_button_title_check CHECK (((button_title)::text <> ''::text)),
    CONSTRAINT story_pages_duration_check CHECK (((duration > (0)::numeric) AND (duration < (100000)::numeric))),
    CONSTRAINT story_pages_position_check CHECK (("position" >= 0)),
    CONSTRAINT story_pages_subtitle_check CHECK (((subtitle)::text <> ''::text)),
    CONSTRAINT story_pages_title_check CHECK (((title)::text <> ''::text))
);

ALTER TABLE ONLY public.story_pages FORCE ROW LEVEL SECURITY;

--
-- Name: tenant_locks; Type: TABLE; Schema: public
--

CREATE TABLE public.tenant_locks (
    tenant_id bigint NOT NULL,
    purpose text DEFAULT 'publish'::text NOT NULL,
    CONSTRAINT tenant_locks_purpose CHECK ((purpose = ANY (ARRAY['publish'::text, 'apply'::text])))
);

ALTER TABLE ONLY public.tenant_locks FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE tenant_locks; Type: COMMENT; Schema: public
--

COMMENT ON TABLE public.tenant_locks IS 'A row per tenant and purpose (publish, apply): locked FOR UPDATE by whoever takes that tenant''s turn';

--
-- Name: tenant_publish_blobs; Type: TABLE; Schema: public
--

CREATE TABLE public.tenant_publish_blobs (
    tenant_id bigint DEFAULT public.herald_current_tenant() NOT NULL,
    digest text NOT NULL,
    content bytea NOT NULL,
    CONSTRAINT tenant_publish_blobs_digest_check CHECK ((digest ~ '^[0-9a-f]{64}$'::text))
);
ALTER TABLE ONLY public.tenant_publish_blobs ALTER COLUMN content SET STORAGE EXTERNAL;

ALTER TABLE ONLY public.tenant_publish_blobs FORCE ROW LEVEL SECURITY;

--
-- Name: tenants; Type: TABLE; Schema: public
--

CREATE TABLE public.tenants (
    id bigint NOT NULL,
    slug public.slug NOT NULL,
    name public.xml_text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    require_approval boolean DEFAULT false NOT NULL,
    CONSTRAINT tenants_name_check CHECK (((name)::text <> ''::text))
);

ALTER TABLE ONLY public.tenants FORCE ROW LEVEL SECURITY;

--
-- Name: tenants_id_seq; Type: SEQUENCE; Schema: public
--

ALTER TABLE public.tenants ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.tenants_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: app_summary; Type: VIEW; Schema: reporting
--

CREATE VIEW reporting.app_summary WITH (security_barrier='true') AS
 WITH scope AS MATERIALIZED (
         SELECT s.tenant_ids,
            s.tenant
           FROM public.herald_reporting_scope() s(tenant_ids, tenant)
        )
 SELECT COALESCE(( SELECT scope.tenant
           FROM scope), ( SELECT (t.slug)::text AS slug
           FROM public.tenants t
          WHERE (t.id = r.tenant_id))) AS tenant,
    (a.slug)::text AS app,
    count(*) AS campaigns,
    (sum(r.delivered))::bigint AS delivered,
    (sum(r.impressions))::bigint AS impressions,
    (sum(r.clicks))::bigint AS clicks,
    (sum(r.dismissals))::bigint AS dismissals,
        CASE
            WHEN (sum(r.impressions) > (0)::numeric) THEN round((sum(r.clicks) / sum(r.impressions)), 4)
            ELSE NULL::numeric
        END AS click_through_rate,
    min(r.first_at) AS first_event,
    max(r.last_at) AS last_event
   FROM (public.campaign_rollup r
     JOIN public.apps a ON ((a.id = r.app_id)))
  WHERE ((r.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (a.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])))
  GROUP BY r.tenant_id, a.slug;

--
-- Name: VIEW app_summary; Type: COMMENT; Schema: reporting
--

COMMENT ON VIEW reporting.app_summary IS 'Per app, all time: campaigns, delivered, impressions, clicks, dismissals, click-through rate, first and last event. Rows as reporting.campaign_summary.';

--
-- Name: campaign_daily; Type: VIEW; Schema: reporting
--

CREATE VIEW reporting.campaign_daily WITH (security_barrier='true') AS
 WITH scope AS MATERIALIZED (
         SELECT s.tenant_ids,
            s.tenant
           FROM public.herald_reporting_scope() s(tenant_ids, tenant)
        )
 SELECT COALESCE(( SELECT scope.tenant
           FROM scope), ( SELECT (t.slug)::text AS slug
           FROM public.tenants t
          WHERE (t.id = d.tenant_id))) AS tenant,
    (a.slug)::text AS app,
    (c.key)::text AS campaign,
    d.day,
    (d.locale)::text AS locale,
    k.event,
    k.events,
    k.unique_devices
   FROM (((public.campaign_daily_rollup d
     CROSS JOIN LATERAL ( VALUES ('delivered'::text,d.delivered,d.delivered_devices), ('impression'::text,d.impressions,d.impression_devices), ('click'::text,d.clicks,d.click_devices), ('dismiss'::text,d.dismissals,d.dismiss_devices)) k(event, events, unique_devices))
     JOIN public.campaigns c ON ((c.id = d.campaign_id)))
     JOIN public.apps a ON (((a.id = d.app_id) AND (a.id = c.app_id))))
  WHERE ((k.events > 0) AND (d.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (c.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (a.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])));

--
-- Name: VIEW campaign_daily; Type: COMMENT; Schema: reporting
--

COMMENT ON VIEW reporting.campaign_daily IS 'Per campaign, UTC day, locale and event kind: events and unique devices (from the daily rollups, kept when raw events are pruned). Indexed by tenant and campaign, and by tenant and day. Rows as reporting.campaign_summary.';

--
-- Name: campaign_summary; Type: VIEW; Schema: reporting
--

CREATE VIEW reporting.campaign_summary WITH (security_barrier='true') AS
 WITH scope AS MATERIALIZED (
         SELECT s.tenant_ids,
            s.tenant
           FROM public.herald_reporting_scope() s(tenant_ids, tenant)
        )
 SELECT COALESCE(( SELECT scope.tenant
           FROM scope), ( SELECT (t.slug)::text AS slug
           FROM public.tenants t
          WHERE (t.id = r.tenant_id))) AS tenant,
    (a.slug)::text AS app,
    (c.key)::text AS campaign,
    (c.kind)::text AS kind,
    r.delivered,
    r.impressions,
    r.clicks,
    r.dismissals,
    r.unique_devices,
        CASE
            WHEN (r.impressions > 0) THEN round(((r.clicks)::numeric / (r.impressions)::numeric), 4)
            ELSE NULL::numeric
        END AS click_through_rate,
    r.first_at AS first_event,
    r.last_at AS last_event
   FROM ((public.campaign_rollup r
     JOIN public.campaigns c ON ((c.id = r.campaign_id)))
     JOIN public.apps a ON (((a.id = r.app_id) AND (a.id = c.app_id))))
  WHERE ((r.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (c.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (a.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])));

--
-- Name: VIEW campaign_summary; Type: COMMENT; Schema: reporting
--

COMMENT ON VIEW reporting.campaign_summary IS 'Per campaign, all time: delivered, impressions, clicks, dismissals, unique devices, click-through rate, first and last event. A tenant''s analysts and operators see their tenant''s rows; herald_operator (SET ROLE herald_operator) sees every tenant''s.';

--
-- Name: device_history; Type: VIEW; Schema: reporting
--

CREATE VIEW reporting.device_history WITH (security_barrier='true') AS
 WITH scope AS MATERIALIZED (
         SELECT s.tenant_ids,
            s.tenant
           FROM public.herald_reporting_scope() s(tenant_ids, tenant)
        )
 SELECT COALESCE(( SELECT scope.tenant
           FROM scope), ( SELECT (t.slug)::text AS slug
           FROM public.tenants t
          WHERE (t.id = e.tenant_id))) AS tenant,
    (a.slug)::text AS app,
    e.device,
    e.at,
    (c.key)::text AS campaign,
    (c.kind)::text AS kind,
    (e.kind)::text AS event,
    (e.locale)::text AS locale,
    e.app_version,
    e.os_version,
    e.event_id
   FROM ((public.delivery_events e
     JOIN public.campaigns c ON ((c.id = e.campaign_id)))
     JOIN public.apps a ON (((a.id = e.app_id) AND (a.id = c.app_id))))
  WHERE ((e.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (c.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])) AND (a.tenant_id = ANY (( SELECT scope.tenant_ids
           FROM scope)::bigint[])));

--
-- Name: VIEW device_history; Type: COMMENT; Schema: reporting
--

COMMENT ON VIEW reporting.device_history IS 'One row per raw delivery event (the months not pruned): one device''s history, in order of at. Indexed by tenant, device and time, and by tenant, campaign and time. Rows as reporting.campaign_summary.';

--
-- Name: alert_contents alert_contents_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.alert_contents
    ADD CONSTRAINT alert_contents_pkey PRIMARY KEY (tenant_id, campaign_id, locale);

--
-- Name: alert_message_keys alert_message_keys_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.alert_message_keys
    ADD CONSTRAINT alert_message_keys_pkey PRIMARY KEY (tenant_id, app_id, message_key);

--
-- Name: app_keys app_keys_key_hash_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.app_keys
    ADD CONSTRAINT app_keys_key_hash_key UNIQUE (key_hash);

--
-- Name: app_keys app_keys_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.app_keys
    ADD CONSTRAINT app_keys_pkey PRIMARY KEY (id);

--
-- Name: apps apps_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.apps
    ADD CONSTRAINT apps_pkey PRIMARY KEY (id);

--
-- Name: apps apps_slug_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.apps
    ADD CONSTRAINT apps_slug_key UNIQUE (tenant_id, slug);

--
-- Name: apps apps_tenant_id_id_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.apps
    ADD CONSTRAINT apps_tenant_id_id_key UNIQUE (tenant_id, id);

--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

--
-- Name: banner_contents banner_contents_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_contents
    ADD CONSTRAINT banner_contents_pkey PRIMARY KEY (tenant_id, campaign_id, locale);

--
-- Name: banner_views banner_views_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_views
    ADD CONSTRAINT banner_views_pkey PRIMARY KEY (tenant_id, campaign_id, locale, view_id);

--
-- Name: banner_views banner_views_position_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_views
    ADD CONSTRAINT banner_views_position_key UNIQUE (tenant_id, campaign_id, locale, "position");

--
-- Name: campaign_approvals campaign_approvals_campaign_id_version_approved_by_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_approvals
    ADD CONSTRAINT campaign_approvals_campaign_id_version_approved_by_key UNIQUE (campaign_id, version, approved_by);

--
-- Name: campaign_approvals campaign_approvals_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_approvals
    ADD CONSTRAINT campaign_approvals_pkey PRIMARY KEY (id);

--
-- Name: campaign_conditions campaign_conditions_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_conditions
    ADD CONSTRAINT campaign_conditions_pkey PRIMARY KEY (tenant_id, campaign_id, grp, type);

--
-- Name: campaign_daily_rollup campaign_daily_rollup_pkey1; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_daily_rollup
    ADD CONSTRAINT campaign_daily_rollup_pkey1 PRIMARY KEY (campaign_id, day, locale);

--
-- Name: campaign_device_days campaign_device_days_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_device_days
    ADD CONSTRAINT campaign_device_days_pkey PRIMARY KEY (campaign_id, day, locale, device);

--
-- Name: campaign_rollup campaign_rollup_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_rollup
    ADD CONSTRAINT campaign_rollup_pkey PRIMARY KEY (campaign_id);

--
-- Name: campaign_versions campaign_versions_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_versions
    ADD CONSTRAINT campaign_versions_pkey PRIMARY KEY (campaign_id);

--
-- Name: campaigns campaigns_key_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_key_key UNIQUE (tenant_id, app_id, key);

--
-- Name: campaigns campaigns_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_pkey PRIMARY KEY (id);

--
-- Name: campaigns campaigns_tenant_app_id_kind_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_tenant_app_id_kind_key UNIQUE (tenant_id, app_id, id, kind);

--
-- Name: campaigns campaigns_tenant_id_id_kind_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_tenant_id_id_kind_key UNIQUE (tenant_id, id, kind);

--
-- Name: device_campaign_summary device_campaign_summary_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.device_campaign_summary
    ADD CONSTRAINT device_campaign_summary_pkey PRIMARY KEY (campaign_id, device);

--
-- Name: event_ids event_ids_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.event_ids
    ADD CONSTRAINT event_ids_pkey PRIMARY KEY (tenant_id, event_id);

--
-- Name: event_retention event_retention_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.event_retention
    ADD CONSTRAINT event_retention_pkey PRIMARY KEY (only_row);

--
-- Name: herald_installation herald_installation_one_row_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.herald_installation
    ADD CONSTRAINT herald_installation_one_row_key UNIQUE (one_row);

--
-- Name: herald_installation herald_installation_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.herald_installation
    ADD CONSTRAINT herald_installation_pkey PRIMARY KEY (id);

--
-- Name: herald_migrations herald_migrations_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.herald_migrations
    ADD CONSTRAINT herald_migrations_pkey PRIMARY KEY (name);

--
-- Name: local_contents local_contents_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.local_contents
    ADD CONSTRAINT local_contents_pkey PRIMARY KEY (tenant_id, campaign_id, locale);

--
-- Name: local_notifications local_notifications_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.local_notifications
    ADD CONSTRAINT local_notifications_pkey PRIMARY KEY (tenant_id, campaign_id);

--
-- Name: operator_grants operator_grants_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.operator_grants
    ADD CONSTRAINT operator_grants_pkey PRIMARY KEY (role_name);

--
-- Name: publish_blobs publish_blobs_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.publish_blobs
    ADD CONSTRAINT publish_blobs_pkey PRIMARY KEY (digest);

--
-- Name: publish_channel_secret publish_channel_secret_one_row_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.publish_channel_secret
    ADD CONSTRAINT publish_channel_secret_one_row_key UNIQUE (one_row);

--
-- Name: publish_runs publish_runs_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.publish_runs
    ADD CONSTRAINT publish_runs_pkey PRIMARY KEY (id);

--
-- Name: reporting_grants reporting_grants_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.reporting_grants
    ADD CONSTRAINT reporting_grants_pkey PRIMARY KEY (role_name);

--
-- Name: story_contents story_contents_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.story_contents
    ADD CONSTRAINT story_contents_pkey PRIMARY KEY (tenant_id, campaign_id, locale);

--
-- Name: story_pages story_pages_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.story_pages
    ADD CONSTRAINT story_pages_pkey PRIMARY KEY (tenant_id, campaign_id, locale, "position");

--
-- Name: tenant_locks tenant_locks_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenant_locks
    ADD CONSTRAINT tenant_locks_pkey PRIMARY KEY (tenant_id, purpose);

--
-- Name: tenant_publish_blobs tenant_publish_blobs_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenant_publish_blobs
    ADD CONSTRAINT tenant_publish_blobs_pkey PRIMARY KEY (tenant_id, digest);

--
-- Name: tenants tenants_pkey; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);

--
-- Name: tenants tenants_slug_key; Type: CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenants
    ADD CONSTRAINT tenants_slug_key UNIQUE (slug);

--
-- Name: alert_message_keys_campaign_idx; Type: INDEX; Schema: public
--

CREATE INDEX alert_message_keys_campaign_idx ON public.alert_message_keys USING btree (tenant_id, campaign_id, seq);

--
-- Name: alert_message_keys_case_insensitive_key; Type: INDEX; Schema: public
--

CREATE UNIQUE INDEX alert_message_keys_case_insensitive_key ON public.alert_message_keys USING btree (tenant_id, app_id, lower((message_key)::text));

--
-- Name: app_keys_app_idx; Type: INDEX; Schema: public
--

CREATE INDEX app_keys_app_idx ON public.app_keys USING btree (tenant_id, app_id, id);

--
-- Name: audit_log_tenant_at_idx; Type: INDEX; Schema: public
--

CREATE INDEX audit_log_tenant_at_idx ON public.audit_log USING btree (tenant_id, at);

--
-- Name: audit_log_txid_idx; Type: INDEX; Schema: public
--

CREATE INDEX audit_log_txid_idx ON public.audit_log USING btree (txid);

--
-- Name: campaign_approvals_version_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaign_approvals_version_idx ON public.campaign_approvals USING btree (campaign_id, version);

--
-- Name: campaign_daily_rollup_campaign_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaign_daily_rollup_campaign_idx ON public.campaign_daily_rollup USING btree (tenant_id, campaign_id, day);

--
-- Name: campaign_daily_rollup_tenant_day_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaign_daily_rollup_tenant_day_idx ON public.campaign_daily_rollup USING btree (tenant_id, day);

--
-- Name: campaign_rollup_app_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaign_rollup_app_idx ON public.campaign_rollup USING btree (tenant_id, app_id);

--
-- Name: campaign_rollup_campaign_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaign_rollup_campaign_idx ON public.campaign_rollup USING btree (tenant_id, campaign_id);

--
-- Name: campaigns_active_ends_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaigns_active_ends_idx ON public.campaigns USING btree (ends_at) WHERE (status = 'active'::public.campaign_status);

--
-- Name: campaigns_active_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaigns_active_idx ON public.campaigns USING btree (tenant_id, app_id) WHERE (status = 'active'::public.campaign_status);

--
-- Name: campaigns_active_starts_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaigns_active_starts_idx ON public.campaigns USING btree (starts_at) WHERE (status = 'active'::public.campaign_status);

--
-- Name: campaigns_id_with_app_idx; Type: INDEX; Schema: public
--

CREATE INDEX campaigns_id_with_app_idx ON public.campaigns USING btree (id) INCLUDE (tenant_id, app_id);

--
-- Name: delivery_events_device_idx; Type: INDEX; Schema: public
--

CREATE INDEX delivery_events_device_idx ON ONLY public.delivery_events USING btree (tenant_id, device, at);

--
-- Name: delivery_events_tenant_campaign_idx; Type: INDEX; Schema: public
--

CREATE INDEX delivery_events_tenant_campaign_idx ON ONLY public.delivery_events USING btree (tenant_id, campaign_id, at);

--
-- Name: publish_runs_manifest_idx; Type: INDEX; Schema: public
--

CREATE INDEX publish_runs_manifest_idx ON public.publish_runs USING btree (manifest_digest) WHERE (manifest_digest IS NOT NULL);

--
-- Name: publish_runs_started_idx; Type: INDEX; Schema: public
--

CREATE INDEX publish_runs_started_idx ON public.publish_runs USING btree (started_at);

--
-- Name: publish_runs_tenant_idx; Type: INDEX; Schema: public
--

CREATE INDEX publish_runs_tenant_idx ON public.publish_runs USING btree (tenant_id, out_dir, id) WHERE (tenant_id IS NOT NULL);

--
-- Name: alert_contents alert_contents_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER alert_contents_audit AFTER INSERT OR DELETE OR UPDATE ON public.alert_contents FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: alert_contents alert_contents_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER alert_contents_edited AFTER INSERT OR DELETE OR UPDATE ON public.alert_contents FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: alert_message_keys alert_message_keys_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER alert_message_keys_audit AFTER INSERT OR DELETE OR UPDATE ON public.alert_message_keys FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: alert_message_keys alert_message_keys_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER alert_message_keys_guard BEFORE DELETE OR UPDATE ON public.alert_message_keys FOR EACH ROW EXECUTE FUNCTION public.herald_message_keys_guard();

--
-- Name: app_keys app_keys_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER app_keys_guard BEFORE INSERT OR UPDATE ON public.app_keys FOR EACH ROW EXECUTE FUNCTION public.herald_app_keys_guard();

--
-- Name: apps apps_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER apps_audit AFTER INSERT OR DELETE OR UPDATE ON public.apps FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: apps apps_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER apps_guard BEFORE UPDATE ON public.apps FOR EACH ROW EXECUTE FUNCTION public.herald_apps_guard();

--
-- Name: apps apps_touch; Type: TRIGGER; Schema: public
--

CREATE TRIGGER apps_touch BEFORE UPDATE ON public.apps FOR EACH ROW EXECUTE FUNCTION public.herald_touch_updated_at();

--
-- Name: audit_log audit_log_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER audit_log_guard BEFORE DELETE OR UPDATE ON public.audit_log FOR EACH ROW EXECUTE FUNCTION public.herald_audit_log_guard();

--
-- Name: audit_log audit_log_notify_publishers; Type: TRIGGER; Schema: public
--

CREATE TRIGGER audit_log_notify_publishers AFTER INSERT ON public.audit_log FOR EACH ROW WHEN ((strpos(COALESCE(current_setting('herald.noticed_tenants'::text, true), ''::text), ((','::text || new.tenant_id) || ','::text)) = 0)) EXECUTE FUNCTION public.herald_notify_publishers();

--
-- Name: banner_contents banner_contents_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER banner_contents_audit AFTER INSERT OR DELETE OR UPDATE ON public.banner_contents FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: banner_contents banner_contents_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER banner_contents_edited AFTER INSERT OR DELETE OR UPDATE ON public.banner_contents FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: banner_views banner_views_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER banner_views_audit AFTER INSERT OR DELETE OR UPDATE ON public.banner_views FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: banner_views banner_views_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER banner_views_edited AFTER INSERT OR DELETE OR UPDATE ON public.banner_views FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: campaign_approvals campaign_approvals_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaign_approvals_audit AFTER INSERT ON public.campaign_approvals FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: campaign_approvals campaign_approvals_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaign_approvals_guard BEFORE INSERT ON public.campaign_approvals FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_approvals_guard();

--
-- Name: campaign_conditions campaign_conditions_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaign_conditions_audit AFTER INSERT OR DELETE OR UPDATE ON public.campaign_conditions FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: campaign_conditions campaign_conditions_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaign_conditions_edited AFTER INSERT OR DELETE OR UPDATE ON public.campaign_conditions FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: campaign_versions campaign_versions_approved_when_live; Type: TRIGGER; Schema: public
--

CREATE CONSTRAINT TRIGGER campaign_versions_approved_when_live AFTER INSERT OR UPDATE ON public.campaign_versions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_needs_approval();

--
-- Name: campaign_versions campaign_versions_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaign_versions_guard BEFORE INSERT OR UPDATE ON public.campaign_versions FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_versions_guard();

--
-- Name: campaigns campaigns_approved_when_activated; Type: TRIGGER; Schema: public
--

CREATE CONSTRAINT TRIGGER campaigns_approved_when_activated AFTER INSERT OR UPDATE OF status ON public.campaigns DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_needs_approval();

--
-- Name: campaigns campaigns_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaigns_audit AFTER INSERT OR DELETE OR UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: campaigns campaigns_content_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaigns_content_edited AFTER UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: campaigns campaigns_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaigns_edited AFTER INSERT ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: campaigns campaigns_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaigns_guard BEFORE DELETE OR UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.herald_campaigns_guard();

--
-- Name: campaigns campaigns_touch; Type: TRIGGER; Schema: public
--

CREATE TRIGGER campaigns_touch BEFORE UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION public.herald_touch_updated_at();

--
-- Name: local_contents local_contents_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER local_contents_audit AFTER INSERT OR DELETE OR UPDATE ON public.local_contents FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: local_contents local_contents_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER local_contents_edited AFTER INSERT OR DELETE OR UPDATE ON public.local_contents FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: local_notifications local_notifications_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER local_notifications_audit AFTER INSERT OR DELETE OR UPDATE ON public.local_notifications FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: local_notifications local_notifications_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER local_notifications_edited AFTER INSERT OR DELETE OR UPDATE ON public.local_notifications FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: publish_runs publish_runs_guard; Type: TRIGGER; Schema: public
--

CREATE TRIGGER publish_runs_guard BEFORE INSERT ON public.publish_runs FOR EACH ROW EXECUTE FUNCTION public.herald_publish_runs_guard();

--
-- Name: story_contents story_contents_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER story_contents_audit AFTER INSERT OR DELETE OR UPDATE ON public.story_contents FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: story_contents story_contents_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER story_contents_edited AFTER INSERT OR DELETE OR UPDATE ON public.story_contents FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: story_pages story_pages_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER story_pages_audit AFTER INSERT OR DELETE OR UPDATE ON public.story_pages FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: story_pages story_pages_edited; Type: TRIGGER; Schema: public
--

CREATE TRIGGER story_pages_edited AFTER INSERT OR DELETE OR UPDATE ON public.story_pages FOR EACH ROW EXECUTE FUNCTION public.herald_campaign_edited();

--
-- Name: tenants tenants_add_lock_rows; Type: TRIGGER; Schema: public
--

CREATE TRIGGER tenants_add_lock_rows AFTER INSERT ON public.tenants FOR EACH ROW EXECUTE FUNCTION public.herald_add_tenant_lock_rows();

ALTER TABLE public.tenants ENABLE ALWAYS TRIGGER tenants_add_lock_rows;

--
-- Name: tenants tenants_audit; Type: TRIGGER; Schema: public
--

CREATE TRIGGER tenants_audit AFTER INSERT OR DELETE OR UPDATE ON public.tenants FOR EACH ROW EXECUTE FUNCTION public.herald_audit_row();

--
-- Name: tenants tenants_touch; Type: TRIGGER; Schema: public
--

CREATE TRIGGER tenants_touch BEFORE UPDATE ON public.tenants FOR EACH ROW EXECUTE FUNCTION public.herald_touch_updated_at();

--
-- Name: alert_contents alert_contents_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.alert_contents
    ADD CONSTRAINT alert_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: alert_message_keys alert_message_keys_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.alert_message_keys
    ADD CONSTRAINT alert_message_keys_campaign_fkey FOREIGN KEY (tenant_id, app_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, app_id, id, kind);

--
-- Name: app_keys app_keys_app_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.app_keys
    ADD CONSTRAINT app_keys_app_fkey FOREIGN KEY (tenant_id, app_id) REFERENCES public.apps(tenant_id, id);

--
-- Name: app_keys app_keys_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.app_keys
    ADD CONSTRAINT app_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: apps apps_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.apps
    ADD CONSTRAINT apps_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: banner_contents banner_contents_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_contents
    ADD CONSTRAINT banner_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: banner_contents banner_contents_entry_view_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_contents
    ADD CONSTRAINT banner_contents_entry_view_fkey FOREIGN KEY (tenant_id, campaign_id, locale, entry_view) REFERENCES public.banner_views(tenant_id, campaign_id, locale, view_id) DEFERRABLE INITIALLY DEFERRED;

--
-- Name: banner_views banner_views_content_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.banner_views
    ADD CONSTRAINT banner_views_content_fkey FOREIGN KEY (tenant_id, campaign_id, locale) REFERENCES public.banner_contents(tenant_id, campaign_id, locale) ON DELETE CASCADE;

--
-- Name: campaign_approvals campaign_approvals_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_approvals
    ADD CONSTRAINT campaign_approvals_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id);

--
-- Name: campaign_approvals campaign_approvals_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_approvals
    ADD CONSTRAINT campaign_approvals_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: campaign_conditions campaign_conditions_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_conditions
    ADD CONSTRAINT campaign_conditions_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: campaign_versions campaign_versions_campaign_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_versions
    ADD CONSTRAINT campaign_versions_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id);

--
-- Name: campaign_versions campaign_versions_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaign_versions
    ADD CONSTRAINT campaign_versions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: campaigns campaigns_app_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.campaigns
    ADD CONSTRAINT campaigns_app_fkey FOREIGN KEY (tenant_id, app_id) REFERENCES public.apps(tenant_id, id);

--
-- Name: local_contents local_contents_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.local_contents
    ADD CONSTRAINT local_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: local_contents local_contents_notification_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.local_contents
    ADD CONSTRAINT local_contents_notification_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES public.local_notifications(tenant_id, campaign_id);

--
-- Name: local_notifications local_notifications_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.local_notifications
    ADD CONSTRAINT local_notifications_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: operator_grants operator_grants_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.operator_grants
    ADD CONSTRAINT operator_grants_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: publish_runs publish_runs_rollback_of_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.publish_runs
    ADD CONSTRAINT publish_runs_rollback_of_fkey FOREIGN KEY (rollback_of) REFERENCES public.publish_runs(id) ON DELETE SET NULL;

--
-- Name: publish_runs publish_runs_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.publish_runs
    ADD CONSTRAINT publish_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: reporting_grants reporting_grants_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.reporting_grants
    ADD CONSTRAINT reporting_grants_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: story_contents story_contents_campaign_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.story_contents
    ADD CONSTRAINT story_contents_campaign_fkey FOREIGN KEY (tenant_id, campaign_id, kind) REFERENCES public.campaigns(tenant_id, id, kind);

--
-- Name: story_pages story_pages_content_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.story_pages
    ADD CONSTRAINT story_pages_content_fkey FOREIGN KEY (tenant_id, campaign_id, locale) REFERENCES public.story_contents(tenant_id, campaign_id, locale) ON DELETE CASCADE;

--
-- Name: tenant_locks tenant_locks_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenant_locks
    ADD CONSTRAINT tenant_locks_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: tenant_publish_blobs tenant_publish_blobs_tenant_id_fkey; Type: FK CONSTRAINT; Schema: public
--

ALTER TABLE ONLY public.tenant_publish_blobs
    ADD CONSTRAINT tenant_publish_blobs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES public.tenants(id);

--
-- Name: alert_contents; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.alert_contents ENABLE ROW LEVEL SECURITY;

--
-- Name: alert_message_keys; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.alert_message_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: app_keys; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.app_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: apps; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.apps ENABLE ROW LEVEL SECURITY;

--
-- Name: audit_log; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.audit_log ENABLE ROW LEVEL SECURITY;

--
-- Name: banner_contents; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.banner_contents ENABLE ROW LEVEL SECURITY;

--
-- Name: banner_views; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.banner_views ENABLE ROW LEVEL SECURITY;

--
-- Name: campaign_approvals; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaign_approvals ENABLE ROW LEVEL SECURITY;

--
-- Name: campaign_conditions; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaign_conditions ENABLE ROW LEVEL SECURITY;

--
-- Name: campaign_daily_rollup; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaign_daily_rollup ENABLE ROW LEVEL SECURITY;

--
-- Name: campaign_rollup; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaign_rollup ENABLE ROW LEVEL SECURITY;

--
-- Name: campaign_versions; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaign_versions ENABLE ROW LEVEL SECURITY;

--
-- Name: campaigns; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.campaigns ENABLE ROW LEVEL SECURITY;

--
-- Name: delivery_events; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.delivery_events ENABLE ROW LEVEL SECURITY;

--
-- Name: device_campaign_summary; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.device_campaign_summary ENABLE ROW LEVEL SECURITY;

--
-- Name: event_ids; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.event_ids ENABLE ROW LEVEL SECURITY;

--
-- Name: alert_contents herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.alert_contents USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: alert_message_keys herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.alert_message_keys USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: app_keys herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.app_keys USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: apps herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.apps USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: audit_log herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.audit_log USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: banner_contents herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.banner_contents USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: banner_views herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.banner_views USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaign_approvals herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaign_approvals USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaign_conditions herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaign_conditions USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaign_daily_rollup herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaign_daily_rollup USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaign_rollup herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaign_rollup USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaign_versions herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaign_versions USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: campaigns herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.campaigns USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: delivery_events herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.delivery_events USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: device_campaign_summary herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.device_campaign_summary USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: event_ids herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.event_ids USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: local_contents herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.local_contents USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: local_notifications herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.local_notifications USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: publish_runs herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.publish_runs USING (((COALESCE(tenant_id, (0)::bigint) >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (COALESCE(tenant_id, (0)::bigint) <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((COALESCE(tenant_id, (0)::bigint) >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (COALESCE(tenant_id, (0)::bigint) <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: story_contents herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.story_contents USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: story_pages herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.story_pages USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: tenant_locks herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.tenant_locks USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: tenant_publish_blobs herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.tenant_publish_blobs USING (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((tenant_id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (tenant_id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: tenants herald_rows; Type: POLICY; Schema: public
--

CREATE POLICY herald_rows ON public.tenants USING (((id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant)))) WITH CHECK (((id >= ( SELECT public.herald_first_visible_tenant() AS herald_first_visible_tenant)) AND (id <= ( SELECT public.herald_last_visible_tenant() AS herald_last_visible_tenant))));

--
-- Name: local_contents; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.local_contents ENABLE ROW LEVEL SECURITY;

--
-- Name: local_notifications; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.local_notifications ENABLE ROW LEVEL SECURITY;

--
-- Name: publish_runs; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.publish_runs ENABLE ROW LEVEL SECURITY;

--
-- Name: story_contents; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.story_contents ENABLE ROW LEVEL SECURITY;

--
-- Name: story_pages; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.story_pages ENABLE ROW LEVEL SECURITY;

--
-- Name: tenant_locks; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.tenant_locks ENABLE ROW LEVEL SECURITY;

--
-- Name: tenant_publish_blobs; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.tenant_publish_blobs ENABLE ROW LEVEL SECURITY;

--
-- Name: tenants; Type: ROW SECURITY; Schema: public
--

ALTER TABLE public.tenants ENABLE ROW LEVEL SECURITY;

--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: pg_database_owner
--

GRANT USAGE ON SCHEMA public TO herald_operator;
GRANT USAGE ON SCHEMA public TO herald_tenant;

--
-- Name: SCHEMA reporting; Type: ACL; Schema: -
--

GRANT USAGE ON SCHEMA reporting TO herald_operator;
GRANT USAGE ON SCHEMA reporting TO herald_tenant;

--
-- Name: FUNCTION lo_creat(integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.lo_creat(integer) FROM PUBLIC;

--
-- Name: FUNCTION lo_create(oid); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.lo_create(oid) FROM PUBLIC;

--
-- Name: FUNCTION lo_from_bytea(oid, bytea); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.lo_from_bytea(oid, bytea) FROM PUBLIC;

--
-- Name: FUNCTION pg_advisory_lock(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_lock(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_lock(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_lock(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_lock(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_lock(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_lock_shared(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_lock_shared(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_lock_shared(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_lock_shared(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_lock_shared(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_lock_shared(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_xact_lock(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_xact_lock(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_xact_lock_shared(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock_shared(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock_shared(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_advisory_xact_lock_shared(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock_shared(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_advisory_xact_lock_shared(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_lock(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_lock(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_lock(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_lock(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_lock(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_lock(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_lock_shared(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_lock_shared(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_xact_lock(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_xact_lock(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock(integer, integer) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_xact_lock_shared(bigint); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock_shared(bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock_shared(bigint) TO herald_operator;

--
-- Name: FUNCTION pg_try_advisory_xact_lock_shared(integer, integer); Type: ACL; Schema: pg_catalog
--

REVOKE ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock_shared(integer, integer) FROM PUBLIC;
GRANT ALL ON FUNCTION pg_catalog.pg_try_advisory_xact_lock_shared(integer, integer) TO herald_operator;

--
-- Name: FUNCTION herald_add_tenant_lock_rows(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_add_tenant_lock_rows() FROM PUBLIC;

--
-- Name: FUNCTION herald_audit_row(); Type: ACL; Schema: public; Owner: herald_operator
--

REVOKE ALL ON FUNCTION public.herald_audit_row() FROM PUBLIC;

--
-- Name: FUNCTION herald_drop_login(role_name text); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_drop_login(role_name text) FROM PUBLIC;

--
-- Name: FUNCTION herald_ensure_access(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_ensure_access() FROM PUBLIC;

--
-- Name: FUNCTION herald_ensure_access_0016(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_ensure_access_0016() FROM PUBLIC;

--
-- Name: FUNCTION herald_ensure_access_0022(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_ensure_access_0022() FROM PUBLIC;

--
-- Name: FUNCTION herald_ensure_access_0026(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_ensure_access_0026() FROM PUBLIC;

--
-- Name: FUNCTION herald_ensure_event_partitions(month date); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_ensure_event_partitions(month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_ensure_event_partitions(month date) TO herald_operator;

--
-- Name: FUNCTION herald_grant_login_access(role_name text); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_grant_login_access(role_name text) FROM PUBLIC;

--
-- Name: FUNCTION herald_grant_operator(role_name text, tenant bigint, password text); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_grant_operator(role_name text, tenant bigint, password text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_grant_operator(role_name text, tenant bigint, password text) TO herald_operator;

--
-- Name: FUNCTION herald_grant_reporting(role_name text, tenant bigint, password text); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_grant_reporting(role_name text, tenant bigint, password text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_grant_reporting(role_name text, tenant bigint, password text) TO herald_operator;

--
-- Name: FUNCTION herald_notify_publishers(); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_notify_publishers() FROM PUBLIC;

--
-- Name: FUNCTION herald_prune_events(before date); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_prune_events(before date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_prune_events(before date) TO herald_operator;

--
-- Name: FUNCTION herald_publish_channel_name(tenant_id bigint); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_publish_channel_name(tenant_id bigint) FROM PUBLIC;

--
-- Name: FUNCTION herald_publish_runs_guard(); Type: ACL; Schema: public; Owner: herald_operator
--

REVOKE ALL ON FUNCTION public.herald_publish_runs_guard() FROM PUBLIC;

--
-- Name: FUNCTION herald_revoke_operator(role_name text, tenant bigint); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_revoke_operator(role_name text, tenant bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_revoke_operator(role_name text, tenant bigint) TO herald_operator;

--
-- Name: FUNCTION herald_revoke_reporting(role_name text, tenant bigint); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_revoke_reporting(role_name text, tenant bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_revoke_reporting(role_name text, tenant bigint) TO herald_operator;

--
-- Name: FUNCTION herald_try_folder_lock(folder text); Type: ACL; Schema: public
--

REVOKE ALL ON FUNCTION public.herald_try_folder_lock(folder text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.herald_try_folder_lock(folder text) TO herald_operator;
GRANT ALL ON FUNCTION public.herald_try_folder_lock(folder text) TO herald_tenant;

--
-- Name: TABLE alert_contents; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.alert_contents TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.alert_contents TO herald_tenant;

--
-- Name: TABLE alert_message_keys; Type: ACL; Schema: public
--

GRANT SELECT,INSERT ON TABLE public.alert_message_keys TO herald_operator;
GRANT SELECT ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.app_id; Type: ACL; Schema: public
--

GRANT INSERT(app_id) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.campaign_id; Type: ACL; Schema: public
--

GRANT INSERT(campaign_id) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.kind; Type: ACL; Schema: public
--

GRANT INSERT(kind) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.message_key; Type: ACL; Schema: public
--

GRANT INSERT(message_key) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: COLUMN alert_message_keys.assigned_at; Type: ACL; Schema: public
--

GRANT INSERT(assigned_at) ON TABLE public.alert_message_keys TO herald_tenant;

--
-- Name: SEQUENCE alert_message_keys_seq_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.alert_message_keys_seq_seq TO herald_operator;

--
-- Name: TABLE app_keys; Type: ACL; Schema: public
--

GRANT SELECT ON TABLE public.app_keys TO herald_operator;
GRANT SELECT ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.app_keys TO herald_operator;
GRANT INSERT(tenant_id) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.app_id; Type: ACL; Schema: public
--

GRANT INSERT(app_id) ON TABLE public.app_keys TO herald_operator;
GRANT INSERT(app_id) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.name; Type: ACL; Schema: public
--

GRANT INSERT(name) ON TABLE public.app_keys TO herald_operator;
GRANT INSERT(name) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.key_hash; Type: ACL; Schema: public
--

GRANT INSERT(key_hash) ON TABLE public.app_keys TO herald_operator;
GRANT INSERT(key_hash) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.key_hint; Type: ACL; Schema: public
--

GRANT INSERT(key_hint) ON TABLE public.app_keys TO herald_operator;
GRANT INSERT(key_hint) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.revoked_at; Type: ACL; Schema: public
--

GRANT UPDATE(revoked_at) ON TABLE public.app_keys TO herald_operator;
GRANT UPDATE(revoked_at) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: COLUMN app_keys.revoked_by; Type: ACL; Schema: public
--

GRANT UPDATE(revoked_by) ON TABLE public.app_keys TO herald_operator;
GRANT UPDATE(revoked_by) ON TABLE public.app_keys TO herald_tenant;

--
-- Name: SEQUENCE app_keys_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.app_keys_id_seq TO herald_operator;

--
-- Name: TABLE apps; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.apps TO herald_operator;
GRANT SELECT,UPDATE ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.slug; Type: ACL; Schema: public
--

GRANT INSERT(slug) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.name; Type: ACL; Schema: public
--

GRANT INSERT(name) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.platform; Type: ACL; Schema: public
--

GRANT INSERT(platform) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.bundle_id; Type: ACL; Schema: public
--

GRANT INSERT(bundle_id) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.default_locale; Type: ACL; Schema: public
--

GRANT INSERT(default_locale) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.locales; Type: ACL; Schema: public
--

GRANT INSERT(locales) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.base_url; Type: ACL; Schema: public
--

GRANT INSERT(base_url) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.created_at; Type: ACL; Schema: public
--

GRANT INSERT(created_at) ON TABLE public.apps TO herald_tenant;

--
-- Name: COLUMN apps.updated_at; Type: ACL; Schema: public
--

GRANT INSERT(updated_at) ON TABLE public.apps TO herald_tenant;

--
-- Name: SEQUENCE apps_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.apps_id_seq TO herald_operator;

--
-- Name: TABLE audit_log; Type: ACL; Schema: public
--

GRANT SELECT,INSERT ON TABLE public.audit_log TO herald_operator;
GRANT SELECT ON TABLE public.audit_log TO herald_tenant;

--
-- Name: SEQUENCE audit_log_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.audit_log_id_seq TO herald_operator;

--
-- Name: TABLE banner_contents; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.banner_contents TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.banner_contents TO herald_tenant;

--
-- Name: TABLE banner_views; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.banner_views TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.banner_views TO herald_tenant;

--
-- Name: TABLE campaign_approvals; Type: ACL; Schema: public
--

GRANT SELECT ON TABLE public.campaign_approvals TO herald_operator;
GRANT SELECT ON TABLE public.campaign_approvals TO herald_tenant;

--
-- Name: COLUMN campaign_approvals.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.campaign_approvals TO herald_operator;

--
-- Name: COLUMN campaign_approvals.campaign_id; Type: ACL; Schema: public
--

GRANT INSERT(campaign_id) ON TABLE public.campaign_approvals TO herald_operator;
GRANT INSERT(campaign_id) ON TABLE public.campaign_approvals TO herald_tenant;

--
-- Name: COLUMN campaign_approvals.version; Type: ACL; Schema: public
--

GRANT INSERT(version) ON TABLE public.campaign_approvals TO herald_operator;
GRANT INSERT(version) ON TABLE public.campaign_approvals TO herald_tenant;

--
-- Name: COLUMN campaign_approvals.snapshot; Type: ACL; Schema: public
--

GRANT INSERT(snapshot) ON TABLE public.campaign_approvals TO herald_operator;
GRANT INSERT(snapshot) ON TABLE public.campaign_approvals TO herald_tenant;

--
-- Name: SEQUENCE campaign_approvals_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.campaign_approvals_id_seq TO herald_operator;

--
-- Name: TABLE campaign_conditions; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.campaign_conditions TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.campaign_conditions TO herald_tenant;

--
-- Name: TABLE campaign_daily_rollup; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.campaign_daily_rollup TO herald_operator;
GRANT SELECT ON TABLE public.campaign_daily_rollup TO herald_tenant;

--
-- Name: TABLE campaign_device_days; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.campaign_device_days TO herald_operator;

--
-- Name: TABLE campaign_rollup; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.campaign_rollup TO herald_operator;
GRANT SELECT ON TABLE public.campaign_rollup TO herald_tenant;

--
-- Name: TABLE campaign_versions; Type: ACL; Schema: public
--

GRANT SELECT,INSERT ON TABLE public.campaign_versions TO herald_operator;
GRANT SELECT,INSERT ON TABLE public.campaign_versions TO herald_tenant;

--
-- Name: COLUMN campaign_versions.version; Type: ACL; Schema: public
--

GRANT UPDATE(version) ON TABLE public.campaign_versions TO herald_operator;
GRANT UPDATE(version) ON TABLE public.campaign_versions TO herald_tenant;

--
-- Name: TABLE campaigns; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.campaigns TO herald_operator;
GRANT SELECT,UPDATE ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.app_id; Type: ACL; Schema: public
--

GRANT INSERT(app_id) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.key; Type: ACL; Schema: public
--

GRANT INSERT(key) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.kind; Type: ACL; Schema: public
--

GRANT INSERT(kind) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.name; Type: ACL; Schema: public
--

GRANT INSERT(name) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.status; Type: ACL; Schema: public
--

GRANT INSERT(status) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.starts_at; Type: ACL; Schema: public
--

GRANT INSERT(starts_at) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.ends_at; Type: ACL; Schema: public
--

GRANT INSERT(ends_at) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.priority; Type: ACL; Schema: public
--

GRANT INSERT(priority) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.locales; Type: ACL; Schema: public
--

GRANT INSERT(locales) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.created_at; Type: ACL; Schema: public
--

GRANT INSERT(created_at) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.updated_at; Type: ACL; Schema: public
--

GRANT INSERT(updated_at) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.push_sound; Type: ACL; Schema: public
--

GRANT INSERT(push_sound) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: COLUMN campaigns.push_badge; Type: ACL; Schema: public
--

GRANT INSERT(push_badge) ON TABLE public.campaigns TO herald_tenant;

--
-- Name: SEQUENCE campaigns_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.campaigns_id_seq TO herald_operator;

--
-- Name: TABLE delivery_events; Type: ACL; Schema: public
--

GRANT SELECT,INSERT ON TABLE public.delivery_events TO herald_operator;
GRANT SELECT ON TABLE public.delivery_events TO herald_tenant;

--
-- Name: TABLE device_campaign_summary; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.device_campaign_summary TO herald_operator;
GRANT SELECT ON TABLE public.device_campaign_summary TO herald_tenant;

--
-- Name: TABLE event_ids; Type: ACL; Schema: public
--

GRANT SELECT,INSERT ON TABLE public.event_ids TO herald_operator;

--
-- Name: TABLE event_retention; Type: ACL; Schema: public
--

GRANT SELECT ON TABLE public.event_retention TO herald_operator;

--
-- Name: TABLE local_contents; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.local_contents TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.local_contents TO herald_tenant;

--
-- Name: TABLE local_notifications; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.local_notifications TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.local_notifications TO herald_tenant;

--
-- Name: COLUMN operator_grants.role_name; Type: ACL; Schema: public
--

GRANT SELECT(role_name) ON TABLE public.operator_grants TO herald_operator;

--
-- Name: COLUMN operator_grants.tenant_id; Type: ACL; Schema: public
--

GRANT SELECT(tenant_id) ON TABLE public.operator_grants TO herald_operator;

--
-- Name: COLUMN operator_grants.granted_at; Type: ACL; Schema: public
--

GRANT SELECT(granted_at) ON TABLE public.operator_grants TO herald_operator;

--
-- Name: TABLE publish_blobs; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE ON TABLE public.publish_blobs TO herald_operator;

--
-- Name: TABLE publish_runs; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.publish_runs TO herald_operator;
GRANT SELECT ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.started_at; Type: ACL; Schema: public
--

GRANT INSERT(started_at) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.finished_at; Type: ACL; Schema: public
--

GRANT INSERT(finished_at),UPDATE(finished_at) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.actor; Type: ACL; Schema: public
--

GRANT INSERT(actor) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.out_dir; Type: ACL; Schema: public
--

GRANT INSERT(out_dir) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.publish_at; Type: ACL; Schema: public
--

GRANT INSERT(publish_at) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.scope; Type: ACL; Schema: public
--

GRANT INSERT(scope) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.outcome; Type: ACL; Schema: public
--

GRANT INSERT(outcome),UPDATE(outcome) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.rollback_of; Type: ACL; Schema: public
--

GRANT INSERT(rollback_of) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.files_written; Type: ACL; Schema: public
--

GRANT INSERT(files_written),UPDATE(files_written) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.files_unchanged; Type: ACL; Schema: public
--

GRANT INSERT(files_unchanged),UPDATE(files_unchanged) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.files_removed; Type: ACL; Schema: public
--

GRANT INSERT(files_removed),UPDATE(files_removed) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.manifest_digest; Type: ACL; Schema: public
--

GRANT INSERT(manifest_digest),UPDATE(manifest_digest) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.message; Type: ACL; Schema: public
--

GRANT INSERT(message),UPDATE(message) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.source_snapshot; Type: ACL; Schema: public
--

GRANT INSERT(source_snapshot),UPDATE(source_snapshot) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.base_url; Type: ACL; Schema: public
--

GRANT INSERT(base_url) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.repeats; Type: ACL; Schema: public
--

GRANT INSERT(repeats),UPDATE(repeats) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.last_repeated_at; Type: ACL; Schema: public
--

GRANT INSERT(last_repeated_at),UPDATE(last_repeated_at) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.tenant_id; Type: ACL; Schema: public
--

GRANT INSERT(tenant_id) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: COLUMN publish_runs.source_cluster; Type: ACL; Schema: public
--

GRANT INSERT(source_cluster),UPDATE(source_cluster) ON TABLE public.publish_runs TO herald_tenant;

--
-- Name: SEQUENCE publish_runs_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.publish_runs_id_seq TO herald_operator;

--
-- Name: COLUMN reporting_grants.role_name; Type: ACL; Schema: public
--

GRANT SELECT(role_name) ON TABLE public.reporting_grants TO herald_operator;

--
-- Name: COLUMN reporting_grants.tenant_id; Type: ACL; Schema: public
--

GRANT SELECT(tenant_id) ON TABLE public.reporting_grants TO herald_operator;

--
-- Name: COLUMN reporting_grants.granted_at; Type: ACL; Schema: public
--

GRANT SELECT(granted_at) ON TABLE public.reporting_grants TO herald_operator;

--
-- Name: TABLE story_contents; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.story_contents TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.story_contents TO herald_tenant;

--
-- Name: TABLE story_pages; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.story_pages TO herald_operator;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.story_pages TO herald_tenant;

--
-- Name: TABLE tenant_locks; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.tenant_locks TO herald_operator;
GRANT SELECT,INSERT,UPDATE ON TABLE public.tenant_locks TO herald_tenant;

--
-- Name: TABLE tenant_publish_blobs; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,DELETE ON TABLE public.tenant_publish_blobs TO herald_operator;
GRANT SELECT,INSERT ON TABLE public.tenant_publish_blobs TO herald_tenant;

--
-- Name: TABLE tenants; Type: ACL; Schema: public
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.tenants TO herald_operator;
GRANT SELECT ON TABLE public.tenants TO herald_tenant;

--
-- Name: SEQUENCE tenants_id_seq; Type: ACL; Schema: public
--

GRANT SELECT,USAGE ON SEQUENCE public.tenants_id_seq TO herald_operator;

--
-- Name: TABLE app_summary; Type: ACL; Schema: reporting
--

GRANT SELECT ON TABLE reporting.app_summary TO herald_operator;
GRANT SELECT ON TABLE reporting.app_summary TO herald_tenant;

--
-- Name: TABLE campaign_daily; Type: ACL; Schema: reporting
--

GRANT SELECT ON TABLE reporting.campaign_daily TO herald_operator;
GRANT SELECT ON TABLE reporting.campaign_daily TO herald_tenant;

--
-- Name: TABLE campaign_summary; Type: ACL; Schema: reporting
--

GRANT SELECT ON TABLE reporting.campaign_summary TO herald_operator;
GRANT SELECT ON TABLE reporting.campaign_summary TO herald_tenant;

--
-- Name: TABLE device_history; Type: ACL; Schema: reporting
--

GRANT SELECT ON TABLE reporting.device_history TO herald_operator;
GRANT SELECT ON TABLE reporting.device_history TO herald_tenant;

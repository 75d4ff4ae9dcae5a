-- Pruning the run history collects tenants' own contents too.
--
-- `publish --prune-history` deleted old runs of every folder but the contents of publish_blobs
-- only: what tenants' own publishes stored (tenant_publish_blobs) stayed for ever, however
-- many of their runs went. Herald's operator may now delete those rows (row security still
-- applies), and herald_ensure_access(), which states every right, says so: the same function
-- as in 0016 but for that one right.

CREATE OR REPLACE FUNCTION herald_ensure_access() RETURNS SETOF text
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
    -- publish --prune-history (0014): old runs, and the contents no kept run needs (a
    -- tenant's own folder's too, 0022).
    GRANT DELETE ON publish_runs, publish_blobs, tenant_publish_blobs TO herald_operator;
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

SELECT herald_ensure_access();

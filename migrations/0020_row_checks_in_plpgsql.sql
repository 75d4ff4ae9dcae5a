-- The functions every row check calls, rewritten in PL/pgSQL with the same bodies.
--
-- A tenant table's policy bounds come from herald_first_visible_tenant() and
-- herald_last_visible_tenant(), evaluated once per statement. But the audit trigger inserts
-- into audit_log once per changed row, so inside it they ran once per row, with
-- herald_session_tenant(), herald_current_tenant() and herald_actor(): SQL functions that
-- cannot be inlined (they SET search_path), which PostgreSQL parses and plans again on every
-- call. Applying a 20,000-campaign file into an empty database spent some 20 s of the server's
-- time there. PL/pgSQL compiles a function once per session and keeps its statements'
-- plans, so a call costs microseconds. Owners, rights and what each returns are unchanged.

CREATE OR REPLACE FUNCTION herald_current_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN nullif(current_setting('herald.tenant_id', true), '')::bigint;
END
$$;

CREATE OR REPLACE FUNCTION herald_session_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    RETURN (SELECT g.tenant_id FROM public.operator_grants g WHERE g.role_name = session_user LIMIT 1);
END
$$;

CREATE OR REPLACE FUNCTION herald_first_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    session_tenant bigint := public.herald_session_tenant();
BEGIN
    RETURN CASE
               WHEN current_user NOT IN ('herald_operator', 'herald_tenant') THEN NULL
               WHEN session_tenant IS NOT NULL THEN session_tenant
               WHEN current_user = 'herald_operator' THEN '-9223372036854775808'::bigint
               ELSE public.herald_current_tenant()
           END;
END
$$;

CREATE OR REPLACE FUNCTION herald_last_visible_tenant() RETURNS bigint
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    session_tenant bigint := public.herald_session_tenant();
BEGIN
    RETURN CASE
               WHEN current_user NOT IN ('herald_operator', 'herald_tenant') THEN NULL
               WHEN session_tenant IS NOT NULL THEN session_tenant
               WHEN current_user = 'herald_operator' THEN '9223372036854775807'::bigint
               ELSE public.herald_current_tenant()
           END;
END
$$;

CREATE OR REPLACE FUNCTION herald_actor() RETURNS text
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    RETURN CASE WHEN public.herald_session_tenant() IS NOT NULL THEN session_user::text
                ELSE coalesce(nullif(current_setting('herald.actor', true), ''), session_user::text) END;
END
$$;

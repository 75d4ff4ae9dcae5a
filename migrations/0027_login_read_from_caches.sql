-- herald_login() as 0016 wrote it, answered with less work. Every herald command asks it who
-- its login is, first thing in a new session, where nothing is cached yet: there, reading the
-- pg_roles view (a join over pg_authid) and planning the join to tenants (whose row policy
-- calls functions) took about 2 ms of the 4 ms the call took (PostgreSQL 15). to_regrole()
-- answers "is there a herald_operator role" from the catalog cache, and a tenant's slug is
-- looked up only for a login that has a tenant (Herald's own login has none).

-- The slug of a tenant the caller may see, else NULL (as the join it replaces: with the
-- caller's rights and row policies). Its SET clause keeps it a function of its own, planned
-- only when it is called, not folded into the query that calls it.
CREATE FUNCTION herald_tenant_slug(tenant_id bigint) RETURNS text
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$ SELECT t.slug::text FROM public.tenants t WHERE t.id = tenant_id $$;

CREATE OR REPLACE FUNCTION herald_login() RETURNS TABLE (login text, kind text, tenant_id bigint, tenant text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = on
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

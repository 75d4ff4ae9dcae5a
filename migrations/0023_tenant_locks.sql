-- publish_locks becomes tenant_locks: since 0018 it holds two rows per tenant, told apart by
-- `purpose`, whose row locks are the tenant's turn at publishing and its turn at applying. The
-- rows, their policy and their rights stay as they are; only the names change.
--
-- herald_ensure_access() (0022) runs herald_ensure_access_0016(), whose body names the table.
-- That body is renamed in place, through its own definition, rather than written out again.

ALTER TABLE publish_locks RENAME TO tenant_locks;
ALTER TABLE tenant_locks RENAME CONSTRAINT publish_locks_pkey TO tenant_locks_pkey;
ALTER TABLE tenant_locks RENAME CONSTRAINT publish_locks_purpose TO tenant_locks_purpose;
ALTER TABLE tenant_locks RENAME CONSTRAINT publish_locks_tenant_id_fkey TO tenant_locks_tenant_id_fkey;
COMMENT ON TABLE tenant_locks IS
    'A row per tenant and purpose (publish, apply): locked FOR UPDATE by whoever takes that tenant''s turn';

DO $$
DECLARE
    definition text := pg_get_functiondef('herald_ensure_access_0016()'::regprocedure);
BEGIN
    -- 0016 names the table twice: in the list of tables whose rights it states, and in their grant.
    IF array_length(string_to_array(definition, 'publish_locks'), 1) - 1 <> 2 THEN
        RAISE EXCEPTION 'herald_ensure_access_0016() is not as 0016 wrote it: it does not name publish_locks twice';
    END IF;
    EXECUTE replace(definition, 'publish_locks', 'tenant_locks');
END
$$;

SELECT herald_ensure_access();

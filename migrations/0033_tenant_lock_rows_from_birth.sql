-- Every tenant has its publish and apply lock rows (0016, 0018) from the moment it exists,
-- whoever inserts it: a trigger adds them in the inserting transaction, and the tenants that
-- have none (made before 0016, or outside Herald) get them here. A publish then only locks
-- its tenants' rows: it used to insert them first, in a transaction of its own, and on the
-- new server process that holds the locks that insert cost more than the locking.
-- (pg_dump restores triggers after the data, so a restore never runs this one: the lock rows
-- are restored as the data they are.)

CREATE FUNCTION herald_add_tenant_lock_rows() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO public.tenant_locks (tenant_id, purpose)
    VALUES (NEW.id, 'publish'), (NEW.id, 'apply')
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION herald_add_tenant_lock_rows() FROM PUBLIC;

CREATE TRIGGER tenants_add_lock_rows AFTER INSERT ON tenants
    FOR EACH ROW EXECUTE FUNCTION herald_add_tenant_lock_rows();
-- Also for rows written with session_replication_role = replica (bulk loads skip ordinary
-- triggers that way).
ALTER TABLE tenants ENABLE ALWAYS TRIGGER tenants_add_lock_rows;

-- As Herald's operator role, which row security lets see every tenant.
SET LOCAL ROLE herald_operator;
INSERT INTO tenant_locks (tenant_id, purpose)
SELECT t.id, p.purpose FROM tenants t CROSS JOIN (VALUES ('publish'), ('apply')) AS p (purpose)
ON CONFLICT DO NOTHING;
RESET ROLE;

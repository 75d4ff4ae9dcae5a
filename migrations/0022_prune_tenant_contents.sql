-- Pruning the run history collects tenants' own contents too.
--
-- `publish --prune-history` deleted old runs of every folder but the contents of publish_blobs
-- only: what tenants' own publishes stored (tenant_publish_blobs) stayed for ever, however
-- many of their runs went. Herald's operator may now delete those rows too (row security still
-- applies). herald_ensure_access(), which states every right on every `herald migrate`, says
-- so: it is 0016's function, kept under another name, and then this one right.

ALTER FUNCTION herald_ensure_access() RENAME TO herald_ensure_access_0016;
REVOKE ALL ON FUNCTION herald_ensure_access_0016() FROM PUBLIC;

CREATE FUNCTION herald_ensure_access() RETURNS SETOF text
    LANGUAGE plpgsql SET search_path = public, pg_temp
    AS $$
BEGIN
    RETURN QUERY SELECT note FROM herald_ensure_access_0016() AS note;
    -- publish --prune-history: a tenant's own contents that no kept run of its needs.
    GRANT DELETE ON tenant_publish_blobs TO herald_operator;
END
$$;
REVOKE ALL ON FUNCTION herald_ensure_access() FROM PUBLIC;

SELECT herald_ensure_access();

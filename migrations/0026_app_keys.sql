-- App keys: what a device presents to `herald collect` (Authorization: Bearer <key>). A key
-- belongs to one app of one tenant, and fixes both for every event sent with it; it can
-- submit events for its app and do nothing else (the collector, Herald's own login, is the
-- only reader of the table that accepts keys).
--
-- Only a hash is kept: SHA-256 of the key's text. Keys are 256 random bits, so a fast hash
-- is enough (nothing to guess); the key itself is printed once, by `herald app key create`.
-- Keys are never deleted: a revoked key keeps its row (who made it, when it was revoked),
-- and its hash stays taken.
--
-- A tenant table like every other: the rows policy of 0015/0016 keeps herald_tenant, and so
-- a tenant operator's login, to its own tenant's keys; Herald's operator sees all of them.

CREATE TABLE app_keys (
    tenant_id   bigint NOT NULL DEFAULT herald_current_tenant() REFERENCES tenants (id),
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id      bigint NOT NULL,
    -- The operator's label for the key ("ios 3.2", "android"), for people only.
    name        text NOT NULL DEFAULT '' CHECK (length(name) <= 200 AND name !~ '[[:cntrl:]]'),
    -- SHA-256 of the key's UTF-8 text.
    key_hash    bytea NOT NULL CHECK (length(key_hash) = 32),
    -- The key's first characters, so that a person can tell keys apart in a listing.
    key_hint    text NOT NULL CHECK (key_hint ~ '^[A-Za-z0-9_-]{1,16}$'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text NOT NULL DEFAULT herald_actor(),
    revoked_at  timestamptz,
    revoked_by  text,
    CONSTRAINT app_keys_app_fkey FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id),
    CONSTRAINT app_keys_key_hash_key UNIQUE (key_hash),
    CONSTRAINT app_keys_revoked_by_with_revoked_at CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX app_keys_app_idx ON app_keys (tenant_id, app_id, id);

ALTER TABLE app_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE app_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY herald_rows ON app_keys
    USING (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()))
    WITH CHECK (tenant_id BETWEEN (SELECT herald_first_visible_tenant()) AND (SELECT herald_last_visible_tenant()));

-- A key never moves, never changes its hash, and once revoked stays revoked; who made it and
-- who revoked it are the logins' own (a tenant operator's login, as in the audit log).
CREATE FUNCTION herald_app_keys_guard() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
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
CREATE TRIGGER app_keys_guard BEFORE INSERT OR UPDATE ON app_keys
    FOR EACH ROW EXECUTE FUNCTION herald_app_keys_guard();

-- herald_ensure_access() states every right on every `herald migrate` (0016, 0022): this
-- migration's are added to it, as 0022 added its own.
ALTER FUNCTION herald_ensure_access() RENAME TO herald_ensure_access_0022;
REVOKE ALL ON FUNCTION herald_ensure_access_0022() FROM PUBLIC;

CREATE FUNCTION herald_ensure_access() RETURNS SETOF text
    LANGUAGE plpgsql SET search_path = public, pg_temp
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
REVOKE ALL ON FUNCTION herald_ensure_access() FROM PUBLIC;

SELECT herald_ensure_access();

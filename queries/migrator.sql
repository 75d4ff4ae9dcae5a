-- The migrator's ledger (Migrator): the files of migrations/ a database has applied, with
-- their checksums. The ledger is made here, before the first migration runs.

-- name: create-migration-ledger
CREATE TABLE IF NOT EXISTS herald_migrations (
    name        text PRIMARY KEY,
    checksum    text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
);

-- name: applied-migrations
-- Reading the status never creates anything: on a fresh database, where the ledger is not
-- there yet (undefined_table), everything is pending.
SELECT name, checksum, applied_at FROM herald_migrations ORDER BY name;

-- name: record-migration
INSERT INTO herald_migrations (name, checksum) VALUES (:name, :checksum);

-- name: ensure-access-exists
-- herald_ensure_access() is there from 0015 on.
SELECT to_regprocedure('public.herald_ensure_access()') IS NOT NULL AS known;

-- name: ensure-access
-- What it repaired, in words; nothing when all was in place.
SELECT note FROM herald_ensure_access() AS note;

-- Which Herald a database is (issue #23). Its installation id is made once, here, and
-- travels with the data: pg_dump and pg_restore keep the row, so a restored database is the
-- same Herald, while an empty database — one a cron job without its environment made on its
-- own — is another. A published folder's manifest records the installation that writes it,
-- and a publish from any other is refused instead of wiping the site.

CREATE TABLE herald_installation (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- One row, ever.
    one_row boolean NOT NULL DEFAULT true UNIQUE CHECK (one_row),
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO herald_installation DEFAULT VALUES;

COMMENT ON TABLE herald_installation IS
    'This database''s Herald installation id: made at its first migrate, kept by a dump and restore, recorded in every folder it publishes.';

-- Read with its owner's rights: every login that publishes (Herald's operator, a tenant's
-- operator) learns the id; none can change it.
CREATE FUNCTION herald_installation_id() RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$ SELECT id FROM public.herald_installation $$;

-- The PostgreSQL cluster this database runs on. A snapshot of transaction ids means
-- something on the cluster that took it only: a restore onto another server is another
-- cluster, and publish compares in full once instead of trusting the old snapshot.
CREATE FUNCTION herald_cluster_id() RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog
AS $$ SELECT system_identifier::text FROM pg_control_system() $$;

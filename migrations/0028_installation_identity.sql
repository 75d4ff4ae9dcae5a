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

-- The cluster each whole-folder run's snapshot was taken on: the next run compares changes
-- since it only on the same cluster (NULL for runs recorded before: compared in full once).
ALTER TABLE publish_runs ADD COLUMN source_cluster text;

-- A tenant operator's publish records it too. herald_ensure_access() states every right on
-- every `herald migrate` (after a restore without grants, say): its 0016 body lists the
-- columns of publish_runs a tenant's session may update, and gains this one, renamed in
-- place through its own definition rather than written out again.
DO $$
DECLARE
    definition text := pg_get_functiondef('herald_ensure_access_0016()'::regprocedure);
    columns text := 'source_snapshot, repeats, last_repeated_at';
BEGIN
    IF array_length(string_to_array(definition, columns), 1) - 1 <> 1 THEN
        RAISE EXCEPTION 'herald_ensure_access_0016() is not as 0016 wrote it: it does not list publish_runs'' updatable columns once';
    END IF;
    EXECUTE replace(definition, columns, 'source_snapshot, source_cluster, repeats, last_repeated_at');
END
$$;

SELECT herald_ensure_access();

-- Applies take turns per tenant: two `herald apply` runs for one tenant used to read the
-- same state, plan against it and both commit, each archiving only what its own file left
-- out, so the app ended with both files' campaigns active.
--
-- The turn is a row lock, like the publish lock (0016), not an advisory lock: advisory locks
-- are Herald's operator's alone, and a row lock follows the rows policy, so a tenant operator
-- can lock its own tenant's row and no other. publish_locks gets a second row per tenant,
-- told apart by `purpose`, so that an apply never waits for a publish (or a publish for an
-- apply); herald_ensure_access() already grants what both need on this table.

ALTER TABLE publish_locks ADD COLUMN purpose text NOT NULL DEFAULT 'publish'
    CONSTRAINT publish_locks_purpose CHECK (purpose IN ('publish', 'apply'));
ALTER TABLE publish_locks DROP CONSTRAINT publish_locks_pkey;
ALTER TABLE publish_locks ADD CONSTRAINT publish_locks_pkey PRIMARY KEY (tenant_id, purpose);

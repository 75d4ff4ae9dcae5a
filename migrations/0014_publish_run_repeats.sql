-- A publish that changes nothing (a cron tick with no edits) no longer adds a row: it is
-- counted on the run whose files are still in place. The history grows with changes, not time.
ALTER TABLE publish_runs
    ADD COLUMN repeats integer NOT NULL DEFAULT 0 CHECK (repeats >= 0),
    ADD COLUMN last_repeated_at timestamptz;

-- `herald publish --prune-history` deletes old runs, and the contents no kept run refers to.
-- A rollback that pointed at a pruned run keeps its files; only the pointer goes.
ALTER TABLE publish_runs
    DROP CONSTRAINT publish_runs_rollback_of_fkey,
    ADD CONSTRAINT publish_runs_rollback_of_fkey
        FOREIGN KEY (rollback_of) REFERENCES publish_runs (id) ON DELETE SET NULL;
GRANT DELETE ON publish_runs, publish_blobs TO herald_operator;

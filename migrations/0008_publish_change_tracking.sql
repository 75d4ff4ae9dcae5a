-- What changed since the last publish, exactly. Every audit row records the transaction that
-- wrote it; every publish records the snapshot it read. The changes a run has not seen are the
-- audit rows whose transaction is not visible in the previous run's snapshot — correct even
-- when transactions commit out of id order, which "audit ids above the last one" would not be.

ALTER TABLE audit_log ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX audit_log_txid_idx ON audit_log (txid);

ALTER TABLE publish_runs
    ADD COLUMN source_snapshot pg_snapshot,   -- what the run read; NULL for rollbacks and scoped runs
    ADD COLUMN base_url text;

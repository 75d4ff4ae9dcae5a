-- Publishing history. Every run is recorded; the files a run left behind are kept as a
-- manifest (path -> SHA-256) stored, like every published file, once per distinct content
-- in publish_blobs, so `herald publish --rollback RUN` can put a site back exactly.
-- Cross-tenant operator data: only herald_operator reads or writes it.

CREATE TABLE publish_blobs (
    digest   text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
    content  bytea NOT NULL
);

CREATE TABLE publish_runs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at      timestamptz,
    actor            text NOT NULL,
    out_dir          text NOT NULL,
    publish_at       timestamptz NOT NULL,
    scope            text NOT NULL DEFAULT '',
    outcome          text NOT NULL CHECK (outcome IN ('running', 'succeeded', 'failed', 'rolled back')),
    rollback_of      bigint REFERENCES publish_runs (id),
    files_written    integer NOT NULL DEFAULT 0,
    files_unchanged  integer NOT NULL DEFAULT 0,
    files_removed    integer NOT NULL DEFAULT 0,
    manifest_digest  text REFERENCES publish_blobs (digest),
    message          text
);
CREATE INDEX publish_runs_started_idx ON publish_runs (started_at);

GRANT SELECT, INSERT ON publish_blobs TO herald_operator;
GRANT SELECT, INSERT, UPDATE ON publish_runs TO herald_operator;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO herald_operator;

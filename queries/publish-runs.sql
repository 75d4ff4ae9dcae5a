-- The publish history and the contents it keeps for rollbacks (PublishRunRepository), operator
-- work. A folder is an output root and whose runs write it: Herald's own (no tenant), or one
-- tenant's own folder in that root (a tenant operator's runs, which record the root too).
-- Runs come back as `*` with their snapshot as text (source_snapshot_text).

-- name: start-publish-run
-- :tenant_id: the tenant whose own folder a tenant operator's run writes; NULL for Herald's own runs.
INSERT INTO publish_runs (actor, out_dir, publish_at, scope, outcome, rollback_of, base_url, tenant_id)
VALUES (:actor, :out_dir, :publish_at, :scope, :outcome, :rollback_of, :base_url, :tenant_id)
RETURNING id;

-- name: finish-publish-run
UPDATE publish_runs
SET finished_at = clock_timestamp(), outcome = :outcome, files_written = :files_written,
    files_unchanged = :files_unchanged, files_removed = :files_removed, manifest_digest = :manifest_digest,
    message = :message, source_snapshot = :source_snapshot::pg_snapshot, source_cluster = :source_cluster
WHERE id = :id;

-- name: count-publish-repeat
-- A publish that found nothing to change, counted on the run whose files are still in place;
-- what it read becomes that run's snapshot, so the next run asks what changed since then.
UPDATE publish_runs
SET repeats = repeats + 1, last_repeated_at = clock_timestamp(),
    source_snapshot = coalesce(:source_snapshot::pg_snapshot, source_snapshot),
    source_cluster = coalesce(:source_cluster, source_cluster)
WHERE id = :id;

-- name: latest-publish-run
-- The newest run into a folder, whatever its outcome.
SELECT *, source_snapshot::text AS source_snapshot_text FROM publish_runs
WHERE out_dir = :out_dir AND tenant_id IS NOT DISTINCT FROM :tenant_id
ORDER BY id DESC LIMIT 1;

-- name: publish-run
SELECT *, source_snapshot::text AS source_snapshot_text FROM publish_runs WHERE id = :id;

-- name: publish-history
-- The newest :limit runs, oldest first.
SELECT *, source_snapshot::text AS source_snapshot_text
FROM (SELECT * FROM publish_runs ORDER BY id DESC LIMIT :limit) r
ORDER BY id;

-- name: changing-runs
-- The newest :limit finished runs that changed files or did not succeed, newest first: runs
-- that found nothing to do (every cron tick) are left out.
SELECT id FROM publish_runs
WHERE outcome <> 'running' AND (files_written > 0 OR files_removed > 0 OR outcome NOT IN ('succeeded', 'rolled back'))
ORDER BY id DESC LIMIT :limit;

-- name: previous-run-with-manifest
-- The same writer's: Herald's runs (tenant_id NULL) list the site's paths, a tenant operator's
-- runs its own folder's, so a run is compared with the previous one of the same kind.
SELECT id FROM publish_runs
WHERE out_dir = :out_dir AND id < :run_id AND manifest_digest IS NOT NULL AND tenant_id IS NOT DISTINCT FROM :tenant_id::bigint
ORDER BY id DESC LIMIT 1;

-- name: keeps-manifest
-- Whether a run the history keeps left the manifest :digest, in Herald's folders or (with
-- :tenant_id) in that tenant's own.
SELECT EXISTS (
    SELECT FROM publish_runs WHERE manifest_digest = :digest AND tenant_id IS NOT DISTINCT FROM :tenant_id
) AS kept;

-- name: stored-blob-digests
SELECT digest FROM publish_blobs WHERE digest = ANY(:digests::text[]);

-- name: copy-publish-blobs
-- Binary COPY: megabytes of content go in as a stream of raw bytes, not as SQL literals.
COPY publish_blobs (digest, content) FROM STDIN WITH (FORMAT binary);

-- name: store-tenant-publish-blobs
-- A tenant's contents go in by INSERT (COPY cannot write a row-secured table), a few
-- megabytes per statement, in hex; a digest the tenant has already is left alone.
INSERT INTO tenant_publish_blobs (tenant_id, digest, content)
SELECT :tenant_id, u.digest, decode(u.content, 'hex') FROM unnest(:digests::text[], :contents::text[]) AS u(digest, content)
ON CONFLICT (tenant_id, digest) DO NOTHING;

-- name: publish-blobs
SELECT digest, content FROM publish_blobs WHERE digest = ANY(:digests::text[]);

-- name: tenant-publish-blobs
SELECT digest, content FROM tenant_publish_blobs WHERE tenant_id = :tenant_id AND digest = ANY(:digests::text[]);

-- name: prune-publish-runs
-- Deletes the runs not kept: never a running one, nor the newest finished run of each folder
-- (the next publish starts from it); of the others, those beyond the newest :keep_newest and
-- those started before :before (each NULL: no limit of that kind).
WITH ranked AS (
    SELECT id, started_at, outcome,
           row_number() OVER (ORDER BY id DESC) AS newest_first,
           id = max(id) FILTER (WHERE outcome <> 'running') OVER (PARTITION BY out_dir, tenant_id) AS folder_base
    FROM publish_runs
)
DELETE FROM publish_runs
WHERE id IN (
    SELECT id FROM ranked
    WHERE outcome <> 'running' AND NOT folder_base
      AND (:keep_newest::bigint IS NULL OR newest_first > :keep_newest)
      AND (:before::timestamptz IS NULL OR started_at < :before)
)
RETURNING id;

-- name: kept-manifests
-- The manifests of the runs left, and whose contents each one's are (tenant_id NULL: Herald's).
SELECT manifest_digest, tenant_id FROM publish_runs WHERE manifest_digest IS NOT NULL;

-- name: prune-publish-blobs
-- Herald's contents that no kept run needs (:needed: every digest they need).
DELETE FROM publish_blobs WHERE NOT (digest = ANY(:needed::text[])) RETURNING digest;

-- name: prune-tenant-publish-blobs
DELETE FROM tenant_publish_blobs WHERE tenant_id = :tenant_id AND NOT (digest = ANY(:needed::text[])) RETURNING digest;

-- name: tenant-ids
SELECT id FROM tenants ORDER BY id;

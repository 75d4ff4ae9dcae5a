-- Reading for a publish and holding its locks (Sources/HeraldStore/Publishing).

-- name: snapshot-tenants
-- Every tenant, or only the one with slug :tenant, in TenantRepository's columns.
SELECT id, slug, name, created_at FROM tenants WHERE :tenant::text IS NULL OR slug = :tenant ORDER BY slug;

-- name: snapshot-apps
-- The apps of the tenants read (:tenant_ids), optionally one app (:app) or only some apps by
-- id (:app_ids), in AppRepository's columns; and whether each has a local campaign, whatever its
-- status (its locales then get local-notifications files, empty when none is live).
SELECT tenant_id, id, slug, name, platform::text AS platform, bundle_id, default_locale,
       locales::text[] AS locales, base_url, created_at, updated_at,
       EXISTS (SELECT FROM campaigns c WHERE c.tenant_id = apps.tenant_id AND c.app_id = apps.id AND c.kind = 'local')
           AS has_local_campaigns
FROM apps
WHERE tenant_id = ANY(:tenant_ids::bigint[]) AND (:app::text IS NULL OR slug = :app)
  AND (:app_ids::bigint[] IS NULL OR id = ANY(:app_ids::bigint[]))
ORDER BY tenant_id, slug;

-- name: current-snapshot
-- What the current transaction sees, and on which cluster, recorded with a run: the next one
-- asks what changed since (on the same cluster only: a restored database is on another).
SELECT pg_current_snapshot()::text AS s, herald_cluster_id() AS cluster;

-- name: apps-edited-since
-- Apps whose rows, or whose campaigns' rows, were changed by a transaction the snapshot
-- :snapshot (pg_snapshot text) did not see. The changed rows' campaign ids are worked out
-- first (MATERIALIZED): the lookup of each campaign is then by a plain value, which row
-- security lets an index seek on (campaigns_id_with_app_idx, 0034); a JSON expression there
-- could only be a filter over every campaign of the tenant.
WITH changed AS MATERIALIZED (
    SELECT a.entity, coalesce(a.after, a.before) AS changed_row,
           (coalesce(a.after, a.before) ->> 'campaign_id')::bigint AS campaign_id
    FROM audit_log a
    WHERE a.txid >= pg_snapshot_xmin(:snapshot::pg_snapshot) AND NOT pg_visible_in_snapshot(a.txid, :snapshot::pg_snapshot)
      AND a.entity <> 'tenants'
)
SELECT DISTINCT coalesce(
           CASE WHEN entity = 'apps' THEN (changed_row ->> 'id')::bigint END,
           (changed_row ->> 'app_id')::bigint,
           (SELECT c.app_id FROM campaigns c WHERE c.id = changed.campaign_id)
       ) AS app_id
FROM changed;

-- name: apps-with-campaigns-starting-or-ending
-- Apps with an active campaign that starts or ends between the two publish times :previous_at and :at.
SELECT DISTINCT app_id FROM campaigns
WHERE status = 'active'
  AND (starts_at > least(:previous_at::timestamptz, :at::timestamptz)
       AND starts_at <= greatest(:previous_at::timestamptz, :at::timestamptz)
    OR ends_at > least(:previous_at::timestamptz, :at::timestamptz)
       AND ends_at <= greatest(:previous_at::timestamptz, :at::timestamptz));

-- name: try-folder-lock
-- A transaction-scoped advisory lock named after a folder being written (the review board's),
-- or false at once when another transaction holds it. Through Herald's function (0031), which
-- a tenant's login may call: the advisory-lock functions themselves are the operator's.
SELECT herald_try_folder_lock(:folder) AS locked;

-- name: lock-publish-tenants
-- The publish locks of the tenants with slugs :tenants (NULL: every tenant this login sees),
-- held until the transaction ends: waiting for each one someone else holds …
SELECT t.slug FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id
WHERE l.purpose = 'publish' AND (:tenants::text[] IS NULL OR t.slug = ANY(:tenants::text[]))
FOR UPDATE OF l;

-- name: lock-publish-tenants-or-fail
-- … failing at once (lock_not_available) when someone else holds one …
SELECT t.slug FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id
WHERE l.purpose = 'publish' AND (:tenants::text[] IS NULL OR t.slug = ANY(:tenants::text[]))
FOR UPDATE OF l NOWAIT;

-- name: lock-free-publish-tenants
-- … or leaving out those someone else holds: the slugs returned are the tenants held.
SELECT t.slug FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id
WHERE l.purpose = 'publish' AND (:tenants::text[] IS NULL OR t.slug = ANY(:tenants::text[]))
FOR UPDATE OF l SKIP LOCKED;

-- name: publish-channel
-- The channel `herald publish --watch` listens on for the tenant with id :tenant_id (NULL: the
-- whole site); NULL when this login may not watch it (0029: the names are secret).
SELECT herald_publish_channel(:tenant_id::bigint) AS channel;

-- name: next-schedule-boundary
-- The first moment after :at at which an active campaign (of the tenant with id :tenant_id, or
-- of any) starts or ends: when the published site changes with no edit.
SELECT least(
    (SELECT min(starts_at) FROM campaigns
     WHERE status = 'active' AND starts_at > :at::timestamptz AND (:tenant_id::bigint IS NULL OR tenant_id = :tenant_id::bigint)),
    (SELECT min(ends_at) FROM campaigns
     WHERE status = 'active' AND ends_at > :at::timestamptz AND (:tenant_id::bigint IS NULL OR tenant_id = :tenant_id::bigint))
) AS next;

-- Reading for a publish (Sources/HeraldStore/Publishing).

-- name: snapshot-apps
-- The apps of the tenants read ($1), optionally one app ($2) or only some apps by id ($3),
-- in AppRepository's columns.
SELECT tenant_id, id, slug, name, platform::text AS platform, bundle_id, default_locale,
       locales::text[] AS locales, base_url, created_at, updated_at
FROM apps
WHERE tenant_id = ANY($1::bigint[]) AND ($2::text IS NULL OR slug = $2)
  AND ($3::bigint[] IS NULL OR id = ANY($3::bigint[]))
ORDER BY tenant_id, slug;

-- name: apps-edited-since
-- Apps whose rows, or whose campaigns' rows, were changed by a transaction the snapshot $1
-- (pg_snapshot text) did not see.
SELECT DISTINCT coalesce(
           CASE WHEN a.entity = 'apps' THEN (coalesce(a.after, a.before) ->> 'id')::bigint END,
           (coalesce(a.after, a.before) ->> 'app_id')::bigint,
           (SELECT c.app_id FROM campaigns c WHERE c.id = (coalesce(a.after, a.before) ->> 'campaign_id')::bigint)
       ) AS app_id
FROM audit_log a
WHERE a.txid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(a.txid, $1::pg_snapshot)
  AND a.entity <> 'tenants';

-- name: apps-with-campaigns-starting-or-ending
-- Apps with an active campaign that starts or ends between the two publish times $1 and $2.
SELECT DISTINCT app_id FROM campaigns
WHERE status = 'active'
  AND (starts_at > least($1::timestamptz, $2::timestamptz) AND starts_at <= greatest($1::timestamptz, $2::timestamptz)
    OR ends_at > least($1::timestamptz, $2::timestamptz) AND ends_at <= greatest($1::timestamptz, $2::timestamptz));

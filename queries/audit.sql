-- The trigger-written audit log of the session's tenant (AuditRepository), newest last.

-- name: audit-entries
-- The newest :limit rows, from :since on (NULL: from the first).
SELECT at, actor, action, entity, entity_id, before::text AS before, after::text AS after
FROM (SELECT * FROM audit_log WHERE :since::timestamptz IS NULL OR at >= :since
      ORDER BY id DESC LIMIT :limit) newest
ORDER BY id;

-- name: audit-changes
-- `herald audit`: the newest :limit rows from :since on, by :actor, of the rows of campaigns
-- with key :campaign (the campaign, its conditions, message keys and content) in app :app, or
-- of the rows of app :app; each filter NULL for all. The transaction id pairs a delete with
-- the insert of the same row (AuditRepository.changes makes them one update).
WITH picked_campaigns AS (
    SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id
    WHERE (:campaign::text IS NULL OR c.key = :campaign) AND (:app::text IS NULL OR a.slug = :app)
),
picked_apps AS (SELECT a.id FROM apps a WHERE a.slug = :app),
entries AS (
    SELECT l.*, coalesce(l.after, l.before) AS image FROM audit_log l
    WHERE (:since::timestamptz IS NULL OR l.at >= :since) AND (:actor::text IS NULL OR l.actor = :actor)
)
SELECT e.id, e.at, e.actor, e.action, e.entity, e.entity_id, e.before::text AS before, e.after::text AS after,
       e.txid::text AS txid
FROM entries e
WHERE (:app::text IS NULL AND :campaign::text IS NULL)
   OR (CASE WHEN e.entity = 'campaigns' THEN e.image ->> 'id' ELSE e.image ->> 'campaign_id' END)::bigint
          IN (SELECT id FROM picked_campaigns)
   OR (:campaign::text IS NULL
       AND (CASE WHEN e.entity = 'apps' THEN e.image ->> 'id' ELSE e.image ->> 'app_id' END)::bigint
           IN (SELECT id FROM picked_apps))
ORDER BY e.id DESC
LIMIT :limit;

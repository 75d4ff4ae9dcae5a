-- The trigger-written audit log of the session's tenant (AuditRepository), newest last.

-- name: audit-entries
-- The newest :limit rows, from :since on (NULL: from the first).
SELECT at, actor, action, entity, entity_id, before::text AS before, after::text AS after
FROM (SELECT * FROM audit_log WHERE :since::timestamptz IS NULL OR at >= :since
      ORDER BY id DESC LIMIT :limit) newest
ORDER BY id;

-- name: audit-changes
-- `herald audit`: the rows from :since on, by :actor, of the rows of campaigns with key
-- :campaign (the campaign, its conditions, message keys and content) in app :app, or of the
-- rows of app :app (each filter NULL for all), of every transaction among the newest :limit
-- such rows: whole transactions, so that a delete is never cut from the insert of the same
-- row it pairs with (AuditRepository.changes makes the two one update).
WITH picked_campaigns AS (
    SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id
    WHERE (:campaign::text IS NULL OR c.key = :campaign) AND (:app::text IS NULL OR a.slug = :app)
),
picked_apps AS (SELECT a.id FROM apps a WHERE a.slug = :app),
entries AS (
    SELECT l.*, coalesce(l.after, l.before) AS image FROM audit_log l
    WHERE (:since::timestamptz IS NULL OR l.at >= :since) AND (:actor::text IS NULL OR l.actor = :actor)
),
matched AS (
    SELECT e.* FROM entries e
    WHERE (:app::text IS NULL AND :campaign::text IS NULL)
       OR (CASE WHEN e.entity = 'campaigns' THEN e.image ->> 'id' ELSE e.image ->> 'campaign_id' END)::bigint
              IN (SELECT id FROM picked_campaigns)
       OR (:campaign::text IS NULL
           AND (CASE WHEN e.entity = 'apps' THEN e.image ->> 'id' ELSE e.image ->> 'app_id' END)::bigint
               IN (SELECT id FROM picked_apps))
),
newest_transactions AS (
    SELECT DISTINCT txid FROM (SELECT txid FROM matched ORDER BY id DESC LIMIT :limit) newest
)
SELECT m.id, m.at, m.actor, m.action, m.entity, m.entity_id, m.before::text AS before, m.after::text AS after,
       m.txid::text AS txid
FROM matched m
WHERE m.txid IN (SELECT txid FROM newest_transactions)
ORDER BY m.id DESC;

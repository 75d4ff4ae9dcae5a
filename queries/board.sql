-- The review board's reads (BoardData), each inside one tenant's session.

-- name: board-daily
-- One tenant's delivery per campaign and day over the chart window, summed over locales: read
-- from the daily rollups by the index that leads with the tenant and the day, never a filter
-- over every tenant's rows (the reporting view compares names, after reading them all).
SELECT a.slug::text AS app, c.key::text AS campaign, r.day::text AS day,
       sum(r.delivered)::bigint AS delivered, sum(r.impressions)::bigint AS impressions,
       sum(r.clicks)::bigint AS clicks, sum(r.dismissals)::bigint AS dismissals
FROM campaign_daily_rollup r
JOIN campaigns c ON c.tenant_id = r.tenant_id AND c.id = r.campaign_id
JOIN apps a ON a.tenant_id = r.tenant_id AND a.id = r.app_id
WHERE r.tenant_id = :tenant_id AND r.day BETWEEN :since::date AND :until::date
  AND (:app::text IS NULL OR a.slug = :app::text)
GROUP BY a.slug, c.key, r.day
ORDER BY 1, 2, 3;

-- name: board-daily-fingerprint
-- What board-daily would read, in a few numbers per campaign, for the board to tell before
-- reading every row whether anything it charts changed: per campaign, how many rollup rows it
-- has in the window, the sum of each count, and the sum of the rows' xmin (the transaction
-- that wrote each). Ingest only ever adds to a row's counts (add-to-rollups), so a new event
-- in the window raises a sum; any other write to a row gives it a newer xmin; a row added or
-- gone changes the count. Grouped by ids first (integers, 1,000 groups, no spill to disk),
-- then named: a campaign made again under the same key is another id, so its rows change.
SELECT a.slug::text AS app, c.key::text AS campaign, f.rows, f.delivered, f.impressions, f.clicks, f.dismissals, f.writes
FROM (SELECT r.app_id, r.campaign_id, count(*)::bigint AS rows,
             sum(r.delivered)::bigint AS delivered, sum(r.impressions)::bigint AS impressions,
             sum(r.clicks)::bigint AS clicks, sum(r.dismissals)::bigint AS dismissals,
             sum(r.xmin::text::bigint)::bigint AS writes
      FROM campaign_daily_rollup r
      WHERE r.tenant_id = :tenant_id AND r.day BETWEEN :since::date AND :until::date
      GROUP BY r.app_id, r.campaign_id) f
JOIN campaigns c ON c.tenant_id = :tenant_id AND c.id = f.campaign_id
JOIN apps a ON a.tenant_id = :tenant_id AND a.id = f.app_id
WHERE (:app::text IS NULL OR a.slug = :app::text)
ORDER BY 1, 2;

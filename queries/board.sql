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

-- The review board's reads (BoardData), each inside one tenant's session.

-- name: board-daily
-- One tenant's delivery per campaign and day over the chart window, summed over locales: read
-- from the daily rollups by the index that leads with the tenant and the day, never a filter
-- over every tenant's rows (the reporting view compares names, after reading them all).
-- Summed by ids first, then named: grouping and sorting by names would compare text collated
-- for tens of thousands of rows; in the order of the ids, so that the same rollups read the same.
SELECT a.slug::text AS app, c.key::text AS campaign, d.day::text AS day,
       d.delivered, d.impressions, d.clicks, d.dismissals
FROM (SELECT r.app_id, r.campaign_id, r.day,
             sum(r.delivered)::bigint AS delivered, sum(r.impressions)::bigint AS impressions,
             sum(r.clicks)::bigint AS clicks, sum(r.dismissals)::bigint AS dismissals
      FROM campaign_daily_rollup r
      WHERE r.tenant_id = :tenant_id AND r.day BETWEEN :since::date AND :until::date
      GROUP BY r.app_id, r.campaign_id, r.day) d
JOIN campaigns c ON c.tenant_id = :tenant_id AND c.id = d.campaign_id
JOIN apps a ON a.tenant_id = :tenant_id AND a.id = d.app_id
WHERE :app::text IS NULL OR a.slug = :app::text
ORDER BY d.app_id, d.campaign_id, d.day;

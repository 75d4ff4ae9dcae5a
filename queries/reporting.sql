-- herald report (Reports) and analysts' roles (ReportingAccess). The reports read the
-- `reporting` views (the same an analyst reads), never raw tables for totals. Each report
-- takes $1…$5 as tenant, app, campaign (each NULL for all), first day, last day (included).

-- name: report-scope
-- Set before each report, for its transaction: JIT off (a large history's estimated cost
-- would make PostgreSQL compile the query, at more cost than the query itself), and the
-- tenant the views read ('' for every tenant): then only its rows are read, by the indexes
-- that lead with it (0032), rather than every tenant's rows checked against its name.
SELECT set_config('jit', 'off', true), set_config('herald.reporting_tenant', :tenant, true);

-- name: report-campaigns
-- Per campaign over the window (daily rollups), with the campaign's all-time unique devices.
SELECT d.tenant, d.app, d.campaign, s.kind,
       coalesce(sum(d.events) FILTER (WHERE d.event = 'delivered'), 0) AS delivered,
       coalesce(sum(d.events) FILTER (WHERE d.event = 'impression'), 0) AS impressions,
       coalesce(sum(d.events) FILTER (WHERE d.event = 'click'), 0) AS clicks,
       coalesce(sum(d.events) FILTER (WHERE d.event = 'dismiss'), 0) AS dismissals,
       CASE WHEN sum(d.events) FILTER (WHERE d.event = 'impression') > 0
            THEN round(coalesce(sum(d.events) FILTER (WHERE d.event = 'click'), 0)::numeric
                       / sum(d.events) FILTER (WHERE d.event = 'impression'), 4) END AS click_through_rate,
       s.unique_devices AS unique_devices_all_time
FROM reporting.campaign_daily d
JOIN reporting.campaign_summary s USING (tenant, app, campaign)
WHERE d.day BETWEEN $4::date AND $5::date
  AND ($1::text IS NULL OR d.tenant = $1) AND ($2::text IS NULL OR d.app = $2) AND ($3::text IS NULL OR d.campaign = $3)
GROUP BY d.tenant, d.app, d.campaign, s.kind, s.unique_devices
ORDER BY d.tenant, d.app, d.campaign;

-- name: report-daily
-- Per campaign, day, locale and event kind.
SELECT tenant, app, campaign, day::text AS day, locale, event, events, unique_devices
FROM reporting.campaign_daily
WHERE day BETWEEN $4::date AND $5::date
  AND ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR app = $2) AND ($3::text IS NULL OR campaign = $3)
ORDER BY tenant, app, campaign, day, locale, event;

-- name: report-device
-- One device's ($6) events in order (raw history: the months not pruned).
SELECT tenant, app, device, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at,
       campaign, kind, event, locale, app_version, os_version
FROM reporting.device_history
WHERE at >= $4::date AND at < $5::date + 1
  AND ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR app = $2) AND ($3::text IS NULL OR campaign = $3)
  AND device = $6
ORDER BY reporting.device_history.at, event_id;

-- name: reporting-roles
-- The roles reading the reports of the tenant with slug $1, by name.
SELECT g.role_name::text AS role
FROM reporting_grants g JOIN tenants t ON t.id = g.tenant_id
WHERE t.slug = $1
ORDER BY 1;

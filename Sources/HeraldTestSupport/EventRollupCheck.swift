import PostgresClient

/// Rows where a rollup disagrees with the same numbers computed by GROUP BY over the raw
/// history (0 when they agree), and the count of raw events.
public func rollupDisagreements(_ connection: Connection) throws -> (differences: Int, raw: Int) {
    let differences: Int = try connection.query(
        """
        WITH raw_campaign AS (
            SELECT tenant_id, app_id, campaign_id,
                   count(*) FILTER (WHERE kind = 'delivered') AS delivered, count(*) FILTER (WHERE kind = 'impression') AS impressions,
                   count(*) FILTER (WHERE kind = 'click') AS clicks, count(*) FILTER (WHERE kind = 'dismiss') AS dismissals,
                   count(DISTINCT device) AS unique_devices, min(at) AS first_at, max(at) AS last_at
            FROM delivery_events GROUP BY 1, 2, 3
        ), rolled_campaign AS (
            SELECT tenant_id, app_id, campaign_id, delivered, impressions, clicks, dismissals, unique_devices, first_at, last_at
            FROM campaign_rollup
        ), raw_daily AS (
            SELECT tenant_id, app_id, campaign_id, (at AT TIME ZONE 'UTC')::date AS day, locale::text, kind,
                   count(*) AS events, count(DISTINCT device) AS unique_devices
            FROM delivery_events GROUP BY 1, 2, 3, 4, 5, 6
        ), rolled_daily AS (
            -- A column pair per kind, unfolded to a row per kind that happened.
            SELECT d.tenant_id, d.app_id, d.campaign_id, d.day, d.locale::text, k.kind, k.events, k.unique_devices
            FROM campaign_daily_rollup d
            CROSS JOIN LATERAL (VALUES ('delivered'::event_kind, d.delivered, d.delivered_devices),
                                       ('impression', d.impressions, d.impression_devices),
                                       ('click', d.clicks, d.click_devices),
                                       ('dismiss', d.dismissals, d.dismiss_devices)) AS k (kind, events, unique_devices)
            WHERE k.events > 0
        ), raw_device AS (
            SELECT tenant_id, app_id, campaign_id, device, min(at) AS first_at, max(at) AS last_at,
                   count(*) FILTER (WHERE kind = 'delivered') AS delivered, count(*) FILTER (WHERE kind = 'impression') AS impressions,
                   count(*) FILTER (WHERE kind = 'click') AS clicks, count(*) FILTER (WHERE kind = 'dismiss') AS dismissals
            FROM delivery_events GROUP BY 1, 2, 3, 4
        ), rolled_device AS (
            SELECT tenant_id, app_id, campaign_id, device, first_at, last_at, delivered, impressions, clicks, dismissals
            FROM device_campaign_summary
        )
        SELECT (SELECT count(*) FROM ((SELECT * FROM raw_campaign EXCEPT SELECT * FROM rolled_campaign)
                                      UNION ALL (SELECT * FROM rolled_campaign EXCEPT SELECT * FROM raw_campaign)) c)
             + (SELECT count(*) FROM ((SELECT * FROM raw_daily EXCEPT SELECT * FROM rolled_daily)
                                      UNION ALL (SELECT * FROM rolled_daily EXCEPT SELECT * FROM raw_daily)) d)
             + (SELECT count(*) FROM ((SELECT * FROM raw_device EXCEPT SELECT * FROM rolled_device)
                                      UNION ALL (SELECT * FROM rolled_device EXCEPT SELECT * FROM raw_device)) v) AS n
        """)[0].decode("n")
    let raw: Int = try connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n")
    return (differences, raw)
}

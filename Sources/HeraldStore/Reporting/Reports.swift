import Foundation
import HeraldCore
import PostgresClient

/// A report: named columns and rows of text (NULL as nil), in order. Which columns hold
/// numbers is said, so JSON can carry them as numbers.
public struct ReportTable: Equatable, Sendable {
    public let columns: [String]
    public let numericColumns: Set<String>
    public let rows: [[String?]]
}

/// What a report covers: every filter optional; days are UTC, `until` inclusive.
public struct ReportFilter: Sendable {
    public var tenant: Slug?
    public var app: Slug?
    public var campaign: Slug?
    public var device: String?
    public var since: String
    public var until: String

    public init(tenant: Slug? = nil, app: Slug? = nil, campaign: Slug? = nil, device: String? = nil, since: String, until: String) {
        self.tenant = tenant
        self.app = app
        self.campaign = campaign
        self.device = device
        self.since = since
        self.until = until
    }
}

/// `herald report`: queries over the `reporting` views (the same an analyst reads), never
/// over raw tables for totals.
public struct Reports {
    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// Per campaign over the window (daily rollups), with the campaign's all-time unique devices.
    public func campaigns(_ filter: ReportFilter) throws -> ReportTable {
        try table(
            """
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
            ORDER BY d.tenant, d.app, d.campaign
            """, filter,
            numeric: ["delivered", "impressions", "clicks", "dismissals", "click_through_rate", "unique_devices_all_time"])
    }

    /// Per campaign, day, locale and event kind.
    public func daily(_ filter: ReportFilter) throws -> ReportTable {
        try table(
            """
            SELECT tenant, app, campaign, day::text AS day, locale, event, events, unique_devices
            FROM reporting.campaign_daily
            WHERE day BETWEEN $4::date AND $5::date
              AND ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR app = $2) AND ($3::text IS NULL OR campaign = $3)
            ORDER BY tenant, app, campaign, day, locale, event
            """, filter, numeric: ["events", "unique_devices"])
    }

    /// One device's events in order (raw history: the months not pruned).
    public func device(_ filter: ReportFilter) throws -> ReportTable {
        try table(
            """
            SELECT tenant, app, device, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at,
                   campaign, kind, event, locale, app_version, os_version
            FROM reporting.device_history
            WHERE at >= $4::date AND at < $5::date + 1
              AND ($1::text IS NULL OR tenant = $1) AND ($2::text IS NULL OR app = $2) AND ($3::text IS NULL OR campaign = $3)
              AND device = $6
            ORDER BY reporting.device_history.at, event_id
            """, filter, extra: [filter.device], numeric: [])
    }

    /// `sql` takes $1…$5 as tenant, app, campaign, since, until, then `extra`.
    private func table(
        _ sql: SQL, _ filter: ReportFilter, extra: [any PostgresEncodable] = [], numeric: Set<String>
    ) throws -> ReportTable {
        let parameters: [any PostgresEncodable] =
            [filter.tenant?.rawValue, filter.app?.rawValue, filter.campaign?.rawValue, filter.since, filter.until] + extra
        let result = try connection.query(sql, parameters)
        let columns = result.columns
        let rows = try result.map { row in try columns.map { try row.decode($0, as: String?.self) } }
        return ReportTable(columns: columns, numericColumns: numeric, rows: rows)
    }
}

extension OperatorSession {
    public var reports: Reports { Reports(self) }
}

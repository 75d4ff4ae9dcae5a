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
            .reportCampaigns, filter,
            numeric: ["delivered", "impressions", "clicks", "dismissals", "click_through_rate", "unique_devices_all_time"])
    }

    /// Per campaign, day, locale and event kind.
    public func daily(_ filter: ReportFilter) throws -> ReportTable {
        try table(.reportDaily, filter, numeric: ["events", "unique_devices"])
    }

    /// One device's events in order (raw history: the months not pruned).
    public func device(_ filter: ReportFilter) throws -> ReportTable {
        try table(.reportDevice, filter, extra: [filter.device], numeric: [])
    }

    /// `query` takes $1…$5 as tenant, app, campaign, since, until, then `extra` (queries/reporting.sql).
    private func table(
        _ query: Query, _ filter: ReportFilter, extra: [any PostgresEncodable] = [], numeric: Set<String>
    ) throws -> ReportTable {
        let parameters: [any PostgresEncodable] =
            [filter.tenant?.rawValue, filter.app?.rawValue, filter.campaign?.rawValue, filter.since, filter.until] + extra
        try connection.execute(ReportScope(tenant: filter.tenant?.rawValue ?? ""))
        let result = try connection.query(query.sql, parameters)
        let columns = result.columns
        let rows = try result.map { row in try columns.map { try row.decode($0, as: String?.self) } }
        return ReportTable(columns: columns, numericColumns: numeric, rows: rows)
    }
}

extension OperatorSession {
    public var reports: Reports { Reports(self) }
}

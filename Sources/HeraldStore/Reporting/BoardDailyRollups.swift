import Foundation
import HeraldCore
import PostgresClient

/// A tenant's (or one app's) days from `since` to `until`: the window of `board-daily` and of
/// its fingerprint, `board-daily-fingerprint`.
struct BoardDailyWindow: QueryParameters {
    let tenantID: Int64
    let app: String?
    let since: String
    let until: String
}

/// One campaign's rollups over a window in a few numbers (board-daily-fingerprint): equal
/// numbers, equal counts day by day.
public struct CampaignDaysFingerprint: Sendable, Equatable {
    public let app: String
    public let campaign: String
    /// Rollup rows (a day and locale each).
    public let rows: Int64
    public let delivered: Int64
    public let impressions: Int64
    public let clicks: Int64
    public let dismissals: Int64
    /// The sum of the rows' xmin: any write to a row changes it.
    public let writes: Int64

    /// One line of text, for a digest.
    public var line: String { "\(app) \(campaign) \(rows) \(delivered) \(impressions) \(clicks) \(dismissals) \(writes)" }
}

/// One campaign's delivery on one day, summed over locales (the board's charts).
public struct CampaignDay: Sendable, Equatable {
    public let app: String
    public let campaign: String
    /// `YYYY-MM-DD` (UTC).
    public let day: String
    public let delivered: Int
    public let impressions: Int
    public let clicks: Int
    public let dismissals: Int
}

extension TenantSession {
    /// The tenant's delivery per campaign and day from `since` to `until` (UTC days, both
    /// included), of one app or all: its own rollups only, read by (tenant, day).
    public func campaignDays(app: Slug?, since: String, until: String) throws -> [CampaignDay] {
        try connection.query(.boardDaily, BoardDailyWindow(tenantID: tenant.id, app: app?.rawValue, since: since, until: until)).map { row in
            CampaignDay(
                app: try row.decode("app"), campaign: try row.decode("campaign"), day: try row.decode("day"),
                delivered: Int(try row.decode("delivered", as: Int64.self)), impressions: Int(try row.decode("impressions", as: Int64.self)),
                clicks: Int(try row.decode("clicks", as: Int64.self)), dismissals: Int(try row.decode("dismissals", as: Int64.self)))
        }
    }

    /// What `campaignDays` would read, per campaign in a few numbers, read without reading
    /// every row out: the board's "nothing changed" test.
    public func campaignDaysFingerprint(app: Slug?, since: String, until: String) throws -> [CampaignDaysFingerprint] {
        try connection.query(.boardDailyFingerprint, BoardDailyWindow(tenantID: tenant.id, app: app?.rawValue, since: since, until: until)).map { row in
            CampaignDaysFingerprint(
                app: try row.decode("app"), campaign: try row.decode("campaign"), rows: try row.decode("rows"),
                delivered: try row.decode("delivered"), impressions: try row.decode("impressions"), clicks: try row.decode("clicks"),
                dismissals: try row.decode("dismissals"), writes: try row.decode("writes"))
        }
    }
}

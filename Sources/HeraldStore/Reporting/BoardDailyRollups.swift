import Foundation
import HeraldCore
import PostgresClient

struct BoardDaily: Statement {
    static let query = Query.boardDaily
    let tenantID: Int64
    let app: String?
    let since: String
    let until: String
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
        try connection.query(BoardDaily(tenantID: tenant.id, app: app?.rawValue, since: since, until: until)).map { row in
            CampaignDay(
                app: try row.decode("app"), campaign: try row.decode("campaign"), day: try row.decode("day"),
                delivered: Int(try row.decode("delivered", as: Int64.self)), impressions: Int(try row.decode("impressions", as: Int64.self)),
                clicks: Int(try row.decode("clicks", as: Int64.self)), dismissals: Int(try row.decode("dismissals", as: Int64.self)))
        }
    }
}

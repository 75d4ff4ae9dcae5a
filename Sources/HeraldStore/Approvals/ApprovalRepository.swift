import Foundation
import HeraldCore
import PostgresClient

/// A campaign's content version and its newest approval (0031).
public struct CampaignApprovalState: Sendable, Equatable {
    public let app: Slug
    public let key: Slug
    public let campaignID: Int64
    /// One more for each transaction that changed what devices get (not a status change).
    public let version: Int64
    /// The login that made that change (PostgreSQL's session_user); nil before 0031.
    public let editedBy: String?
    public let editedAt: Date
    public let approvedVersion: Int64?
    public let approvedBy: String?
    public let approvedAt: Date?
    /// The campaign as the approving herald showed it (campaigns-file text).
    public let approvedSnapshot: String?

    /// Whether the current version is the approved one.
    public var isApproved: Bool { approvedVersion == version }
}

/// Four-eyes approval inside one tenant: who changed a campaign last and who approved which
/// version. PostgreSQL decides who asks and refuses the last editor's own approval.
public struct ApprovalRepository {
    let connection: Connection

    /// The current version of `key` in `app`.
    public func state(app: Slug, key: Slug) throws -> CampaignApprovalState {
        let rows = try connection.query(CampaignVersionQuery(app: app.rawValue, key: key.rawValue))
        guard let row = rows.first else {
            throw StoreError.notFound(what: "campaign", name: "\(app)/\(key)", listCommand: "herald campaign list --app \(app)")
        }
        return try Self.decode(row, app: app, key: key)
    }

    /// Records the approval of `version` (the one the reviewer saw) by this login.
    public func approve(campaignID: Int64, version: Int64, snapshot: String?) throws -> (approvedBy: String, approvedAt: Date) {
        let row = try connection.query(ApproveCampaign(campaignID: campaignID, version: version, snapshot: snapshot))[0]
        return (try row.decode("approved_by"), try row.decode("approved_at"))
    }

    /// Every campaign of the tenant with its version and newest approval, by app and key.
    public func all() throws -> [CampaignApprovalState] {
        try connection.query(.tenantApprovals).map { row in
            try Self.decode(row, app: try Slug(try row.decode("app", as: String.self)), key: try Slug(try row.decode("key", as: String.self)))
        }
    }

    /// Whether the tenant requires four eyes.
    public func required(tenantID: Int64) throws -> Bool {
        try connection.query(TenantRequiresApproval(tenantID: tenantID)).first?.decode("require_approval") ?? false
    }

    static func decode(_ row: Row, app: Slug, key: Slug) throws -> CampaignApprovalState {
        CampaignApprovalState(
            app: app, key: key, campaignID: (try? row.decode("campaign_id")) ?? 0, version: try row.decode("version"),
            editedBy: try row.decode("edited_by"), editedAt: try row.decode("edited_at"), approvedVersion: try row.decode("approved_version"),
            approvedBy: try row.decode("approved_by"), approvedAt: try row.decode("approved_at"),
            approvedSnapshot: try row.decode("approved_snapshot"))
    }
}

extension TenantSession {
    public var approvals: ApprovalRepository { ApprovalRepository(connection: connection) }
}

extension TenantRepository {
    /// Turns four-eyes approval on or off for a tenant (Herald's operator only: a tenant's
    /// own login may not update its tenant row).
    public func setRequireApproval(_ slug: Slug, _ required: Bool) throws {
        guard try !connection.query(RequireApproval(slug: slug.rawValue, required: required)).isEmpty else {
            throw StoreError.notFound(what: "tenant", name: slug.rawValue, listCommand: "herald tenant list")
        }
    }
}

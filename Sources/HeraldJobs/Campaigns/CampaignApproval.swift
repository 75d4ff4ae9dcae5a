import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

/// Four-eyes approval (`herald campaign approve`, `herald tenant update --require-approval`).
/// PostgreSQL enforces it (0031): it knows the login (session_user) that made a campaign's
/// last change, refuses that login's approval, and at commit refuses a campaign going or
/// staying live with an unapproved change in a tenant that requires approval. This type asks
/// and says what happened; no path through it skips the database's check.
public struct CampaignApproval {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// What an approval recorded.
    public struct Approved: Sendable {
        public let app: Slug
        public let key: Slug
        public let version: Int64
        public let approvedBy: String
        /// The login whose change was approved (nil: made before approvals were recorded).
        public let editedBy: String?
        /// True when this version was approved already (nothing recorded again).
        public let already: Bool
    }

    /// Approves the current version of `key` in `app` as this login, with the campaign's text
    /// as it is now (what the board diffs later changes against).
    public func approve(tenant named: Slug?, app: Slug, key: Slug) throws -> Approved {
        let tenant = try database.tenant(named)
        return try database.inTenant(tenant) { session in
            let state = try session.approvals.state(app: app, key: key)
            if state.isApproved, let by = state.approvedBy {
                return Approved(app: app, key: key, version: state.version, approvedBy: by, editedBy: state.editedBy, already: true)
            }
            let campaign = try session.campaigns.find(key, in: try session.apps.find(app))
            let recorded = try session.approvals.approve(
                campaignID: state.campaignID, version: state.version, snapshot: CampaignsDocument.yaml(of: campaign.spec))
            return Approved(app: app, key: key, version: state.version, approvedBy: recorded.approvedBy, editedBy: state.editedBy, already: false)
        }
    }

    /// The campaign's version, who changed it last and its newest approval.
    public func state(tenant named: Slug?, app: Slug, key: Slug) throws -> CampaignApprovalState {
        let tenant = try database.tenant(named)
        return try database.inTenant(tenant, readOnly: true) { try $0.approvals.state(app: app, key: key) }
    }

    /// Turns four-eyes approval on or off for `tenant`: Herald's own login only (a tenant's
    /// team cannot waive its own review; PostgreSQL refuses its login the update anyway).
    public func require(_ required: Bool, tenant: Slug) throws {
        try database.requireOwner(to: "changing whether a tenant requires approval")
        try database.asOperator { try $0.tenants.setRequireApproval(tenant, required) }
    }
}

/// A campaign awaiting approval, as the board lists it.
extension CampaignApprovalState {
    /// The change since the approved version, as a unified diff of the campaigns-file text
    /// (empty when nothing was approved before, or the text is the same).
    public func diff(current campaign: CampaignSpec) -> String {
        guard let approvedSnapshot else { return "" }
        return UnifiedDiff.render(
            path: "\(app)/\(key) (version \(approvedVersion.map(String.init) ?? "?") → \(version))", old: approvedSnapshot,
            new: CampaignsDocument.yaml(of: campaign))
    }
}

// queries/approvals.sql

struct CampaignVersionQuery: Statement {
    static let query = Query.campaignVersion
    let app: String
    let key: String
}

struct ApproveCampaign: Statement {
    static let query = Query.approveCampaign
    let campaignID: Int64
    let version: Int64
    let snapshot: String?
}

struct RequireApproval: Statement {
    static let query = Query.requireApproval
    let slug: String
    let required: Bool
}

struct TenantRequiresApproval: Statement {
    static let query = Query.tenantRequiresApproval
    let tenantID: Int64
}

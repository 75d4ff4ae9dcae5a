// queries/access.sql (`session-login` and `herald-login` take no parameters).

struct GrantOperator: Statement {
    static let query = Query.grantOperator
    let role: String
    let tenantID: Int64
    /// The SCRAM verifier, never the password.
    let password: String?
}

struct RevokeOperator: Statement {
    static let query = Query.revokeOperator
    let role: String
    let tenantID: Int64
}

struct TenantOperators: Statement {
    static let query = Query.tenantOperators
    let tenantID: Int64
}

// queries/session.sql.

struct EnterRole: Statement {
    static let query = Query.enterRole
    let tenantID: String
    let role: String
}

// queries/session.sql (`clear-tenant` takes no parameters).

struct SetActor: Statement {
    static let query = Query.setActor
    let actor: String
}

struct SetTenant: Statement {
    static let query = Query.setTenant
    let tenantID: Int64
}

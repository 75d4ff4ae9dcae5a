// queries/tenants.sql (`list-tenants` takes no parameters).

struct InsertTenant: Statement {
    static let query = Query.insertTenant
    let slug: String
    let name: String
}

struct FindTenant: Statement {
    static let query = Query.findTenant
    let slug: String
}

struct RenameTenant: Statement {
    static let query = Query.renameTenant
    let slug: String
    let name: String
}

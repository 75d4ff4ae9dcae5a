// queries/local-database.sql (`create-local-database` takes no parameters).

struct LocalDatabaseExists: Statement {
    static let query = Query.localDatabaseExists
    let name: String
}

import HeraldStore

/// The schema's state and its migration (`herald migrate`).
public struct SchemaJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// What is applied and what is pending.
    public func status() throws -> MigrationStatus {
        try database.migrationStatus()
    }

    /// Applies every pending migration (`applying` told of each before it runs), then makes
    /// Herald's roles, rights, owners and tenants' logins what the schema needs (what a
    /// restore on a new server lacks). Returns the migrations applied and what was repaired.
    public func migrate(applying: (Migration) -> Void = { _ in }) throws -> (applied: [String], repaired: [String]) {
        let applied = try database.migrate(progress: applying)
        return (applied, try database.ensureAccess())
    }
}

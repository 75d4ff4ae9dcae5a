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
        return (applied, Self.summarised(try database.ensureAccess()))
    }

    /// The repairs in a few lines: the functions handed back to herald_operator (after a
    /// restore, every one of them) are counted, not listed one signature a line.
    static func summarised(_ notes: [String]) -> [String] {
        let suffix = " now runs as herald_operator"
        let functions = notes.filter { $0.hasSuffix(suffix) }
        guard functions.count > 1 else { return notes }
        return notes.filter { !$0.hasSuffix(suffix) } + ["\(functions.count) of Herald's functions run as herald_operator again"]
    }
}

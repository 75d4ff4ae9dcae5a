import PostgresClient

extension OperatorSession {
    /// This database's Herald installation id (made at its first migrate; a dump and restore keep it).
    public func installationID() throws -> String {
        try connection.query("SELECT herald_installation_id()::text AS id")[0].decode("id")
    }
}

import PostgresClient

extension OperatorSession {
    /// This database's Herald installation id (made at its first migrate; a dump and restore keep it).
    public func installationID() throws -> String {
        try connection.query("SELECT herald_installation_id()::text AS id")[0].decode("id")
    }

    /// The PostgreSQL cluster this database runs on (`pg_control_system()`'s system identifier):
    /// a snapshot taken on another cluster, before a restore, tells nothing about this one.
    public func clusterID() throws -> String {
        try connection.query("SELECT herald_cluster_id() AS id")[0].decode("id")
    }
}

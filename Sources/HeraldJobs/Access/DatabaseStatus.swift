import HeraldStore

/// Which database Herald uses and its state (`herald db status`): read without starting or
/// creating anything.
public struct DatabaseStatus: Encodable, Sendable {
    /// `local` (Herald's own PostgreSQL) or `configured` (HERALD_DATABASE_URL or PG*).
    public let mode: String
    public let connection: String
    /// The local cluster's folder, and whether it was created yet.
    public var directory: String?
    public var initialized: Bool?
    public var running: Bool
    public var pid: Int32?
    /// When the server answers.
    public var appliedMigrations: Int?
    public var pendingMigrations: Int?

    public static func read(configured: DatabaseLocation?, environment: [String: String], actor: String) throws -> DatabaseStatus {
        var status: DatabaseStatus
        let location: DatabaseLocation
        if let configured {
            location = configured
            status = DatabaseStatus(mode: "configured", connection: configured.redactedDescription, running: configured.isAcceptingConnections)
        } else {
            let local = try EmbeddedDatabase(environment: environment)
            location = local.location
            status = DatabaseStatus(
                mode: "local", connection: local.location.conninfo, directory: local.clusterDirectory.path,
                initialized: local.isInitialized, running: local.isRunning, pid: local.isRunning ? local.daemonProcessIdentifier : nil)
        }
        if status.running, let migrations = try? HeraldDatabase(location: location, actor: actor).migrationStatus() {
            status.appliedMigrations = migrations.applied.count
            status.pendingMigrations = migrations.pending.count
        }
        return status
    }
}

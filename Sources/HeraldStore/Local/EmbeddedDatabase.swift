import Foundation
import PostgresClient

/// Herald's own PostgreSQL, for when no server is configured: a private cluster under
/// Herald's data directory (`HERALD_HOME`, default `~/.local/share/herald`; as root
/// `/var/lib/herald`, which the `postgres` user can reach), created on first use, started on
/// demand as a daemon, listening only on a unix socket inside its folder, migrated
/// automatically.
public struct EmbeddedDatabase {
    public static let databaseName = "herald"
    /// Written into the cluster's postgresql.conf above the local-only settings (clusters
    /// made by earlier versions carry this very line: changing it would add the settings twice).
    static let localOnlyMarker = "# Herald: local only"
    public let home: URL
    let server: LocalPostgresServer

    public var clusterDirectory: URL { home.appendingPathComponent("postgres") }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let explicit = environment[DatabaseEnvironment.homeVariable], !explicit.isEmpty {
            home = URL(fileURLWithPath: explicit).standardizedFileURL
        } else if geteuid() == 0 {
            home = URL(fileURLWithPath: "/var/lib/herald")
        } else {
            let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
            home = URL(fileURLWithPath: base).appendingPathComponent("herald")
        }
        let directory = home.appendingPathComponent("postgres")
        // A unix socket path has room for about 107 bytes.
        guard (directory.path + "/.s.PGSQL.5432").utf8.count <= 100 else {
            throw StoreError.invalid(["HERALD_HOME \(home.path) is too long for PostgreSQL's socket path; pick a shorter folder"])
        }
        do {
            server = LocalPostgresServer(
                directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(environment),
                localOnlyMarker: Self.localOnlyMarker)
        } catch let error as PostgresError {
            throw StoreError.unavailable(error.message)
        }
    }

    /// How to reach it (psql accepts the conninfo as is).
    var configuration: ConnectionConfiguration { server.configuration(database: Self.databaseName) }

    /// Where it is, for the executable (`herald db url` prints its conninfo).
    public var location: DatabaseLocation { DatabaseLocation(configuration) }

    public var isInitialized: Bool {
        FileManager.default.fileExists(atPath: server.dataDirectory.appendingPathComponent("PG_VERSION").path)
    }

    public var isRunning: Bool { server.isAccepting }

    /// The running server's process id (from postmaster.pid), if any.
    public var daemonProcessIdentifier: Int32? { server.daemonProcessIdentifier }

    /// Creates, starts, and migrates what is not yet; returns what it did, for people.
    @discardableResult
    public func prepare() throws -> [String] {
        var notes: [String] = []
        do {
            if !isInitialized {
                try server.initializeIfNeeded()
                notes.append("created a local PostgreSQL in \(clusterDirectory.path)")
            }
            if !server.isAccepting {
                try server.startDetached()
                notes.append("started the local PostgreSQL (unix socket in \(clusterDirectory.path), no TCP port)")
            }
            let admin = try Connection(configuration: server.configuration(database: "postgres"))
            let exists = try !admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [Self.databaseName]).isEmpty
            if !exists {
                try admin.execute("CREATE DATABASE herald")
                notes.append("created database \(Self.databaseName)")
            }
            let applied = try Migrator().migrate(try Connection(configuration: configuration))
            if !applied.isEmpty { notes.append("applied \(applied.count) migration(s) to the local database") }
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
        return notes
    }

    /// Stops the daemon; false when it was not running.
    public func stop() throws -> Bool {
        guard server.isAccepting else { return false }
        do {
            return try server.stopDetached()
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }
}

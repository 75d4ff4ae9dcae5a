import Foundation
import PostgresClient

/// Herald's own PostgreSQL, for when no server is configured: a private cluster under
/// Herald's data directory (`HERALD_HOME`, default `~/.local/share/herald`; as root
/// `/var/lib/herald`, which the `postgres` user can reach), created on first use, started on
/// demand as a daemon, listening only on a unix socket inside its folder, migrated
/// automatically. Only the OS user who made it gets in as its superuser (peer authentication;
/// its folder, with the socket, is private); any other role needs its password.
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
                try requireReachableHome()
                try server.initializeIfNeeded()
                notes.append("created a local PostgreSQL in \(clusterDirectory.path)")
            }
            // Clusters made before Herald restricted them trusted every local user: fixed here too.
            try server.restrictToOwner(osUser: Self.osUser)
            if !server.isAccepting {
                try requireReachableHome()
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

    /// The OS user running herald, who alone gets in as the cluster's superuser.
    static var osUser: String {
        getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
    }

    /// As root the server runs as the `postgres` user: a HERALD_HOME it cannot enter (a 0700
    /// temporary folder, root's home) is said in words, before initdb fails on it.
    func requireReachableHome() throws {
        guard let blocked = server.folderTheServerCannotEnter else { return }
        throw EmbeddedDatabaseError.homeUnreachable(
            "the local PostgreSQL runs as the postgres user when herald runs as root, and postgres cannot enter "
                + "\(blocked.path) (mode \(blocked.mode), owner \(blocked.owner)) on the way to \(clusterDirectory.path): "
                + "set HERALD_HOME to a folder it can reach (the default for root is /var/lib/herald), "
                + "or let it through with `chmod o+x \(blocked.path)`")
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

/// Why Herald's local PostgreSQL cannot be made where it was asked for.
public enum EmbeddedDatabaseError: Error, CustomStringConvertible, Equatable {
    /// The server's OS user cannot reach HERALD_HOME's cluster folder. sysexits 73.
    case homeUnreachable(String)

    public var description: String {
        switch self {
        case .homeUnreachable(let message): message
        }
    }
}

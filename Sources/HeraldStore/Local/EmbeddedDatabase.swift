import Foundation
import PostgresClient
import PostgresServer

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
    /// Written into the cluster's postgresql.conf above the libraries it preloads.
    static let preloadMarker = "# Herald: preloaded for every session"
    public let home: URL
    private let environment: [String: String]

    public var clusterDirectory: URL { home.appendingPathComponent("postgres") }

    /// Where the server binaries were found last time: a command on a running database never
    /// looks for them (no `pg_config` per command), and starting it again looks only once.
    var rememberedBinaries: URL { home.appendingPathComponent("postgres-bindir") }

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
        self.environment = environment
        // A unix socket path has room for about 107 bytes.
        guard (clusterDirectory.path + "/.s.PGSQL.5432").utf8.count <= 100 else {
            throw StoreError.invalid(["HERALD_HOME \(home.path) is too long for PostgreSQL's socket path; pick a shorter folder"])
        }
    }

    /// The server, with its binaries: the remembered folder while it still holds them (and
    /// HERALD_PG_BINDIR names none), else found anew and remembered.
    func server() throws -> LocalPostgresServer {
        let binaries: PostgresServerBinaries
        let explicit = environment[DatabaseEnvironment.serverBinariesVariable].map { !$0.isEmpty } ?? false
        if !explicit, let remembered = try? String(contentsOf: rememberedBinaries, encoding: .utf8),
            case let candidate = PostgresServerBinaries(directory: URL(fileURLWithPath: remembered)),
            FileManager.default.isExecutableFile(atPath: candidate.initdb.path),
            FileManager.default.isExecutableFile(atPath: candidate.postgres.path)
        {
            binaries = candidate
        } else {
            do {
                binaries = try DatabaseEnvironment.locateServerBinaries(environment)
            } catch let error as PostgresError {
                throw StoreError.unavailable(error.message)
            }
            if !explicit, FileManager.default.fileExists(atPath: home.path) {
                try? Data(binaries.directory.path.utf8).write(to: rememberedBinaries, options: .atomic)
            }
        }
        return LocalPostgresServer(directory: clusterDirectory, binaries: binaries, localOnlyMarker: Self.localOnlyMarker)
    }

    /// How to reach it (psql accepts the conninfo as is): the socket in its folder.
    var configuration: ConnectionConfiguration { configuration(database: Self.databaseName) }

    private func configuration(database: String) -> ConnectionConfiguration {
        ConnectionConfiguration(keywords: ["host": clusterDirectory.path, "dbname": database, "user": Self.login.name])
    }

    /// Who connects to it: the cluster's superuser, the only login its pg_hba.conf lets in.
    static let login = HeraldLogin(name: "postgres", kind: .owner, tenant: nil, tenantID: nil)

    /// Where it is, for the executable (`herald db url` prints its conninfo).
    public var location: DatabaseLocation { DatabaseLocation(configuration) }

    public var isInitialized: Bool {
        FileManager.default.fileExists(atPath: clusterDirectory.appendingPathComponent("data/PG_VERSION").path)
    }

    public var isRunning: Bool { Connection.ping(configuration(database: "postgres")) == .ok }

    /// The running server's process id (from postmaster.pid), if any.
    public var daemonProcessIdentifier: Int32? {
        guard let text = try? String(contentsOf: clusterDirectory.appendingPathComponent("data/postmaster.pid"), encoding: .utf8),
            let first = text.split(separator: "\n").first
        else { return nil }
        return Int32(first.trimmingCharacters(in: .whitespaces))
    }

    /// Whether the cluster lets in its owner only (clusters made before Herald restricted them
    /// trusted every local user: `prepare` fixes them, so the quick path is not taken for one).
    var isRestrictedToOwner: Bool {
        let hba = clusterDirectory.appendingPathComponent("data/pg_hba.conf")
        return (try? String(contentsOf: hba, encoding: .utf8))?.contains(LocalPostgresServer.ownerOnlyMarker) ?? false
    }

    /// Where the local database is, if it looks ready to connect to (made and restricted to
    /// its owner): for a connection opened before `open` has checked it.
    public var readyLocation: DatabaseLocation? {
        isInitialized && isRestrictedToOwner ? location : nil
    }

    /// A session on the local database for a command, in one connection when it is ready (made,
    /// running, migrated: every command after the first), else made ready first. Returns what
    /// it did, for people.
    public func open(actor: String) throws -> (database: HeraldDatabase, notes: [String]) {
        if isInitialized, isRestrictedToOwner, let database = try? HeraldDatabase(location: location, actor: actor) {
            let status = try database.migrationStatus()
            if let refusal = Migrator.refusal(status) { throw refusal }
            // The cluster lets in its superuser alone (pg_hba), who is Herald's owner: known
            // without asking the database (a new server process's first call of herald_login()).
            database.knowLogin(Self.login)
            if status.pending.isEmpty { return (database, []) }
            let applied = try database.migrate()
            return (database, ["applied \(applied.count) migration(s) to the local database"])
        }
        let notes = try prepare()
        return (try HeraldDatabase(location: location, actor: actor), notes)
    }

    /// Creates, starts, and migrates what is not yet; returns what it did, for people.
    @discardableResult
    public func prepare() throws -> [String] {
        var notes: [String] = []
        let server = try server()
        do {
            if !isInitialized {
                try requireReachableHome(server)
                try server.initializeIfNeeded()
                notes.append("created a local PostgreSQL in \(clusterDirectory.path)")
            }
            // Clusters made before Herald restricted them trusted every local user: fixed here too.
            try server.restrictToOwner(osUser: Self.osUser)
            if !server.isAccepting {
                try requireReachableHome(server)
                // Every Herald session runs PL/pgSQL (row security's bounds, the triggers): loaded
                // once by the server, not by each new connection (about 0.7 ms of its first
                // statement). Only that: a postgresql.conf it cannot write starts as it is.
                _ = try? server.preloadIfNoneNamed(library: "plpgsql", marker: Self.preloadMarker)
                try server.startDetached()
                notes.append("started the local PostgreSQL (unix socket in \(clusterDirectory.path), no TCP port)")
            }
            let admin = try Connection(configuration: server.configuration(database: "postgres"))
            let exists = try !admin.query(LocalDatabaseExists(name: Self.databaseName)).isEmpty
            if !exists {
                try admin.execute(.createLocalDatabase)
                notes.append("created database \(Self.databaseName)")
            }
            let applied = try Migrator().migrate(try Connection(configuration: configuration))
            if !applied.isEmpty { notes.append("applied \(applied.count) migration(s) to the local database") }
        } catch let error as PostgresError {
            throw StoreError.from(error)
        } catch let error as StoreError {
            throw error
        } catch let error as EmbeddedDatabaseError {
            throw error
        } catch {
            // A folder it cannot make or write (an unwritable HERALD_HOME, a user whose home is
            // not there), said as what to do.
            throw EmbeddedDatabaseError.homeUnreachable(
                "cannot make Herald's local PostgreSQL in \(clusterDirectory.path): \(FileProblem.describe(error)); "
                    + "set HERALD_HOME to a folder you can write, or HERALD_DATABASE_URL to a server")
        }
        return notes
    }

    /// The OS user running herald, who alone gets in as the cluster's superuser.
    static var osUser: String {
        getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
    }

    /// As root the server runs as the `postgres` user: a HERALD_HOME it cannot enter (a 0700
    /// temporary folder, root's home) is said in words, before initdb fails on it.
    func requireReachableHome(_ server: LocalPostgresServer) throws {
        guard let blocked = server.folderTheServerCannotEnter else { return }
        throw EmbeddedDatabaseError.homeUnreachable(
            "the local PostgreSQL runs as the postgres user when herald runs as root, and postgres cannot enter "
                + "\(blocked.path) (mode \(blocked.mode), owner \(blocked.owner)) on the way to \(clusterDirectory.path): "
                + "set HERALD_HOME to a folder it can reach (the default for root is /var/lib/herald), "
                + "or let it through with `chmod o+x \(blocked.path)`")
    }

    /// Stops the daemon; false when it was not running.
    public func stop() throws -> Bool {
        guard isRunning else { return false }
        do {
            return try server().stopDetached()
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

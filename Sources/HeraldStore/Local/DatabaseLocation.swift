import Foundation
import PostgresClient
import PostgresServer

/// The environment variables through which people point Herald at its database. Herald's
/// names live here: PostgresClient knows none of them, it is handed them.
public enum DatabaseEnvironment {
    /// A `postgresql://` URL or key=value conninfo; wins over libpq's PG* variables.
    public static let urlVariable = "HERALD_DATABASE_URL"
    /// The folder holding `initdb` and `postgres`, when they are not where PostgreSQL usually is.
    public static let serverBinariesVariable = "HERALD_PG_BINDIR"
    /// Herald's data directory, where the embedded database lives.
    public static let homeVariable = "HERALD_HOME"

    /// `initdb` and `postgres` for a cluster of Herald's own: HERALD_PG_BINDIR's folder when it
    /// is set (that folder or nothing), else where PostgreSQL is usually installed. Failures are
    /// the driver's (`PostgresError`, kind `.usage`), in words that name HERALD_PG_BINDIR.
    public static func locateServerBinaries(_ environment: [String: String]) throws -> PostgresServerBinaries {
        try PostgresServerBinaries.locate(
            override: .init(name: serverBinariesVariable, directory: environment[serverBinariesVariable]),
            environment: environment)
    }
}

/// Which database Herald uses, as the executable sees it: words for where it is (never the
/// password), the conninfo to hand to psql, and whether a server answers there. The driver's
/// own types stay inside HeraldStore.
public struct DatabaseLocation: Sendable, Equatable {
    let configuration: ConnectionConfiguration

    init(_ configuration: ConnectionConfiguration) {
        self.configuration = configuration
    }

    /// The database the environment names: HERALD_DATABASE_URL when set, else libpq's PG*
    /// variables when any names a server or database; nil when nothing does (Herald then
    /// uses its embedded database).
    public static func configured(in environment: [String: String]) -> DatabaseLocation? {
        ConnectionConfiguration.fromEnvironment(environment, urlVariable: DatabaseEnvironment.urlVariable).map(Self.init)
    }

    /// host, port, database and user as libpq will use them; never the password.
    public var redactedDescription: String { configuration.redactedDescription }

    /// The URL or key=value conninfo itself, as psql accepts it (what `herald db url` prints).
    /// It carries the password when one was configured: never put it in a message.
    public var conninfo: String { configuration.conninfo }

    /// Whether a server there accepts connections (a ping: no login, nothing created).
    public var isAcceptingConnections: Bool { Connection.ping(configuration) == .ok }
}

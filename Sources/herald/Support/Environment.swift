import Foundation
import HeraldCore
import HeraldStore
import PostgresClient

/// Where the CLI gets what it does not take as flags.
enum Environment {
    static var values: [String: String] { ProcessInfo.processInfo.environment }

    /// The audit actor: HERALD_ACTOR, else the OS user running herald.
    static var actor: String {
        if let actor = values["HERALD_ACTOR"], !actor.isEmpty { return actor }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            return String(cString: name)
        }
        return values["USER"] ?? values["LOGNAME"] ?? "uid \(geteuid())"
    }

    static func databaseConfiguration() throws -> ConnectionConfiguration {
        guard let configuration = ConnectionConfiguration.fromEnvironment(values) else {
            throw InputError(
                message: """
                    no database configured: set HERALD_DATABASE_URL (for example \
                    postgresql:///herald?host=/var/run/postgresql) or libpq's PGHOST/PGDATABASE
                    """,
                code: ExitStatus.unavailable)
        }
        return configuration
    }

    /// Opens the database for a command that needs the current schema.
    static func openDatabase(requireCurrentSchema: Bool = true) throws -> HeraldDatabase {
        let database = try HeraldDatabase(configuration: databaseConfiguration(), actor: actor)
        if requireCurrentSchema { try database.requireCurrentSchema() }
        return database
    }
}

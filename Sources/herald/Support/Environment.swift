import Foundation
import HeraldCore
import HeraldJobs
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

    /// With HERALD_TIMING=1: how long each phase of a publish or an ingest took, to standard
    /// error (`timing: snapshot 0.123 s`), for operators and the benchmark; nil otherwise.
    static var phaseTimes: PhaseTimes? {
        guard values["HERALD_TIMING"] == "1" else { return nil }
        return { phase, seconds in
            FileHandle.standardError.write(Data(String(format: "timing: %@ %.3f s\n", phase, seconds).utf8))
        }
    }

    /// The configured server (HERALD_DATABASE_URL, else libpq's PG* variables), else Herald's
    /// own local PostgreSQL, created, started and migrated on first use.
    static func databaseConfiguration() throws -> ConnectionConfiguration {
        if let configured = ConnectionConfiguration.fromEnvironment(values) { return configured }
        let embedded = try EmbeddedDatabase(environment: values)
        for note in try embedded.prepare() {
            FileHandle.standardError.write(Data("herald: \(note)\n".utf8))
        }
        return embedded.configuration
    }

    /// Whether commands use the embedded local database (nothing configured).
    static var usesEmbeddedDatabase: Bool { ConnectionConfiguration.fromEnvironment(values) == nil }

    /// Opens the database for a command that needs the current schema.
    static func openDatabase(requireCurrentSchema: Bool = true) throws -> HeraldDatabase {
        let database = try HeraldDatabase(configuration: databaseConfiguration(), actor: actor)
        if requireCurrentSchema { try database.requireCurrentSchema() }
        return database
    }
}

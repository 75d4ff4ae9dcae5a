import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore

/// Where the CLI gets what it does not take as flags.
enum Environment {
    static var values: [String: String] { Console.current.environment }

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
        let console = Console.current  // phases may end on the job's other threads
        return { phase, seconds in
            console.writeError(String(format: "timing: %@ %.3f s\n", phase, seconds))
        }
    }

    /// The configured server (HERALD_DATABASE_URL, else libpq's PG* variables), else Herald's
    /// own local PostgreSQL, created and started on first use.
    static func databaseLocation() throws -> DatabaseLocation {
        try DatabaseOpening.location(configured: configuredDatabase, environment: values, note: Self.note)
    }

    /// The server the environment names (HERALD_DATABASE_URL, else libpq's PG* variables), if any.
    static var configuredDatabase: DatabaseLocation? { DatabaseLocation.configured(in: values) }

    /// Whether commands use the embedded local database (nothing configured).
    static var usesEmbeddedDatabase: Bool { configuredDatabase == nil }

    /// Opens the database for a command that needs the current schema, as a login that may
    /// run herald (Herald's own or a tenant operator's: an analyst's is refused, 77).
    /// `ownerOnly`: the work, when only Herald's own login may do it (a tenant operator is refused, 77).
    /// `spare`: a second connection opens beside the first (for a publish).
    static func openDatabase(requireCurrentSchema: Bool = true, ownerOnly: String? = nil, spare: Bool = false) throws -> HeraldDatabase {
        try DatabaseOpening.open(
            configured: configuredDatabase, environment: values, actor: actor, requireCurrentSchema: requireCurrentSchema,
            ownerOnly: ownerOnly, spare: spare, note: Self.note)
    }

    /// What was done to reach the database (a local cluster created, started), on standard error.
    private static func note(_ text: String) {
        Console.current.writeError("herald: \(text)\n")
    }
}

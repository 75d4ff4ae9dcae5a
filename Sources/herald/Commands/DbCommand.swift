import ArgumentParser
import Foundation
import HeraldJobs
import HeraldText
import HeraldStore

struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Herald's own local PostgreSQL: status, start, stop, and how to connect.",
        discussion: """
            When neither HERALD_DATABASE_URL nor libpq's PG* variables name a server, Herald uses a private \
            PostgreSQL cluster under its data directory ($HERALD_HOME, default ~/.local/share/herald; \
            /var/lib/herald as root), created with initdb on first use, started on demand, listening only on a \
            unix socket inside that directory (no TCP port), and migrated automatically. Any herald command starts \
            it; `herald db stop` stops it. As root the server runs as the postgres user.

            Example: psql "$(herald db url)"
            """,
        subcommands: [Status.self, Start.self, Stop.self, URLCommand.self])

    /// The local database, or a usage error when a server is configured instead.
    static func localOnly(_ verb: String) throws -> EmbeddedDatabase {
        guard Environment.usesEmbeddedDatabase else {
            throw InputError(
                message: "a database is configured (HERALD_DATABASE_URL or PG* variables): `herald db \(verb)` manages only Herald's local PostgreSQL",
                code: ExitStatus.usage)
        }
        return try EmbeddedDatabase(environment: Environment.values)
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Which database Herald uses, and its state.", discussion: "Example: herald db status --json")
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let status = try DatabaseStatus.read(
                    configured: Environment.configuredDatabase, environment: Environment.values, actor: Environment.actor)
                if output.json {
                    try printJSON(status)
                    return
                }
                print(SessionText.describe(status))
            }
        }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Create (on first use), start and migrate the local PostgreSQL.",
            discussion: "Example: HERALD_HOME=/srv/herald-data herald db start")
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let local = try DbCommand.localOnly("start")
                let notes = try local.prepare()
                if output.json {
                    try printJSON(["running": AnyEncodable(true), "connection": AnyEncodable(local.location.conninfo), "done": AnyEncodable(notes)])
                    return
                }
                for note in notes { print(note) }
                print("the local PostgreSQL is running: \(local.location.conninfo)")
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Stop the local PostgreSQL (the next herald command starts it again).",
            discussion: "Example: herald db stop")
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let local = try DbCommand.localOnly("stop")
                let stopped = try local.stop()
                if output.json {
                    try printJSON(["stopped": stopped])
                } else {
                    print(stopped ? "stopped the local PostgreSQL" : "the local PostgreSQL was not running")
                }
            }
        }
    }

    struct URLCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url", abstract: "Print a conninfo for the database Herald uses (psql accepts it).",
            discussion: "Example: psql \"$(herald db url)\"")
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let conninfo = try Environment.configuredDatabase?.conninfo
                    ?? EmbeddedDatabase(environment: Environment.values).location.conninfo
                if output.json {
                    try printJSON(["connection": conninfo])
                } else {
                    print(conninfo)
                }
            }
        }
    }
}

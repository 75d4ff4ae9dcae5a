import ArgumentParser
import Foundation
import HeraldJobs
import HeraldStore
import HeraldText

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending schema migrations (or list them with --status).",
        discussion: """
            Applies the migrations this herald carries, in order, each in its own transaction, \
            under an advisory lock (two runs never interleave). Refuses to continue when an \
            applied migration changed or the database was migrated by a newer herald.

            Then makes Herald's roles, rights and object owners, and its tenants' logins (from the grants \
            tables, with their passwords), what the schema needs: a database restored with pg_restore on a \
            new server works again. Run once by a superuser, it also hands Herald's objects back to the \
            database's owner and closes large objects and advisory locks to other logins.

            Examples:
              herald migrate --status     # what is applied and what is pending
              herald migrate              # apply what is pending
            """)

    @Flag(name: .long, help: "List applied and pending migrations; change nothing.")
    var status = false

    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            let schema = SchemaJob(try Environment.openDatabase(requireCurrentSchema: false, ownerOnly: "migrating the schema"))
            if status {
                try printStatus(schema.status())
                return
            }
            let (applied, repaired) = try schema.migrate { migration in
                if !output.json { print("applying \(migration.name)") }
            }
            if output.json {
                try printJSON(["applied": applied, "repaired": repaired])
            } else {
                print(applied.isEmpty ? "database is up to date" : "applied \(applied.count) migration(s)")
                for note in repaired { print(note) }
            }
        }
    }

    private func printStatus(_ status: MigrationStatus) throws {
        let migrations = MigrationJSON.all(status)
        if output.json {
            try printJSON(migrations)
        } else {
            printTable(MigrationJSON.table(migrations), emptyMessage: "no migrations")
        }
    }
}

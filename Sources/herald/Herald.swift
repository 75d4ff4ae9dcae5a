import ArgumentParser
import Foundation
import HeraldJobs
import HeraldText

@main
struct Herald: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Campaign manager for mobile in-app messages: banners, alerts and stories.",
        discussion: """
            Herald keeps tenants, apps and campaigns in PostgreSQL and publishes them as static files that the Notable, iNotify and Pushwoosh clients read.

            Database: HERALD_DATABASE_URL (a postgresql:// URL or key=value conninfo), else libpq's PG* variables (PGHOST, PGDATABASE, ...), else Herald's own local PostgreSQL under HERALD_HOME, created, started and migrated on first use (`herald db`). Tenant: --tenant or HERALD_TENANT (a tenant operator's login is held to its own: `herald whoami`). Audit actor: HERALD_ACTOR, else your OS user (a tenant operator: its login).

            See it all work with `herald demo`. Then `herald tenant create`, `herald app create` and `herald campaign create`; or describe everything in a file and run `herald apply -f FILE`; `herald publish --out DIR` from cron; `herald events ingest` and `herald report` for delivery history.
            """,
        version: HeraldVersion.description,
        subcommands: [
            MigrateCommand.self,
            TenantCommand.self,
            AppCommand.self,
            CampaignCommand.self,
            ApplyCommand.self,
            ValidateCommand.self,
            ExportCommand.self,
            AuditCommand.self,
            PublishCommand.self,
            PreviewCommand.self,
            BoardCommand.self,
            EventsCommand.self,
            CollectCommand.self,
            ReportCommand.self,
            DbCommand.self,
            WhoamiCommand.self,
            DemoCommand.self,
        ]
    )

    /// The binary's entry point: `run` with the process's own console, then exit with its status.
    static func main() {
        BackgroundRelease.keepsUntilExit.store(true, ordering: .relaxed)  // this process exits after one command
        Foundation.exit(run(Array(CommandLine.arguments.dropFirst()), console: .process))
    }

    /// Parses `arguments`, runs the command and reports any failure on `console`, as
    /// ArgumentParser's own `main()` does, and returns the exit status instead of exiting:
    /// the binary and the in-process tests go through this one path.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        Console.$current.withValue(console) {
            do {
                var command = try parseAsRoot(arguments)
                try command.run()
                return 0
            } catch {
                let code = exitCode(for: error)
                var message = fullMessage(for: error)
                if let suggestion = SubcommandSuggestion.forUnknown(in: arguments, error: error) {
                    message += "\n\(suggestion)"
                }
                if code != .success { message = terminalSafe(message) }
                if !message.isEmpty { console.write(code == .success ? .output : .error, message + "\n") }
                return code.rawValue
            }
        }
    }
}

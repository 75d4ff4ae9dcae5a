import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore

struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Compile the active campaigns into static files per app and locale.",
        discussion: """
            Writes DIR/<tenant>/<app>/<locale>/control.json (Notable), notifications.plist (iNotify), \
            stories/<campaign>.json and .push.json (Pushwoosh), and views/<campaign>/<view>.html for \
            inline banner views. Only files whose bytes changed are written (atomically); unchanged \
            files keep their mtime; files Herald published before and no longer publishes are removed.

            Safe from cron at any time: an advisory lock makes a second run exit 75 (or wait with \
            --wait); every run is recorded (--history) and can be restored (--rollback RUN).

            Example crontab line (every 5 minutes, silent unless something changed):
              */5 * * * * herald publish --out /srv/herald --quiet
            """)

    @Option(help: ArgumentHelp("Output folder (the static site's root).", valueName: "dir"))
    var out: String?
    @Option(name: .customLong("base-url"), help: ArgumentHelp("Public URL of the output folder (for inline HTML views of apps without a base URL).", valueName: "url"))
    var baseURL: String?
    @Option(help: "Only this tenant.") var tenant: String?
    @Option(help: "Only this app (with --tenant).") var app: String?
    @Option(help: ArgumentHelp("Publish the site as it will be at this time (ISO 8601).", valueName: "time"))
    var at: String?
    @Flag(name: .customLong("dry-run"), help: "Say what would change; write nothing.") var dryRun = false
    @Flag(help: "Compile and compare the whole site, even when the database says only some apps changed.") var full = false
    @Flag(help: "Print nothing when nothing changed (for cron).") var quiet = false
    @Flag(help: "Wait for a running publish instead of exiting 75.") var wait = false
    @Flag(help: "List recorded runs.") var history = false
    @Option(help: ArgumentHelp("Put DIR back exactly as this run left it.", valueName: "run")) var rollback: Int64?
    @Option(help: "With --history: at most this many runs (the newest).") var limit = 20
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if !history, out == nil { throw ArgumentParser.ValidationError("--out DIR is required (the folder to publish into)") }
    }

    func run() throws {
        try reportingFailures {
            let database = try Environment.openDatabase()
            if history {
                try printHistory(database)
                return
            }
            // A tenant operator publishes its own tenant's folder (--tenant may be left out).
            let tenant = try LoginScope.optionalTenant(tenant, in: database)
            if app != nil, tenant == nil { throw InputError(message: "--app needs --tenant", code: ExitStatus.usage) }
            let outURL = URL(fileURLWithPath: out ?? ".")
            let job = PublishJob(database: database, out: outURL, wait: wait, phaseTimes: Environment.phaseTimes)
            let result: PublishJob.Result
            if let rollback {
                result = try job.rollback(to: rollback)
            } else {
                let at = try at.map { try flagTime($0, flag: "--at") } ?? Date()
                result = try job.publish(
                    at: at, tenant: tenant, app: try app.map { try Slug($0) },
                    siteBaseURL: try baseURL.map { try HTTPURL($0) }, dryRun: dryRun, full: full)
            }
            report(result)
        }
    }

    private func report(_ result: PublishJob.Result) {
        let changed = !result.outcome.written.isEmpty || !result.outcome.removed.isEmpty
        if quiet, !changed { return }
        for warning in result.warnings {
            Console.current.writeError("herald: warning: \(warning)\n")
        }
        if output.json {
            struct Summary: Encodable {
                let run: Int64?
                let dryRun: Bool
                let written, removed: [String]
                let unchanged: Int
                let warnings: [String]
            }
            try? printJSON(
                Summary(
                    run: result.runID, dryRun: dryRun, written: result.outcome.written,
                    removed: result.outcome.removed, unchanged: result.outcome.unchanged, warnings: result.warnings))
            return
        }
        let counts = "\(result.outcome.written.count) written, \(result.outcome.unchanged) unchanged, \(result.outcome.removed.count) removed"
        if dryRun {
            for path in result.outcome.written { print("would write \(path)") }
            print("dry run: \(counts); nothing written")
        } else if rollback != nil {
            print("rolled back to run \(rollback ?? 0) as run \(result.runID ?? 0): \(counts)")
        } else {
            print("published run \(result.runID ?? 0) (\(result.apps) app(s)): \(counts)")
        }
    }

    private func printHistory(_ database: HeraldDatabase) throws {
        let runs = try database.asOperator(readOnly: true) { try $0.publishRuns.history(limit: limit) }
        if output.json {
            struct Run: Encodable {
                let id: Int64
                let startedAt: Date
                let finishedAt: Date?
                let actor, outDir, outcome, scope: String
                let publishAt: Date
                let rollbackOf: Int64?
                let written, unchanged, removed: Int
                let message: String?
            }
            try printJSON(runs.map {
                Run(
                    id: $0.id, startedAt: $0.startedAt, finishedAt: $0.finishedAt, actor: $0.actor, outDir: $0.outDir,
                    outcome: $0.outcome.description, scope: $0.scope.description, publishAt: $0.publishAt, rollbackOf: $0.rollbackOf,
                    written: $0.filesWritten, unchanged: $0.filesUnchanged, removed: $0.filesRemoved, message: $0.message)
            })
            return
        }
        var table = TextTable("RUN", "STARTED", "OUTCOME", "WRITTEN", "UNCHANGED", "REMOVED", "SCOPE", "OUT")
        for run in runs {
            table.append(
                String(run.id), formatTimestamp(run.startedAt),
                run.outcome.description + (run.rollbackOf.map { " (to run \($0))" } ?? ""), String(run.filesWritten),
                String(run.filesUnchanged), String(run.filesRemoved), run.scope == .site ? "all" : run.scope.description, run.outDir)
        }
        printTable(table, emptyMessage: "no publish runs yet")
    }
}

import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore
import HeraldText

struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Compile the active campaigns into static files per app and locale.",
        discussion: """
            Writes DIR/<tenant>/<app>/<locale>/control.json (Notable), notifications.plist (iNotify), \
            stories/<campaign>.json and .push.json (Pushwoosh), local-notifications.plist and .json (local \
            campaigns, for clients/HeraldLocalNotifications.swift) and views/<campaign>/<view>.html for \
            inline banner views. Only files whose bytes changed are written (atomically); unchanged \
            files keep their mtime; files Herald published before and no longer publishes are removed.

            Safe from cron at any time: an advisory lock makes a second run exit 75 (or wait with \
            --wait); every run that changed something is recorded (--history; a run that changed nothing \
            is counted on the run before it) and can be restored (--rollback RUN). --prune-history with \
            --keep N or --before TIME deletes old runs and the stored contents only they needed.

            Example crontab line (every 5 minutes, silent unless something changed):
              */5 * * * * herald publish --out /srv/herald --quiet

            --watch keeps running instead (a service: see README's systemd unit): it publishes at \
            start, within a second of every committed change (whoever made it: the database notifies \
            it), and at the moment a campaign starts or ends; --then CMD runs after each run that \
            changed files, with their paths on its standard input. SIGTERM or Ctrl-C finishes the run \
            in progress and exits 0.
              herald publish --watch --out /srv/herald --then 'deploy/herald-sync /srv/herald static:/var/www/herald'
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
    @Flag(
        help: ArgumentHelp(
            "Take over a folder another Herald database published (it is refused otherwise: an empty database would wipe the site).",
            discussion: "Its files become this database's: those it does not publish are removed."))
    var adopt = false
    @Flag(help: "Keep running: publish at every committed change and campaign start or end (a service).") var watch = false
    @Option(
        help: ArgumentHelp(
            "With --watch: a shell command run after each run that changed files, with their paths on standard input.",
            valueName: "cmd"))
    var then: String?
    @Flag(help: "List recorded runs.") var history = false
    @Option(help: ArgumentHelp("Put DIR back exactly as this run left it.", valueName: "run")) var rollback: Int64?
    @Option(help: "With --history: at most this many runs (the newest).") var limit = 20
    @Flag(name: .customLong("prune-history"), help: "Delete old recorded runs (with --keep and/or --before); never a folder's newest.")
    var pruneHistory = false
    @Option(help: ArgumentHelp("With --prune-history: keep this many newest runs.", valueName: "n")) var keep: Int?
    @Option(help: ArgumentHelp("With --prune-history: delete runs started before this time.", valueName: "time")) var before: String?
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if pruneHistory {
            guard keep != nil || before != nil else {
                throw ArgumentParser.ValidationError("--prune-history needs --keep N and/or --before TIME (what to keep)")
            }
            if let keep, keep < 0 { throw ArgumentParser.ValidationError("--keep must be 0 or more") }
            return
        }
        if keep != nil || before != nil { throw ArgumentParser.ValidationError("--keep and --before go with --prune-history") }
        if history, limit < 1 { throw ArgumentParser.ValidationError("--limit must be at least 1 (the number of newest runs to list)") }
        if out == "" {
            throw ArgumentParser.ValidationError("--out needs a folder, not an empty value (is the variable it names set?)")
        }
        if !history, out == nil { throw ArgumentParser.ValidationError("--out DIR is required (the folder to publish into)") }
        if then != nil, !watch { throw ArgumentParser.ValidationError("--then goes with --watch") }
        if then == "" { throw ArgumentParser.ValidationError("--then needs a command, not an empty value") }
        if watch {
            let others: [(Bool, String)] = [
                (history, "--history"), (rollback != nil, "--rollback"), (dryRun, "--dry-run"), (at != nil, "--at"),
                (app != nil, "--app"), (full, "--full"), (output.json, "--json"),
            ]
            if let (_, flag) = others.first(where: { $0.0 }) {
                throw ArgumentParser.ValidationError("--watch cannot be combined with \(flag): it publishes the site as it is, whenever it changes")
            }
        }
    }

    func run() throws {
        try reportingFailures {
            if let out, !history, !pruneHistory {
                // A cron job without HERALD_DATABASE_URL would make an empty local database and
                // publish it over the site: never made on the way to a folder that has a manifest.
                try DatabaseOpening.refuseANewLocalDatabase(
                    publishingInto: URL(fileURLWithPath: out), configured: Environment.configuredDatabase, environment: Environment.values)
            }
            if watch, let out {
                // The watcher opens the database itself, and waits for it when it is not up yet.
                try PublishWatch.run(
                    out: URL(fileURLWithPath: out), tenant: try namedTenant(tenant), siteBaseURL: try baseURL.map { try HTTPURL($0) },
                    adopt: adopt, then: then)
                return
            }
            // A publish holds its tenants' locks on a second connection.
            let database = try Environment.openDatabase(spare: !(history || pruneHistory || dryRun))
            if history {
                try printHistory(PublishJob(database: database, out: URL(fileURLWithPath: ".")).history(limit: limit))
                return
            }
            if pruneHistory {
                let before = try before.map { try flagTime($0, flag: "--before") }
                let pruned = try PublishJob(database: database, out: URL(fileURLWithPath: "."), wait: wait)
                    .pruneHistory(keepNewest: keep, before: before)
                for tenant in pruned.tenantsLeftOut {
                    Console.current.writeError(
                        "herald: note: tenant \(tenant)'s own publish was running: its stored contents were left for the next prune "
                            + "(--wait waits for it)\n")
                }
                if output.json {
                    try printJSON(PrunedJSON(pruned))
                } else {
                    print("pruned \(pruned.runs) run(s) and \(pruned.contents) stored content(s) no kept run needs")
                }
                return
            }
            let outURL = URL(fileURLWithPath: out ?? ".")
            var job = PublishJob(database: database, out: outURL, wait: wait, phaseTimes: Environment.phaseTimes)
            job.adopt = adopt
            let result: PublishJob.Result
            if let rollback {
                result = try job.rollback(to: rollback)
            } else {
                let at = try at.map { try flagTime($0, flag: "--at") } ?? Date()
                result = try job.publish(
                    at: at, tenant: try namedTenant(tenant), app: try app.map { try Slug($0) },
                    siteBaseURL: try baseURL.map { try HTTPURL($0) }, dryRun: dryRun, full: full)
            }
            report(result)
            BackgroundRelease.release(consume result)  // a whole site's manifest and paths: freed off the way out
        }
    }

    private func report(_ result: PublishJob.Result) {
        let changed = !result.outcome.written.isEmpty || !result.outcome.removed.isEmpty
        if quiet, !changed { return }
        // A large site's JSON summary and warnings are megabytes each: the summary is made on
        // another thread while the warnings are made and written.
        var summary: BackgroundWork<String?>?
        if output.json, !dryRun {
            let plain = PublishSummary(result, dryRun: false, changes: nil)
            summary = BackgroundWork { [plain] in plain.plainJSON }
        }
        // All warnings in one write: a publish can have thousands (a system call each, before).
        if !result.warnings.isEmpty { Console.current.writeError(PublishText.warnings(result.warnings)) }
        let diffs = PublishText.diffs(result)
        if output.json {
            if let summary, let text = try? summary.wait() {
                Console.current.write(.output, TerminalText.safeJSON(text))
                Console.current.write(.output, "\n")
                return
            }
            try? printJSON(PublishSummary(result, dryRun: dryRun, changes: dryRun ? diffs : nil))
            return
        }
        print(PublishText.outcome(result, dryRun: dryRun, diffs: diffs, rollback: rollback), terminator: "")
        if rollback != nil { Console.current.writeError("herald: note: \(PublishText.rollbackNote)\n") }
    }

    private func printHistory(_ runs: [PublishRun]) throws {
        if output.json {
            try printJSON(runs.map(PublishRunJSON.init))
        } else {
            printTable(PublishText.history(runs), emptyMessage: "no publish runs yet")
        }
    }
}

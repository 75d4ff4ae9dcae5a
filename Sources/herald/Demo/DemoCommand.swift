import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "See Herald do its whole job: a demo tenant, events, a published site, a preview and a report.",
        discussion: """
            On Herald's local PostgreSQL (or the configured database) it creates the tenant `demo` with an app in \
            en, de and pt-BR, a banner with two views and conditions, an alert and a story; stores a small generated \
            set of delivery events; publishes the tenant to --out; and prints the files it wrote, what a sample device \
            would see and why, and a campaign report. Running it again is safe and changes nothing.

            Example: herald demo --out /tmp/herald-demo
            """)

    @Option(help: "Where to publish.") var out = "public"
    @Option(help: "Where to write the review board (`herald board`).") var board = "review"

    @Flag(help: "Write the demo tenant into the configured database too (HERALD_DATABASE_URL or PG*), not only into Herald's local one.")
    var yes = false

    func run() throws {
        try reportingFailures {
            let started = DispatchTime.now().uptimeNanoseconds
            // The demo adds a tenant, campaigns and events: never into someone's real database by accident.
            guard yes || Environment.usesEmbeddedDatabase else {
                throw InputError(
                    message: "herald demo writes a tenant `demo` with campaigns and 468 events into the database it uses; "
                        + "HERALD_DATABASE_URL or PG* name a configured one, so pass --yes to write there (or unset them to use Herald's local PostgreSQL)",
                    code: ExitStatus.usage)
            }
            let location = try Environment.databaseLocation()
            print("Herald demo on \(Environment.usesEmbeddedDatabase ? "Herald's local PostgreSQL" : "the configured database"): \(location.redactedDescription)")
            let database = try HeraldDatabase(location: location, actor: Environment.actor)
            let outURL = URL(fileURLWithPath: out).standardizedFileURL
            let boardURL = URL(fileURLWithPath: board).standardizedFileURL
            try DemoJob(database, out: outURL, board: boardURL, phaseTimes: Environment.phaseTimes).run { step in
                try show(step, outURL: outURL)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            print(String(format: "\ndone in %.1f s. Run it again: nothing changes. Next: `herald --help`, README.md.", seconds))
        }
    }

    private func show(_ step: DemoJob.Step, outURL: URL) throws {
        switch step {
        case .migrated(let applied):
            if !applied.isEmpty { print("applied \(applied.count) migration(s)") }
        case .applied(let steps):
            print("\n1. campaigns: " + (steps.isEmpty ? "up to date (no changes)" : "applied \(steps.count) change(s)"))
            for step in steps { print("   \(step.description)") }
        case .ingested(let counts, let rejections):
            print("\n2. delivery events: read \(counts.read) · inserted \(counts.inserted) · duplicate \(counts.duplicate) · rejected \(counts.rejected)")
            for rejection in rejections { print("   line \(rejection.line): \(rejection.reason)") }
        case .published(let result):
            let outcome = result.outcome
            print("\n3. published to \(out)/: \(outcome.written.count) written, \(outcome.unchanged) unchanged, \(outcome.removed.count) removed")
            let written = Set(outcome.written)
            for path in outcome.manifest.files.keys.filter({ $0.hasPrefix("demo/") }).sorted() {
                let size = (try? FileManager.default.attributesOfItem(atPath: outURL.appendingPathComponent(path).path)[.size] as? Int) ?? 0
                print("   \(out)/\(path)".padding(toLength: 64, withPad: " ", startingAt: 0) + "\(size) B" + (written.contains(path) ? "  (written)" : ""))
            }
            for warning in result.warnings { print("   warning: \(warning)") }
        case .previewed(let result, let device, let locale):
            print("\n4. preview: a German-speaking iPhone on Wi-Fi with Weather \(device.appVersion) that has seen the welcome alert")
            print(
                "   (herald preview --tenant demo --app weather --locale \(locale) --app-version \(device.appVersion) "
                    + "--os-version \(device.osVersion) --seen \(device.seen.sorted().joined(separator: " --seen ")) --out \(out))")
            print(PreviewText.render(result))
        case .reported(let table, let since, let until):
            print("\n5. report: herald report campaigns --tenant demo (\(since) … \(until))")
            print(ReportText.render(table, format: .table, window: "\(since) … \(until)"), terminator: "")
        case .boardWritten(let outcome, let index):
            print("\n6. review board (herald board --tenant demo --out \(board)): \(outcome.written.count) written, \(outcome.unchanged) unchanged")
            print("   open \(index.path)")
        }
    }
}

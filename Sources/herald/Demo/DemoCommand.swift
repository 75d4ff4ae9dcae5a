import ArgumentParser
import Foundation
import HeraldBoard
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore

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
            let tenant = try Slug("demo")
            let app = try Slug("weather")
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
            try LoginScope.requireOwner(database, to: "the demo (a tenant of its own)")
            let migrated = try database.migrate()
            if !migrated.isEmpty { print("applied \(migrated.count) migration(s)") }

            // 1. The tenant, app and campaigns, applied like a campaigns file.
            let document: CampaignsDocument
            switch CampaignsDocument.parse(DemoCampaigns.yaml, fileName: "demo") {
            case .success(let parsed): document = parsed
            case .failure(let problems): throw problems
            }
            let steps = try database.transaction { try CampaignsApplier().apply(document, in: $0) }
            print("\n1. campaigns: " + (steps.isEmpty ? "up to date (no changes)" : "applied \(steps.count) change(s)"))
            for step in steps { print("   \(step.description)") }

            // 2. Delivery events, the same ids every run: a second run stores nothing new.
            let (counts, rejections) = try EventIngestor(database: database).ingest(DemoEvents.records(today: Date()))
            print("\n2. delivery events: read \(counts.read) · inserted \(counts.inserted) · duplicate \(counts.duplicate) · rejected \(counts.rejected)")
            for rejection in rejections { print("   line \(rejection.line): \(rejection.reason)") }

            // 3. The published site.
            let outURL = URL(fileURLWithPath: out).standardizedFileURL
            let result = try PublishJob(database: database, out: outURL, wait: true, phaseTimes: Environment.phaseTimes)
                .publish(at: Date(), tenant: tenant, app: nil, siteBaseURL: nil, dryRun: false)
            let outcome = result.outcome
            print("\n3. published to \(out)/: \(outcome.written.count) written, \(outcome.unchanged) unchanged, \(outcome.removed.count) removed")
            let written = Set(outcome.written)
            let files = outcome.manifest.files.keys.filter { $0.hasPrefix("demo/") }.sorted()
            for path in files {
                let size = (try? FileManager.default.attributesOfItem(atPath: outURL.appendingPathComponent(path).path)[.size] as? Int) ?? 0
                print("   \(out)/\(path)".padding(toLength: 64, withPad: " ", startingAt: 0) + "\(size) B" + (written.contains(path) ? "  (written)" : ""))
            }
            for warning in result.warnings { print("   warning: \(warning)") }

            // 4. What one device sees, read from the files just published.
            let locale = try LocaleTag("de")
            // Past the banner's version limit, and the welcome alert already seen: reasons to show.
            var device = DeviceState(appVersion: "3.1.0", build: "3.1.0", osVersion: "17.4", wifi: true)
            device.seen = ["2026/11/01"]
            guard let appSpec = try database.inTenant(tenant, readOnly: true, { try $0.spec(app: app) }).apps.first else {
                throw StoreError.notFound(what: "app", name: "demo/weather", listCommand: "herald app list --tenant demo")
            }
            let published = try PreviewCommand.readPublished(out: out, prefix: "demo/weather/de/")
            print("\n4. preview: a German-speaking iPhone on Wi-Fi with Weather 3.1.0 that has seen the welcome alert")
            print("   (herald preview --tenant demo --app weather --locale de --app-version 3.1.0 --os-version 17.4 --seen 2026/11/01 --out \(out))")
            PreviewCommand.printText(PreviewCommand.evaluate(published, app: appSpec, locale: locale, at: Date(), device: device))

            // 5. The campaign report over the last 30 days.
            let until = ReportCommand.today()
            let since = ReportCommand.day(until, minus: 29)
            let table = try database.asOperator(readOnly: true) {
                try $0.reports.campaigns(ReportFilter(tenant: tenant, since: since, until: until))
            }
            print("\n5. report: herald report campaigns --tenant demo (\(since) … \(until))")
            print(ReportCommand.render(table, format: .table, window: "\(since) … \(until)"), terminator: "")

            // 6. The review board: each campaign as devices draw it, who sees what, the charts.
            let boardURL = URL(fileURLWithPath: board).standardizedFileURL
            let boardOutcome = try BoardCommand.write(database, to: boardURL, tenant: tenant, app: nil, at: Date(), atIsExplicit: false)
            print("\n6. review board (herald board --tenant demo --out \(board)): \(boardOutcome.written.count) written, \(boardOutcome.unchanged) unchanged")
            print("   open \(boardURL.appendingPathComponent(Board.indexPath).path)")

            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            print(String(format: "\ndone in %.1f s. Run it again: nothing changes. Next: `herald --help`, README.md.", seconds))
        }
    }
}

/// The demo's delivery events: 60 devices meeting the three campaigns over the last week,
/// generated the same way every run (same event ids), so a second run adds nothing.
enum DemoEvents {
    static func records(today: Date) -> [EventRecord] {
        let campaigns = [("spring-sale", ["en", "de"]), ("welcome", ["en", "de", "pt-BR"]), ("tour", ["en", "de"])]
        var lines: [String] = []
        var number = 0
        for device in 0..<60 {
            for (index, (campaign, locales)) in campaigns.enumerated() {
                let locale = locales[device % locales.count]
                let day = today.addingTimeInterval(-Double((device + index) % 7) * 86_400)
                let base = String(Timestamp.format(day).prefix(10))
                var kinds = ["delivered"]
                if (device + index) % 5 != 0 { kinds.append("impression") }
                if kinds.count == 2 { kinds.append((device * 7 + index) % 4 == 0 ? "click" : "dismiss") }
                for (step, kind) in kinds.enumerated() {
                    number += 1
                    let id = String(format: "de300000-0000-4000-8000-%012d", number)
                    let at = "\(base)T\(String(format: "%02d", 8 + device % 12)):\(String(format: "%02d", step * 2)):00Z"
                    lines.append(
                        #"{"event_id":"\#(id)","tenant":"demo","app":"weather","campaign":"\#(campaign)","device":"demo-device-\#(device)","kind":"\#(kind)","at":"\#(at)","locale":"\#(locale)","app_version":"2.3.1","os_version":"17.4"}"#)
                }
            }
        }
        var parser = EventStreamParser(format: .ndjson)
        return parser.feed(Array(lines.joined(separator: "\n").utf8)) + parser.finish()
    }
}

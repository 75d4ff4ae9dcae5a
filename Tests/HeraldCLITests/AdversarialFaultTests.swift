import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

/// Faults thrown at the real binary, as an operator's machine meets them: `kill -9` landing
/// at random instants of publish, apply and ingest, and runs started side by side. Each
/// category counts what it tried and what held (scripts/adversarial-faults prints them, with
/// more kills: `HERALD_ADVERSARIAL_KILLS`). The crash-point, database-loss and full-disk
/// tests (PublishCommandTests, ApplyTurnsTests, DatabaseLossTests) stop runs at named points;
/// these stop them anywhere.
@Suite(.serialized) struct AdversarialFaultTests {
    typealias Tally = AdversarialInputTests.Tally

    /// Kills per job: a few in the suite, more from the script.
    static let kills = Int(ProcessInfo.processInfo.environment["HERALD_ADVERSARIAL_KILLS"] ?? "") ?? 3

    /// For the script: how many runs the kill stopped, and how many had finished before it.
    static func report(_ job: String, killed: Int) {
        guard ProcessInfo.processInfo.environment["HERALD_ADVERSARIAL_REPORT"] == "1" else { return }
        FileHandle.standardError.write(Data("adversarial-kills: \(job): \(killed) stopped mid-run, \(kills - killed) finished first\n".utf8))
    }

    /// Random instants, from a seed each failure names.
    struct Instants {
        let seed = UInt64.random(in: 1...UInt64.max)
        private lazy var generator = SplitMix(seed: seed)

        /// A uniform instant in 0..<limit seconds.
        mutating func next(below limit: Double) -> Double { Double.random(in: 0..<limit, using: &generator) }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds since `start` (a `now()`).
    static func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }

    // MARK: publish

    /// Sets the large site to one of two states that differ in every kind of file: every
    /// alert's button (plists rewritten in place), the stories running or paused (their
    /// files written or removed), which banners have inline views (view folders come and
    /// go, named by rewritten control files) and a fourth locale (a new folder per app).
    static func setSite(_ admin: Connection, state: Int) throws {
        let bench = UnsafeSQL("(SELECT id FROM tenants WHERE slug = 'bench')")  // the fixture's tenant alone
        try admin.execute("UPDATE alert_contents SET action_button = $1 WHERE tenant_id = \(bench)", [state == 0 ? "Open" : "Open now"])
        try admin.execute(
            "UPDATE campaigns SET status = $1::campaign_status WHERE kind = 'story' AND tenant_id = \(bench)", [state == 0 ? "active" : "paused"])
        try admin.execute(
            """
            UPDATE banner_views v
            SET file_url = CASE WHEN c.key = ANY($1::text[]) THEN NULL ELSE 'https://cdn.example.com/' || c.id || '/' || v.locale || '.html' END,
                inline_html = CASE WHEN c.key = ANY($1::text[]) THEN '<p>' || v.view_id || ' ' || v.locale || '</p>' END
            FROM campaigns c WHERE c.id = v.campaign_id AND c.tenant_id = \(bench)
            """, [state == 0 ? ["c-2", "c-6"] : ["c-3", "c-7"]])
        try admin.execute("UPDATE apps SET locales = $1::text[] WHERE tenant_id = \(bench)", [state == 0 ? ["de", "en", "fr"] : ["de", "en", "es", "fr"]])
    }

    @Test func publishKilledAtRandomInstants() throws {
        let tally = Tally("kill -9 at a random instant: publish")
        let site = PublishCommandTests()
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: database)
                try LargeSiteFixture.populate(admin, apps: 12, campaignsPerApp: 8)
                let herald = HeraldCLI(database: database)
                func publish(_ out: URL) -> [String] { ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"] }
                // What an uninterrupted run makes of each state, each into a folder of its own.
                var expected: [[String: Data]] = []
                var duration = 0.0
                for state in 0...1 {
                    try Self.setSite(admin, state: state)
                    let reference = root.appendingPathComponent("reference-\(state)")
                    let start = Self.now()
                    try herald.succeed(publish(reference))
                    duration = max(duration, Self.seconds(since: start))
                    expected.append(try site.snapshot(reference))
                }
                #expect(expected[0] != expected[1])
                let out = root.appendingPathComponent("site")
                try Self.setSite(admin, state: 0)
                try herald.succeed(publish(out))
                var instants = Instants()
                var killed = 0
                defer { Self.report("publish", killed: killed) }
                for kill in 0..<Self.kills {
                    let state = (kill + 1) % 2
                    try Self.setSite(admin, state: state)
                    let instant = instants.next(below: duration * 1.2)
                    let label = "kill \(kill) at \(String(format: "%.3f", instant)) s (seed \(instants.seed))"
                    let stopped = try herald.run(publish(out), killAfter: instant)
                    if stopped.killedBy != nil { killed += 1 }
                    var problems: [String] = []
                    if stopped.killedBy == nil && stopped.status != 0 { problems.append("failed: \(stopped)") }
                    let left = try site.snapshot(out)
                    for (path, data) in left where !site.isHidden(path) && data != expected[0][path] && data != expected[1][path] {
                        problems.append("\(path) is neither the old file nor the new one")
                    }
                    problems += try site.references(out).problems
                    let finished = try herald.run(publish(out))
                    if finished.status != 0 { problems.append("the next run failed: \(finished)") }
                    if try site.snapshot(out) != expected[state] { problems.append("the next run did not finish the site") }
                    tally.record(label, problems.isEmpty ? nil : problems.prefix(5).joined(separator: "; "))
                }
            }
        }
        tally.finish()
    }

    // MARK: apply

    /// Tenant acme's app `app` with `count` alerts from c-`first` on, every name ending in
    /// `suffix`, those in `paused` paused (a campaign the file does not list is archived by apply).
    static func campaignsFile(app: String = "weather", first: Int, count: Int, suffix: String, paused: Range<Int> = 0..<0) -> String {
        var text = """
            version: 1
            tenants:
            - slug: acme
              name: Acme
              apps:
              - slug: \(app)
                name: App \(app)
                platform: ios
                bundleId: com.acme.\(app)
                defaultLocale: en
                locales: [de, en]
                campaigns:

            """
        for n in first..<(first + count) {
            text += """
                    - key: c-\(n)
                      kind: alert
                      name: Campaign \(n) \(suffix)
                      status: \(paused.contains(n) ? "paused" : "active")
                      messageKey: "m/\(n)"
                      content:
                        en: {title: Title \(n), message: Message \(suffix)}
                        de: {title: Titel \(n), message: Nachricht \(suffix)}

                """
        }
        return text
    }

    @Test func applyKilledAtRandomInstants() throws {
        let tally = Tally("kill -9 at a random instant: apply")
        try HeraldFixtures.withMigratedDatabase { database in try Self.killApplies(HeraldCLI(database: database), tally) }
        tally.finish()
    }

    static func killApplies(_ herald: HeraldCLI, _ tally: Tally) throws {
        // Every campaign renamed and reworded, a sixth paused (archived ones stay archived).
        let files = [campaignsFile(first: 0, count: 300, suffix: "A"), campaignsFile(first: 0, count: 300, suffix: "B", paused: 0..<50)]
        // Each file's state as export writes it.
        var exports: [String] = []
        var duration = 0.0
        for file in files + files {
            let start = now()
            try herald.succeed(["apply", "-f", "-"], stdin: file)
            duration = max(duration, seconds(since: start))
            exports.append(try herald.succeed(["export", "--tenant", "acme"]).stdout)
        }
        let steady = exports[0] == exports[2] && exports[1] == exports[3] && exports[0] != exports[1]
        #expect(steady, "applying a file again changed what export writes")
        let expected = Array(exports.prefix(2))
        var instants = Instants()
        var killed = 0
        defer { report("apply", killed: killed) }
        for kill in 0..<kills {
            let target = kill % 2  // the database holds the other file's state
            let instant = instants.next(below: duration * 1.2)
            let label = "kill \(kill) at \(String(format: "%.3f", instant)) s (seed \(instants.seed))"
            let stopped = try herald.run(["apply", "-f", "-"], stdin: files[target], killAfter: instant)
            if stopped.killedBy != nil { killed += 1 }
            var problems: [String] = []
            if stopped.killedBy == nil && stopped.status != 0 { problems.append("failed: \(stopped)") }
            let left = try herald.succeed(["export", "--tenant", "acme"]).stdout
            if left != expected[0] && left != expected[1] {
                problems.append("the database holds neither file's state: \(Self.firstDifference(left, expected[0])); \(Self.firstDifference(left, expected[1]))")
            }
            let again = try herald.run(["apply", "-f", "-", "--wait"], stdin: files[target])
            if again.status != 0 { problems.append("the next apply failed: \(again)") }
            if try herald.succeed(["export", "--tenant", "acme"]).stdout != expected[target] { problems.append("the next apply did not finish") }
            tally.record(label, problems.isEmpty ? nil : problems.joined(separator: "; "))
        }
    }

    /// Where two exports first differ, and how many lines differ (to tell a torn state from
    /// another difference when a kill leaves neither file's state).
    static func firstDifference(_ left: String, _ right: String) -> String {
        let a = left.split(separator: "\n", omittingEmptySubsequences: false)
        let b = right.split(separator: "\n", omittingEmptySubsequences: false)
        let differing = zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
        guard let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return "\(differing) line(s) differ, at the end" }
        return "\(differing) line(s) differ, first line \(index + 1): \"\(a[index])\" vs \"\(b[index])\""
    }

    // MARK: ingest

    /// How many events, rollups agreeing with them (0 differences), the database holds.
    static func storedEvents(_ database: ConnectionConfiguration) throws -> (events: Int, differences: Int) {
        let check = try rollupDisagreements(try Connection(configuration: database))
        return (check.raw, check.differences)
    }

    @Test func ingestKilledAtRandomInstants() throws {
        let tally = Tally("kill -9 at a random instant: events ingest")
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                let perFile = 10_000
                func events(_ n: Int) throws -> URL {
                    let file = root.appendingPathComponent("events-\(n).ndjson")
                    try Data(SampleEvents.ndjson(perFile, first: n * perFile).utf8).write(to: file)
                    return file
                }
                let ingest = ["events", "ingest", "--batch-size", "1000", "--quiet"]
                let first = try events(0)
                let start = Self.now()
                try herald.succeed(ingest + [first.path])
                let duration = Self.seconds(since: start)
                var instants = Instants()
                var killed = 0
                defer { Self.report("events ingest", killed: killed) }
                for kill in 0..<Self.kills {
                    let file = try events(kill + 1)
                    let instant = instants.next(below: duration * 1.2)
                    let label = "kill \(kill) at \(String(format: "%.3f", instant)) s (seed \(instants.seed))"
                    let stopped = try herald.run(ingest + [file.path], killAfter: instant)
                    if stopped.killedBy != nil { killed += 1 }
                    var problems: [String] = []
                    if stopped.killedBy == nil && stopped.status != 0 { problems.append("failed: \(stopped)") }
                    let left = try Self.storedEvents(database)
                    if left.differences != 0 { problems.append("rollups disagree with the history after the kill: \(left)") }
                    let again = try herald.run(ingest + [file.path, "--json"])
                    if again.status != 0 { problems.append("the rerun failed: \(again)") }
                    let stored = try Self.storedEvents(database)
                    if stored != (perFile * (kill + 2), 0) { problems.append("after the rerun: \(stored), expected \(perFile * (kill + 2)) events") }
                    tally.record(label, problems.isEmpty ? nil : problems.joined(separator: "; "))
                }
            }
        }
        tally.finish()
    }

    // MARK: side by side

    @Test func runsStartedSideBySide() throws {
        let tally = Tally("runs started side by side")
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: database)
                try LargeSiteFixture.populate(admin, apps: 6, campaignsPerApp: 8)
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                func together(_ runs: [[String]]) -> [CommandResult?] {
                    let results = Collected<CommandResult?>()
                    DispatchQueue.concurrentPerform(iterations: runs.count) { results.add(try? herald.run(runs[$0])) }
                    return results.values
                }
                let site = PublishCommandTests()
                for round in 0..<2 {
                    // Two ingests of one file: every event counted once.
                    let file = root.appendingPathComponent("events-\(round).ndjson")
                    try Data(SampleEvents.ndjson(5000, first: round * 5000).utf8).write(to: file)
                    let ingests = together(Array(repeating: ["events", "ingest", file.path, "--batch-size", "500", "--quiet"], count: 2))
                    let stored = try Self.storedEvents(database)
                    tally.record(
                        "two ingests of one file, round \(round)",
                        ingests.allSatisfy { $0?.status == 0 } && stored == (5000 * (round + 1), 0) ? nil : "\(ingests) \(stored)")

                    // Two whole-site publishes into one folder, one waiting for the other.
                    try Self.setSite(admin, state: round % 2)
                    let out = root.appendingPathComponent("site")
                    let publish = ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--wait"]
                    let reference = root.appendingPathComponent("reference-\(round)")
                    try herald.succeed(["publish", "--out", reference.path, "--at", "2026-06-01T00:00:00Z"])
                    let publishes = together([publish, publish])
                    let same = try site.snapshot(out) == site.snapshot(reference)
                    tally.record(
                        "two publishes into one folder, round \(round)",
                        publishes.allSatisfy { $0?.status == 0 } && same ? nil : "\(publishes) same site: \(same)")

                    // Three applies of different campaign sets of one app: one file's set wins whole.
                    let files = (0..<3).map { Self.campaignsFile(app: "radio", first: $0 * 20, count: 20, suffix: "R\(round)") }
                    let applies = Collected<CommandResult?>()
                    DispatchQueue.concurrentPerform(iterations: 3) {
                        applies.add(try? herald.run(["apply", "-f", "-", "--wait"], stdin: files[$0]))
                    }
                    let exported = try herald.succeed(["export", "--tenant", "acme", "--app", "radio"]).stdout
                    let active = exported.components(separatedBy: "status: active").count - 1
                    tally.record(
                        "three applies of one app, round \(round)",
                        applies.values.allSatisfy { $0?.status == 0 } && active == 20 ? nil : "\(applies.values) active: \(active)")
                }
            }
        }
        tally.finish()
    }
}

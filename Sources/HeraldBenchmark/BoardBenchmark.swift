import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient

/// Review-board benchmark: `campaigns` campaigns (apps of 20, as the publish benchmark's site)
/// with `events` delivery events over the 30 days before the board's moment, and a second
/// tenant as large, with as many events of its own, that a tenant's board must not pay for.
/// Times `herald board` as cron runs it: cold (an empty folder), again with nothing changed,
/// after one campaign's text changed, and one tenant's board; then the largest page.
func runBoardBenchmark(campaigns: Int, events: Int) throws {
    let heraldBinary = try builtHerald()
    let server = try PostgresTestServer.shared()
    let databaseName = try server.createDatabase()
    defer { try? server.dropDatabase(databaseName) }
    let configuration = server.configuration(database: databaseName)
    let admin = try Connection(configuration: configuration)
    try Migrator().migrate(admin)
    let apps = max(1, campaigns / 20)
    let fill = try seconds {
        try LargeSiteFixture.populate(admin, apps: apps, campaignsPerApp: 20)
        // A second tenant as large: copies of the first's rows under another slug.
        try LargeSiteFixture.populate(admin, apps: apps, campaignsPerApp: 20, tenant: "other")
    }
    let at = "2026-06-01T12:34:00Z"
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-board-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let environment = [
        "HERALD_DATABASE_URL": configuration.conninfo, "HERALD_ACTOR": "benchmark", "PATH": "/usr/bin:/bin", "HERALD_TIMING": "1",
    ]

    // Events: each tenant's, over the 30 days up to the board's day, through `herald events ingest`.
    let targets = try admin.query(
        """
        SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS key
        FROM campaigns c JOIN apps a ON a.id = c.app_id JOIN tenants t ON t.id = c.tenant_id ORDER BY c.id
        """
    ).map { row in (try row.decode("tenant", as: String.self), try row.decode("app", as: String.self), try row.decode("key", as: String.self)) }
    let kinds = ["delivered", "impression", "click", "dismiss"]
    var ingestSeconds = 0.0
    for tenant in ["bench", "other"] {
        let mine = targets.filter { $0.0 == tenant }
        guard !mine.isEmpty else { continue }
        let file = scratch.appendingPathComponent("events-\(tenant).ndjson")
        var text = ""
        text.reserveCapacity(events * 220)
        for n in 0..<events {
            let mixed = (n &* 2_654_435_761) & 0x7FFF_FFFF
            let target = mine[(mixed / 7) % mine.count]
            let second = mixed % (30 * 86_400)
            let day = 2 + second / 86_400  // 2026-05-02 … 2026-05-31, then June 1st's morning
            let time = day <= 31
                ? String(format: "2026-05-%02dT%02d:%02d:%02dZ", day, (second / 3_600) % 24, (second / 60) % 60, second % 60)
                : String(format: "2026-06-01T%02d:%02d:%02dZ", (second / 3_600) % 12, (second / 60) % 60, second % 60)
            let id = String(format: "%08x-0000-4000-8000-%012x", tenant == "bench" ? 1 : 2, n)
            text += #"{"event_id":"\#(id)","tenant":"\#(tenant)","app":"\#(target.1)","campaign":"\#(target.2)","device":"d-\#(mixed % 50_000)","kind":"\#(kinds[n % 4])","at":"\#(time)","locale":"\#(n % 3 == 0 ? "de" : "en")","app_version":"3.1.0"}"#
            text += "\n"
        }
        try Data(text.utf8).write(to: file)
        let (elapsed, status) = try timedRun(
            heraldBinary, ["events", "ingest", file.path, "--json"], environment: environment,
            output: scratch.appendingPathComponent("ingest.json"), errors: scratch.appendingPathComponent("ingest.err"))
        guard status == 0 else { throw CLIRunnerError(message: "herald events ingest exited \(status)") }
        ingestSeconds += elapsed
    }
    try admin.execute("VACUUM ANALYZE")
    // HERALD_BOARD_HOLD=1 (for profiling): the fixture's conninfo printed, kept until standard
    // input ends; no board is timed.
    if ProcessInfo.processInfo.environment["HERALD_BOARD_HOLD"] == "1" {
        print("HERALD_DATABASE_URL='\(configuration.conninfo)'")
        fflush(nil)
        while readLine() != nil {}
        return
    }
    print("Herald board benchmark: \(campaigns) campaigns in \(apps) apps, \(events) events; another tenant as large beside it")
    line("fixture built in", String(format: "%.1f s, events ingested in %.1f s", fill, ingestSeconds))

    struct BoardSummary: Decodable {
        let written: [String]
        let removed: [String]
        let unchanged: Int
    }
    func board(_ out: URL, _ extra: [String] = []) throws -> (Double, BoardSummary) {
        let output = scratch.appendingPathComponent("board.json")
        let errors = scratch.appendingPathComponent("board.err")
        let (elapsed, status) = try timedRun(
            heraldBinary, ["board", "--out", out.path, "--at", at, "--json"] + extra, environment: environment, output: output, errors: errors)
        guard status == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw CLIRunnerError(message: "herald board exited \(status): \(message)")
        }
        if let text = try? String(contentsOf: errors, encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("timing: ") { print("    " + line) }
        }
        return (elapsed, try JSONDecoder().decode(BoardSummary.self, from: Data(contentsOf: output)))
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    let site = scratch.appendingPathComponent("review")
    let (cold, coldSummary) = try board(site)
    line("cold board (whole site)", String(format: "%.2f s  (%d files written)   goal at 1,000 campaigns: ≤ 3 s", cold, coldSummary.written.count))
    var quiet: [Double] = []
    var quietWritten = 0
    for _ in 0..<3 {
        let (elapsed, summary) = try board(site)
        quiet.append(elapsed)
        quietWritten += summary.written.count + summary.removed.count
    }
    line("nothing changed (median of 3)", String(format: "%.3f s  (%d files written)   goal at 1,000: ≤ 0.5 s", median(quiet), quietWritten))

    try admin.execute(
        """
        UPDATE alert_contents SET title = title || ' (edited)'
        WHERE locale = 'de' AND campaign_id = (SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id
                                               JOIN tenants t ON t.id = c.tenant_id
                                               WHERE t.slug = 'bench' AND a.slug = $1 AND c.key = 'c-4')
        """, ["app-\(max(1, apps / 2))"])
    let (edit, editSummary) = try board(site)
    line("one alert's German title changed", String(format: "%.3f s  (%d files written: %@)", edit, editSummary.written.count,
                                                   editSummary.written.prefix(6).joined(separator: ", ")))

    let scoped = scratch.appendingPathComponent("review-bench")
    let (tenantCold, tenantSummary) = try board(scoped, ["--tenant", "bench"])
    line("cold board of one tenant (--tenant bench)", String(format: "%.2f s  (%d files written)", tenantCold, tenantSummary.written.count))
    let (tenantQuiet, _) = try board(scoped, ["--tenant", "bench"])
    line("  again, nothing changed", String(format: "%.3f s", tenantQuiet))

    // Page sizes.
    var largest = (path: "", bytes: 0)
    var total = 0
    var pages = 0
    let root = site.appendingPathComponent("board")
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where path.hasSuffix(".html") {
        let size = (try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.size] as? Int) ?? 0
        pages += 1
        total += size
        if size > largest.bytes { largest = (path, size) }
    }
    line("pages", String(format: "%d, %.1f MB in all; largest %@ %.2f MB   goal: none over 1 MB", pages, Double(total) / 1e6,
                         largest.path, Double(largest.bytes) / 1e6))
}

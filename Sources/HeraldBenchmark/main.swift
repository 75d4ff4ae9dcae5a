import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient

// Benchmarks; print numbers, assert nothing. Each starts a throwaway PostgreSQL and times
// the real `herald` binary built next to this one.
//   herald-benchmark [APPS] [CAMPAIGNS]     publish: APPS apps × 3 locales × CAMPAIGNS active
//                                           campaigns (default 1000 20), the way cron runs it
//   herald-benchmark events [EVENTS] [TOTAL] delivery events: ingest EVENTS (default 1,000,000)
//                                           beside a plain COPY, then grow to TOTAL (default
//                                           10,000,000) and time campaign_summary
//   herald-benchmark apply [APPS] [CAMPAIGNS] [RUNS]  campaigns as code: apply the exported site
//                                           (default 1000 20) into an empty database, again
//                                           unchanged, with one change, and export (RUNS times, default 3)
//   herald-benchmark collect [SECONDS] [CONNECTIONS] [RUNS]  `herald collect` under wrk (default 120 1000 1),
//                                           beside `events ingest` of as many events from a file
//   herald-benchmark watch [APPS] [CAMPAIGNS] [EDITS]  `herald publish --watch`: commit → file latency of
//                                           EDITS edits (default 200) at one per 100 ms and from ten
//                                           editors, starts_at → file, idle CPU over a minute
//   herald-benchmark board [CAMPAIGNS] [EVENTS]  the review board: cold, nothing changed, one edit,
//                                           one tenant's (default 1000 campaigns, 200,000 events)
//   herald-benchmark serve [APPS] [CAMPAIGNS] the publish fixture in a throwaway server, its conninfo
//                                           printed, kept until standard input ends (for profiling)

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let apps = arguments.first ?? 1000
let campaigns = arguments.dropFirst().first ?? 20
let at = "2026-06-01T00:00:00Z"

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func line(_ label: String, _ value: String) {
    print(label.padding(toLength: 46, withPad: " ", startingAt: 0) + value)
}

/// The `herald` binary beside this one (scripts/benchmark-* build both).
func builtHerald() throws -> URL {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("herald")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        FileHandle.standardError.write(Data("build herald next to herald-benchmark first (scripts/benchmark-publish does)\n".utf8))
        exit(69)
    }
    return binary
}

/// The publish fixture, kept for a profiler's runs of `herald publish` until standard input ends.
func serveFixture() throws {
    let server = try PostgresTestServer.shared()
    let databaseName = try server.createDatabase()
    let configuration = server.configuration(database: databaseName)
    let admin = try Connection(configuration: configuration)
    try Migrator().migrate(admin)
    try LargeSiteFixture.populate(admin, apps: apps, campaignsPerApp: campaigns)
    try admin.execute("VACUUM ANALYZE")
    print("HERALD_DATABASE_URL='\(configuration.conninfo)'")
    fflush(nil)
    while readLine() != nil {}
    try? server.dropDatabase(databaseName)
}

/// The whole run; errors end it with a message (and `exit`, so the throwaway server is stopped).
func runBenchmark() throws {
    let heraldBinary = try builtHerald()

    let server = try PostgresTestServer.shared()
    let databaseName = try server.createDatabase()
    let configuration = server.configuration(database: databaseName)
    let admin = try Connection(configuration: configuration)
    try Migrator().migrate(admin)
    let fill = try seconds { try LargeSiteFixture.populate(admin, apps: apps, campaignsPerApp: campaigns) }
    // A database at rest, as autovacuum leaves it: the first reader of freshly loaded rows
    // would otherwise pay for setting their hint bits, and only the first cold publish reads first.
    try admin.execute("VACUUM ANALYZE")
    print("Herald publish benchmark: \(apps) apps × 3 locales × \(campaigns) campaigns (\(apps * campaigns) campaigns)")
    line("fixture built in", String(format: "%.1f s", fill))

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("site")

    struct PublishSummary: Decodable {
        let written: [String]
        let removed: [String]
        let unchanged: Int
    }

    /// One `herald publish` run, timed from process start to exit, as cron sees it.
    func publish(timing: Bool = false, full: Bool = false, into out: URL = out) throws -> (Double, PublishSummary) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outputURL = scratch.appendingPathComponent("publish.json")
        let errorURL = scratch.appendingPathComponent("publish.err")
        let (elapsed, status) = try timedRun(
            heraldBinary, ["publish", "--out", out.path, "--at", at, "--json"] + (full ? ["--full"] : []),
            environment: [
                "HERALD_DATABASE_URL": configuration.conninfo, "HERALD_ACTOR": "benchmark", "PATH": "/usr/bin:/bin",
                "HERALD_TIMING": timing ? "1" : "0",
            ],
            output: outputURL, errors: errorURL)
        if timing, let text = try? String(contentsOf: errorURL, encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("timing: ") { print("    " + line) }
        }
        guard status == 0 else {
            let said = (try? String(contentsOf: errorURL, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: "\n") ?? ""
            throw CLIRunnerError(message: "herald publish exited \(status):\n\(said)")
        }
        return (elapsed, try JSONDecoder().decode(PublishSummary.self, from: Data(contentsOf: outputURL)))
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The floor: read the same rows (no decoding into campaigns) and write the same bytes.
    func measureFloor(into floorOut: URL) throws -> (read: Double, write: Double) {
        let published = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }
            .compactMap { path -> (String, Data)? in
                let url = out.appendingPathComponent(path)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
                return (path, try? Data(contentsOf: url)).1.map { (path, $0) }
            }
        var copied = 0
        let read = try seconds {
            let reader = try Connection(configuration: configuration)
            try reader.transaction(.repeatableRead, readOnly: true) { tx in
                for table in [
                    "tenants", "apps", "campaigns", "alert_message_keys", "campaign_conditions", "banner_contents", "banner_views",
                    "alert_contents", "story_contents", "story_pages",
                ] {
                    // Constant table names; every value crosses the wire and is copied out once
                    // (each read as a String: the least any publisher does with a value it uses;
                    // the client library no longer copies values it is not asked for).
                    let rows = try tx.query("SELECT * FROM \(UnsafeSQL(table))")
                    let columns = rows.columns.map { rows.column($0) }
                    for row in rows {
                        for column in columns { copied += try row.decode(column, as: String?.self)?.utf8.count ?? 0 }
                    }
                }
            }
        }
        guard copied > 0 else { throw CLIRunnerError(message: "the floor read no values") }
        // Plain POSIX writes: each folder created once, each file written in place (no temp file,
        // no comparison) — the least any writer must do.
        sync()
        let write = try seconds {
            var made: Set<String> = []
            for (path, data) in published {
                let full = floorOut.path + "/" + path
                var folder = ""
                for part in full.split(separator: "/").dropLast() {
                    folder += "/" + part
                    if made.insert(folder).inserted { mkdir(folder, 0o755) }
                }
                let descriptor = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard descriptor >= 0 else { throw CLIRunnerError(message: "cannot write \(full)") }
                _ = data.withUnsafeBytes { buffer in buffer.baseAddress.map { Foundation.write(descriptor, $0, buffer.count) } }
                close(descriptor)
            }
        }
        return (read, write)
    }

    // Warm-up, not timed: as many files as the site, written once and kept. The first large
    // write after a big delete (an earlier run's cleanup) pays for the filesystem's inode
    // bookkeeping; without this, whichever of publish and floor came first would pay it.
    let warmUp = scratch.appendingPathComponent("warm-up")
    let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 700)
    for app in 0..<apps {
        let folder = warmUp.appendingPathComponent("app-\(app)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in 0..<36 {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("\(file).json").path, contents: Data(filler))
        }
    }

    // Cold: an empty folder. Dirty pages from earlier steps are flushed before each timed
    // write (here and for the floor), so neither pays for the other's writeback.
    sync()
    let (cold, coldSummary) = try publish(timing: true)
    line("cold publish", String(format: "%.2f s  (%d files written)", cold, coldSummary.written.count))
    // This disk's speed drifts from minute to minute, so the floor is measured right after the
    // cold publish, and both once more, in other folders; the ratio uses the sums.
    let (floorRead, floorWrite) = try measureFloor(into: scratch.appendingPathComponent("floor-1"))
    sync()
    let (cold2, _) = try publish(timing: true, into: scratch.appendingPathComponent("site-2"))
    let (floorRead2, floorWrite2) = try measureFloor(into: scratch.appendingPathComponent("floor-2"))
    line("cold publish, again (another folder)", String(format: "%.2f s", cold2))
    line(
        "floor: read the rows + write the bytes",
        String(format: "%.2f s then %.2f s  (read %.2f + %.2f s, write %.2f + %.2f s)",
               floorRead + floorWrite, floorRead2 + floorWrite2, floorRead, floorRead2, floorWrite, floorWrite2))
    line(
        "cold publish / floor",
        String(format: "%.2f×   goal (#16): ≤ 1.3× on disk, ≤ 1.5× on tmpfs", (cold + cold2) / (floorRead + floorWrite + floorRead2 + floorWrite2)))

    // No change, five times (a median of three moved by one slow start). Each run, as the cold
    // ones, starts with the earlier steps' dirty pages flushed: its one commit would otherwise
    // wait behind the floor's writeback.
    var quiet: [Double] = []
    var quietWritten = 0
    for _ in 0..<5 {
        sync()
        let (elapsed, summary) = try publish(timing: quiet.count == 4)
        quiet.append(elapsed)
        quietWritten += summary.written.count + summary.removed.count
    }
    line(
        "no-change republish (median of 5)",
        String(format: "%.3f s  (%@; %d files written)   goal (#25): 0 files, ≤ 0.05 s", median(quiet),
               quiet.map { String(format: "%.3f", $0) }.joined(separator: ", "), quietWritten))

    // --full with nothing changed: the whole site read, compiled and compared, nothing written.
    var full: [Double] = []
    var fullWritten = 0
    for _ in 0..<3 {
        let (elapsed, summary) = try publish(timing: full.count == 2, full: true)
        full.append(elapsed)
        fullWritten += summary.written.count + summary.removed.count
    }
    line(
        "--full, nothing changed (median of 3)",
        String(format: "%.3f s  (%@; %d files written)", median(full), full.map { String(format: "%.3f", $0) }.joined(separator: ", "), fullWritten))

    // One edit, five times: the German title of one alert of one app (another app each time).
    var edits: [Double] = []
    var editedFiles = 0
    var editedApps: Set<String> = []
    for round in 0..<5 {
        try admin.execute(
            """
            UPDATE alert_contents SET title = title || ' (edited)'
            WHERE locale = 'de' AND campaign_id = (SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id
                                                   WHERE a.slug = $1 AND c.key = 'c-4')
            """, ["app-\(apps / 2 + round)"])
        sync()
        let (edit, editSummary) = try publish(timing: round == 4)
        edits.append(edit)
        editedFiles += editSummary.written.count
        editedApps.formUnion(editSummary.written.map { $0.split(separator: "/").prefix(2).joined(separator: "/") })
    }
    line(
        "one-edit republish (median of 5)",
        String(format: "%.3f s  (%@; %d files written, apps: %@)   goal (#25): ≤ 0.1 s, only that app", median(edits),
               edits.map { String(format: "%.3f", $0) }.joined(separator: ", "), editedFiles, editedApps.sorted().joined(separator: ",")))

    try? server.dropDatabase(databaseName)
}

do {
    if CommandLine.arguments.dropFirst().first == "apply" {
        try runApplyBenchmark(apps: apps, campaignsPerApp: campaigns, runs: max(1, arguments.dropFirst(2).first ?? 3))
    } else if CommandLine.arguments.dropFirst().first == "watch" {
        try runWatchBenchmark(
            apps: arguments.first ?? 1000, campaignsPerApp: arguments.dropFirst().first ?? 20, edits: max(10, arguments.dropFirst(2).first ?? 200))
    } else if CommandLine.arguments.dropFirst().first == "serve" {
        try serveFixture()
    } else if CommandLine.arguments.dropFirst().first == "collect" {
        try runCollectBenchmark(
            seconds: arguments.first ?? 120, connections: arguments.dropFirst().first ?? 1_000, runs: max(1, arguments.dropFirst(2).first ?? 1))
    } else if CommandLine.arguments.dropFirst().first == "board" {
        try runBoardBenchmark(campaigns: arguments.first ?? 1_000, events: arguments.dropFirst().first ?? 200_000)
    } else if CommandLine.arguments.dropFirst().first == "events" {
        try runEventsBenchmark(events: arguments.first ?? 1_000_000, total: arguments.dropFirst().first ?? 10_000_000)
    } else {
        try runBenchmark()
    }
} catch {
    FileHandle.standardError.write(Data("herald-benchmark: \(error)\n".utf8))
    exit(1)
}

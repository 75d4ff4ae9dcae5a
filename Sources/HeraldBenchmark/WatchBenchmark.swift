import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Synchronization

// `herald-benchmark watch [APPS] [CAMPAIGNS] [EDITS]`: a real `herald publish --watch` over the
// publish fixture, timed from the COMMIT of an edit made by another process (this one) to the
// moment the new file is renamed into place (inotify's IN_MOVED_TO, read on a thread of its
// own); from a campaign's starts_at to its file; and the watcher's CPU over an idle minute.

/// Renames into watched folders, as they happen: (folder, name) → the times seen.
final class RenameLog: @unchecked Sendable {
    // The descriptor and the folder table are set before the reader starts; the times behind a lock.
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let seen = Mutex<[String: [UInt64]]>([:])

    init() throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CLIRunnerError(message: "inotify_init1 failed: \(String(cString: strerror(errno)))") }
    }

    func watch(_ folder: String) throws {
        let watch = inotify_add_watch(descriptor, folder, UInt32(IN_MOVED_TO))
        guard watch >= 0 else { throw CLIRunnerError(message: "cannot watch \(folder): \(String(cString: strerror(errno)))") }
        folders[watch] = folder
    }

    /// Reads events forever on a thread of its own.
    func start() {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                let now = DispatchTime.now().uptimeNanoseconds
                guard count > 0 else { if errno == EINTR { continue } else { return } }
                var offset = 0
                var arrived: [String] = []
                buffer.withUnsafeBytes { bytes in
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let name = String(decoding: bytes[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }, as: UTF8.self)
                        if let folder = folders[event.wd] { arrived.append(folder + "/" + name) }
                        offset = nameStart + Int(event.len)
                    }
                }
                seen.withLock { seen in for path in arrived { seen[path, default: []].append(now) } }
            }
        }
        thread.start()
    }

    /// The first rename of `path` at or after `after` (uptime nanoseconds), waiting up to `seconds`.
    func first(_ path: String, after: UInt64, within seconds: Double) -> UInt64? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let time = seen.withLock({ $0[path]?.first { $0 >= after } }) { return time }
            usleep(2_000)
        }
        return nil
    }
}

func runWatchBenchmark(apps: Int, campaignsPerApp: Int, edits: Int) throws {
    let heraldBinary = try builtHerald()
    let server = try PostgresTestServer.shared()
    let databaseName = try server.createDatabase()
    let configuration = server.configuration(database: databaseName)
    let admin = try Connection(configuration: configuration)
    try Migrator().migrate(admin)
    try LargeSiteFixture.populate(admin, apps: apps, campaignsPerApp: campaignsPerApp)
    try admin.execute("VACUUM ANALYZE")
    print("Herald watch benchmark: \(apps) apps × 3 locales × \(campaignsPerApp) campaigns (\(apps * campaignsPerApp) campaigns)")

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-watch-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("site")
    // Kept after the run (the watcher's own line per run, for a closer look).
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("herald-watch-bench-\(getpid()).log")

    let watcher = Process()
    watcher.executableURL = heraldBinary
    watcher.arguments = ["publish", "--watch", "--out", out.path]
    watcher.environment = ["HERALD_DATABASE_URL": configuration.conninfo, "HERALD_ACTOR": "benchmark", "PATH": "/usr/bin:/bin"]
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    watcher.standardError = try FileHandle(forWritingTo: log)
    watcher.standardOutput = FileHandle.nullDevice
    try watcher.run()
    defer { if watcher.isRunning { watcher.terminate() } }
    func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    let started = Date()
    while !logText().contains("published run"), Date().timeIntervalSince(started) < 120 {
        guard watcher.isRunning else { throw CLIRunnerError(message: "the watcher ended:\n\(logText())") }
        usleep(50_000)
    }
    line("first publish (cold, whole site)", String(format: "%.2f s", Date().timeIntervalSince(started)))

    let renames = try RenameLog()
    for app in 1...apps {
        try renames.watch(out.path + "/bench/app-\(app)/de")
        try renames.watch(out.path + "/bench/app-\(app)/de/stories")
    }
    renames.start()

    /// Edits the German title of app `app`'s alert c-4 on `editor`; the latency from its COMMIT
    /// to its file's rename, in milliseconds (nil: not seen within 10 s).
    let sitePath = out.path
    let edit: @Sendable (Int, Connection, String) throws -> Double? = { app, editor, marker in
        try editor.execute(
            """
            UPDATE alert_contents SET title = $2
            WHERE locale = 'de' AND campaign_id = (SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id
                                                   WHERE a.slug = $1 AND c.key = 'c-4')
            """, ["app-\(app)", marker])
        let committed = DispatchTime.now().uptimeNanoseconds
        return renames.first(sitePath + "/bench/app-\(app)/de/notifications.plist", after: committed, within: 10)
            .map { Double($0 - committed) / 1e6 }
    }

    func summary(_ latencies: [Double?]) -> String {
        let seen = latencies.compactMap { $0 }.sorted()
        guard !seen.isEmpty else { return "nothing published" }
        func percentile(_ p: Double) -> Double { seen[min(seen.count - 1, Int((Double(seen.count) * p).rounded(.up)) - 1)] }
        return String(
            format: "p50 %.0f ms, p99 %.0f ms, max %.0f ms  (%d edits%@)", percentile(0.5), percentile(0.99), seen.last ?? 0,
            latencies.count, seen.count < latencies.count ? ", \(latencies.count - seen.count) never seen" : "")
    }

    // One editor, one edit per 100 ms; each edit waits for nothing (the next comes on time).
    let sequential = Mutex<[Double?]>([])
    let sequentialThreads = (0..<edits).map { index -> Thread in
        Thread {
            let editor = try? Connection(configuration: configuration)
            let result = editor.flatMap { try? edit(1 + index % apps, $0, "seq \(index)") }
            sequential.withLock { $0.append(result ?? nil) }
        }
    }
    for thread in sequentialThreads {
        thread.start()
        usleep(100_000)
    }
    while sequential.withLock({ $0.count }) < edits { usleep(20_000) }
    line("commit → file, one edit per 100 ms", summary(sequential.withLock { $0 }) + "   goal: p50 ≤ 300 ms, p99 < 1 s")

    // Ten editors at once, each editing its own apps as fast as one edit per 100 ms.
    let concurrent = Mutex<[Double?]>([])
    let perEditor = max(1, edits / 10)
    let editors = (0..<10).map { editorIndex -> Thread in
        Thread {
            guard let editor = try? Connection(configuration: configuration) else { return }
            for round in 0..<perEditor {
                let app = 1 + (editorIndex * perEditor + round + edits) % apps
                let result = try? edit(app, editor, "con \(editorIndex) \(round)")
                concurrent.withLock { $0.append(result ?? nil) }
                usleep(100_000)
            }
        }
    }
    editors.forEach { $0.start() }
    while concurrent.withLock({ $0.count }) < perEditor * 10 { usleep(20_000) }
    line("commit → file, ten concurrent editors", summary(concurrent.withLock { $0 }) + "   goal: p50 ≤ 300 ms, p99 < 1 s")

    // A story scheduled to start 3 s ahead, five times: from its starts_at to its file.
    var boundaries: [Double?] = []
    for sample in 0..<5 {
        let app = apps - sample
        let row = try admin.query(
            """
            UPDATE campaigns SET starts_at = date_trunc('milliseconds', clock_timestamp()) + interval '3 s'
            WHERE key = 'c-1' AND app_id = (SELECT id FROM apps WHERE slug = $1)
            RETURNING extract(epoch FROM starts_at - clock_timestamp()) * 1000 AS ahead
            """, ["app-\(app)"])[0]
        let ahead = try row.decode("ahead", as: Double.self)
        let startsAt = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, ahead) * 1e6)
        let file = out.path + "/bench/app-\(app)/de/stories/c-1.json"
        boundaries.append(renames.first(file, after: startsAt - 50_000_000, within: 10).map { (Double($0) - Double(startsAt)) / 1e6 })
    }
    line(
        "starts_at → file (5 stories)",
        boundaries.map { $0.map { String(format: "%.0f ms", $0) } ?? "never" }.joined(separator: ", ") + "   goal: < 1 s")

    // Idle: a minute with nothing to do.
    sleep(2)
    func cpuTicks() -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(watcher.processIdentifier)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        // After the command's ")": state is field 0, utime 11, stime 12.
        return fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    }
    let before = cpuTicks()
    sleep(60)
    let used = Double(cpuTicks() - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    line("idle watcher, CPU over 60 s", String(format: "%.3f s (%.3f%% of a core)   goal: < 1%%", used, used / 60 * 100))

    kill(watcher.processIdentifier, SIGTERM)
    watcher.waitUntilExit()
    line("SIGTERM", "exit \(watcher.terminationStatus)")
    let runs = logText().split(separator: "\n").filter { $0.contains("published run") }
    // "published run N (reason, A app(s)) in M ms: …": how long the runs themselves took.
    let durations = runs.dropFirst().compactMap { run -> Int? in
        guard let range = run.range(of: " in ") else { return nil }
        return Int(run[range.upperBound...].prefix { $0.isNumber })
    }.sorted()
    line("runs that changed files", "\(runs.count)")
    if !durations.isEmpty {
        line(
            "run time (all but the first)",
            "p50 \(durations[durations.count / 2]) ms, max \(durations.last ?? 0) ms   (the watcher's log: \(log.path))")
    }
    try? server.dropDatabase(databaseName)
}

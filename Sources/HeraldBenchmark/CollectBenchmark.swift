import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PostgresServer

/// `herald-benchmark collect [SECONDS] [CONNECTIONS] [RUNS]`: devices (wrk with
/// scripts/collect-load.lua, CONNECTIONS connections, batches of 20) against a real `herald
/// collect` on a throwaway PostgreSQL that is durable as in production (fsync and
/// synchronous_commit on: an acknowledgement waits for its commit's flush, shared by the batches
/// of that commit). Per run: paced at 20,000 events/s (acknowledgement latency), then as fast
/// as the collector answers (events/s stored); the collector's peak memory; and `events ingest`
/// of the same number of events from one file, the ceiling.
func runCollectBenchmark(seconds phase: Int, connections: Int, runs: Int) throws {
    let herald = try builtHerald()
    let directory = URL(fileURLWithPath: "/tmp/herald-collect-bench-\(getpid())")
    let server = LocalPostgresServer(
        directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment))
    server.settings = [
        "shared_buffers": "1GB", "max_connections": "100", "max_wal_size": "8GB", "checkpoint_timeout": "30min",
        "fsync": "on", "synchronous_commit": "on",
    ]
    // HERALD_COLLECT_WARM_WAL=GB (off by default, for comparing): that much WAL written and
    // checkpointed before the runs, so that they reuse recycled WAL files as a server that has
    // been running does, where a fresh one zero-fills and syncs a new 16 MB file every second
    // or so under this load, holding up every commit meanwhile.
    let warmWAL = Int(ProcessInfo.processInfo.environment["HERALD_COLLECT_WARM_WAL"] ?? "") ?? 0
    if warmWAL > 0 { server.settings["min_wal_size"] = "\(warmWAL + 1)GB" }
    // HERALD_COLLECT_AUTOVACUUM=off (for finding where the latency's tail comes from): the
    // tables start empty, so autovacuum and autoanalyze run again and again as they grow.
    if let autovacuum = ProcessInfo.processInfo.environment["HERALD_COLLECT_AUTOVACUUM"] {
        server.settings["autovacuum"] = autovacuum == "off" ? "off" : "on"
        print("(autovacuum \(server.settings["autovacuum"] ?? "on"): HERALD_COLLECT_AUTOVACUUM)")
    }
    try server.initializeIfNeeded()
    try server.start()
    defer {
        try? server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
    let admin = try Connection(configuration: server.configuration(database: "postgres"))
    for name in ["collect", "ingest"] { try admin.execute("CREATE DATABASE \(UnsafeSQL(name))") }
    if warmWAL > 0 {
        try admin.execute("CREATE TABLE wal_warmup AS SELECT g, repeat('x', 900) AS filler FROM generate_series(1, \(UnsafeSQL(String(warmWAL * 1_000_000)))) g")
        try admin.execute("DROP TABLE wal_warmup")
        try admin.execute("CHECKPOINT")
        print("(\(warmWAL) GB of WAL written and checkpointed first: HERALD_COLLECT_WARM_WAL)")
    }
    let collectDatabase = server.configuration(database: "collect")
    let ingestDatabase = server.configuration(database: "ingest")
    let cli = HeraldCLI(database: collectDatabase)
    for database in [collectDatabase, ingestDatabase] {
        let each = HeraldCLI(database: database)
        try each.succeed(["migrate"])
        try each.succeed(["apply", "-f", "examples/campaigns.yaml"])
    }
    let key = String(try cli.succeed(["app", "key", "create", "weather", "--tenant", "acme"]).stdout.split(separator: "\n").last ?? "")

    print("Herald collect benchmark: \(connections) connections, batches of 20 events, \(phase) s per phase, \(runs) run(s)")
    print("(PostgreSQL on the same machine, fsync and synchronous_commit on; wrk on the same 2 cores)")
    let collector = try CollectorProcess(herald: herald, database: collectDatabase)
    defer { collector.stop() }
    var stored = 0
    for run in 1...runs {
        // Paced first, as a fleet sends: each connection sends a batch, then waits a random time
        // (collect-load.lua), so that all of them offer ~20,000 events/s, as independent devices
        // do. A later run's starts from a settled server, as the first does: the millions of rows
        // the last run stored vacuumed, its dirty pages checkpointed and written out (else its
        // latency would be that of autovacuum and the kernel's writeback catching up).
        if run > 1 {
            let settle = try Connection(configuration: collectDatabase)
            try settle.execute("VACUUM (ANALYZE)")
            try settle.execute("CHECKPOINT")
            sync()
        }
        let before = try count(collectDatabase)
        let commitsBefore = try CollectorCommits.read(port: collector.port)
        let cpuBefore = collector.cpuSeconds()
        let delay = max(0, Int(Double(connections) * 20.0 / 20_000.0 * 1000.0) - 5)
        let paced = try wrk(port: collector.port, key: key, connections: connections, seconds: phase, delay: delay, run: run * 2 + 1)
        let afterPaced = try count(collectDatabase)
        stored += afterPaced - before
        let pacedRate = Double(afterPaced - before) / paced.seconds
        line("run \(run): paced (mean \(delay) ms between batches)", String(format: "%.0f events/s stored (%@)", pacedRate, paced.statuses))
        line("  acknowledgement latency", String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms", paced.p50, paced.p99, paced.max))
        let commitsPaced = try CollectorCommits.read(port: collector.port)
        line("  the collector's commits", commitsPaced.since(commitsBefore).summary)
        let cpuPaced = collector.cpuSeconds()
        line("  the collector's CPU", String(format: "%.0f%% of a core, %.0f µs a request", (cpuPaced - cpuBefore) / paced.seconds * 100, (cpuPaced - cpuBefore) / Double(max(1, paced.requests)) * 1e6))
        // HERALD_COLLECT_PACED_ONLY=1 (for comparing changes quickly): the paced phase alone.
        if ProcessInfo.processInfo.environment["HERALD_COLLECT_PACED_ONLY"] != nil { continue }
        // Then as fast as the collector answers: how many events a second it stores.
        let fast = try wrk(port: collector.port, key: key, connections: connections, seconds: phase, delay: 0, run: run * 2)
        let after = try count(collectDatabase)
        stored += after - afterPaced
        let rate = Double(after - afterPaced) / fast.seconds
        line("run \(run): as fast as answered", String(format: "%.0f events/s stored (%d requests, %@)", rate, fast.requests, fast.statuses))
        line("  acknowledgement latency", String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms", fast.p50, fast.p99, fast.max))
        line("  the collector's commits", try CollectorCommits.read(port: collector.port).since(commitsPaced).summary)
        line("  collector peak memory (VmHWM)", "\(collector.peakMemoryMB()) MB")
        fflush(nil)

        // The ceiling: the same number of events (of the fast phase) through `events ingest` of one file.
        let events = min(after - afterPaced, 5_000_000)
        let file = directory.appendingPathComponent("events-\(run).ndjson")
        try writeEvents(events, run: run, to: file)
        let ingest = HeraldCLI(database: ingestDatabase)
        let started = DispatchTime.now().uptimeNanoseconds
        try ingest.succeed(["events", "ingest", file.path, "--quiet"])
        let ingestSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let ingestRate = Double(events) / ingestSeconds
        try? FileManager.default.removeItem(at: file)
        line("run \(run): events ingest of one file", String(format: "%.0f events/s (%d events in %.1f s)", ingestRate, events, ingestSeconds))
        line("  collector / ingest", String(format: "%.2f×", rate / ingestRate))
        fflush(nil)
    }
    let summary = try CollectorFixtureTotals.read(collectDatabase)
    line("stored in all", "\(stored) new events; event_ids \(summary.ids), campaign_summary \(summary.summary)")
    let status = collector.stop()
    line("SIGTERM", "exit \(status.map(String.init) ?? "?")")
}

private func count(_ database: ConnectionConfiguration) throws -> Int {
    try Connection(configuration: database).query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
}

private enum CollectorFixtureTotals {
    static func read(_ database: ConnectionConfiguration) throws -> (ids: Int, summary: Int) {
        let connection = try Connection(configuration: database)
        let ids: Int = try connection.query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
        try connection.execute("SET ROLE herald_operator")
        let summary: Int = try connection.query(
            "SELECT coalesce(sum(delivered + impressions + clicks + dismissals), 0)::bigint AS n FROM reporting.campaign_summary")[0]
            .decode("n")
        return (ids, summary)
    }
}

/// `count` events as the Lua script makes them (tenant and app written out, as a file has them).
private func writeEvents(_ count: Int, run: Int, to file: URL) throws {
    let campaigns = ["spring-sale", "welcome", "tour"]
    let kinds = ["delivered", "impression", "click", "dismiss"]
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    // The last five days (UTC), in turn, as the Lua script dates them.
    let days = (1...5).map { RecentDays.day($0) }
    var text = ""
    for n in 1...max(1, count) {
        text += String(
            format: #"{"event_id":"%08x-%04x-4000-8000-%012x","tenant":"acme","app":"weather","campaign":"%@","device":"d-%d","kind":"%@","at":"%@T12:00:00Z","locale":"en","app_version":"3.1.0"}"#,
            0xFFFF, run, n, campaigns[n % 3], (7919 + n) % 50_000, kinds[n % 4], days[n % 5]) + "\n"
        if text.utf8.count > 1 << 20 {
            try handle.write(contentsOf: Data(text.utf8))
            text = ""
        }
    }
    try handle.write(contentsOf: Data(text.utf8))
}

/// One wrk run's numbers.
private struct WrkResult {
    var requests = 0
    var seconds = 0.0
    var p50 = 0.0
    var p99 = 0.0
    var max = 0.0
    var statuses = ""
}

private func wrk(port: Int, key: String, connections: Int, seconds: Int, delay: Int, run: Int) throws -> WrkResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "wrk", "-t2", "-c\(connections)", "-d\(seconds)s", "--timeout", "30s", "-s", "scripts/collect-load.lua",
        "http://127.0.0.1:\(port)/v1/events",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["HERALD_KEY"] = key
    environment["HERALD_DELAY_MS"] = String(delay)
    environment["HERALD_RUN"] = String(run)
    environment["HERALD_CONNECTIONS_PER_THREAD"] = String(connections / 2)  // wrk -t2 splits them evenly
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") }) else {
        throw CLIRunnerError(message: "wrk printed no result:\n\(text)")
    }
    var result = WrkResult()
    for field in line.split(separator: " ").dropFirst() {
        let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        switch parts[0] {
        case "requests": result.requests = Int(parts[1]) ?? 0
        case "duration_us": result.seconds = (Double(parts[1]) ?? 0) / 1e6
        case "p50_us": result.p50 = (Double(parts[1]) ?? 0) / 1000
        case "p99_us": result.p99 = (Double(parts[1]) ?? 0) / 1000
        case "max_us": result.max = (Double(parts[1]) ?? 0) / 1000
        case "statuses": result.statuses = "status " + parts[1]
        default: break
        }
    }
    if let errors = line.split(separator: " ").first(where: { $0.hasPrefix("errors=") }), errors != "errors=0" {
        result.statuses += ", wrk \(errors)"
    }
    return result
}

/// `herald collect` on 127.0.0.1 and a free port.
private final class CollectorProcess {
    let process = Process()
    let port: Int
    private let log: URL

    init(herald: URL, database: ConnectionConfiguration) throws {
        log = URL(fileURLWithPath: "/tmp/herald-collect-bench-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = herald
        // HERALD_COLLECT_CONNECTIONS: the collector's --connections (default its own), and
        // HERALD_COLLECT_MAX_EVENTS_PER_COMMIT its --max-events-per-commit, and
        // HERALD_COLLECT_SWIFT_POOL=1 its --swift-pool (tasks off NIO's loops), to compare.
        let environment = ProcessInfo.processInfo.environment
        process.arguments = ["collect", "--listen", "127.0.0.1:0"]
            + (environment["HERALD_COLLECT_CONNECTIONS"].map { ["--connections", $0] } ?? [])
            + (environment["HERALD_COLLECT_MAX_EVENTS_PER_COMMIT"].map { ["--max-events-per-commit", $0] } ?? [])
            + (environment["HERALD_COLLECT_SWIFT_POOL"] == "1" ? ["--swift-pool"] : [])
        process.environment = HeraldCLI(database: database).environment
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on 127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last ?? "")
            } else {
                usleep(20_000)
            }
        }
        guard let found else { throw CLIRunnerError(message: "herald collect did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")") }
        port = found
    }

    /// User and system CPU time the collector used so far (/proc/PID/stat), in seconds.
    func cpuSeconds() -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // Fields after the command (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmHWM of /proc/PID/status, in MB.
    func peakMemoryMB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let kilobytes = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return (kilobytes ?? 0) / 1024
    }

    @discardableResult
    func stop() -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
        return process.terminationStatus
    }
}

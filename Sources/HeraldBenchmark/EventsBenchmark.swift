import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PostgresServer

/// Delivery-events benchmark: `herald events ingest` of `events` generated events beside a
/// plain COPY of the same rows into the same table, in the same run; then the history grown
/// to `total` events, the questions reporting is for timed as an analyst (ReportingQuestions),
/// and `reporting.campaign_summary` timed beside the same totals by GROUP BY over the raw table.
func runEventsBenchmark(events: Int, total: Int) throws {
    let heraldBinary = try builtHerald()
    let server = try PostgresTestServer.shared()
    let databaseName = try server.createDatabase()
    defer { try? server.dropDatabase(databaseName) }
    let configuration = server.configuration(database: databaseName)
    let admin = try Connection(configuration: configuration)
    try Migrator().migrate(admin)
    try LargeSiteFixture.populate(admin, apps: 50, campaignsPerApp: 20)
    let campaigns = try admin.query(
        """
        SELECT a.slug::text AS app, c.key::text AS key, c.tenant_id, c.app_id, c.id
        FROM campaigns c JOIN apps a ON a.id = c.app_id ORDER BY c.id
        """
    ).map { row in
        (app: try row.decode("app", as: String.self), key: try row.decode("key", as: String.self),
         ids: "\(try row.decode("tenant_id", as: Int64.self))\t\(try row.decode("app_id", as: Int64.self))\t\(try row.decode("id", as: Int64.self))")
    }
    print("Herald events benchmark: \(campaigns.count) campaigns, 200,000 devices, events over November and December 2026")

    let kinds = ["delivered", "impression", "click", "dismiss"]
    /// Event `n`, deterministic: (campaign index, device, kind, time, locale). Events come in
    /// threes, as devices report them: one device and campaign delivered, shown, then clicked
    /// or dismissed, a few minutes apart.
    func event(_ n: Int) -> (Int, String, String, String, String) {
        let pair = n / 3
        let mixed = pair &* 2_654_435_761 & 0x7FFF_FFFF
        let second = (mixed % (61 * 86_400 - 600)) + (n % 3) * 120
        let day = second / 86_400
        let time = String(
            format: "2026-%02d-%02dT%02d:%02d:%02dZ", day < 30 ? 11 : 12, day < 30 ? day + 1 : day - 29, (second / 3600) % 24,
            (second / 60) % 60, second % 60)
        let kind = n % 3 == 2 ? (mixed % 5 == 0 ? "click" : "dismiss") : kinds[n % 3]
        return ((mixed / 7) % campaigns.count, "device-\(mixed % 200_000)", kind, time, mixed % 3 == 0 ? "de" : "en")
    }
    func ndjson(_ range: Range<Int>) -> String {
        var text = ""
        text.reserveCapacity(range.count * 230)
        for n in range {
            let (campaign, device, kind, at, locale) = event(n)
            let target = campaigns[campaign]
            text += #"{"event_id":"\#(uuid(n))","tenant":"bench","app":"\#(target.app)","campaign":"\#(target.key)","device":"\#(device)","kind":"\#(kind)","at":"\#(at)","locale":"\#(locale)","app_version":"3.1.0","os_version":"17.2"}"#
            text += "\n"
        }
        return text
    }
    /// Event `n`'s id: random-looking, as version-4 UUIDs made by clients are (ids in
    /// counting order would all land at the right edge of event_ids' index, which real ids never do).
    func uuid(_ n: Int) -> String {
        var state = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
            return state ^ (state >> 31)
        }
        let high = next()
        let low = next()
        return String(
            format: "%08x-%04x-4%03x-%04x-%012llx", UInt32(truncatingIfNeeded: high >> 32), UInt32(truncatingIfNeeded: high >> 16) & 0xFFFF,
            UInt32(truncatingIfNeeded: high) & 0x0FFF, 0x8000 | (UInt32(truncatingIfNeeded: low >> 48) & 0x3FFF), low & 0xFFFF_FFFF_FFFF)
    }

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-events-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("events.ndjson")
    try Data(ndjson(0..<events).utf8).write(to: input)

    /// `herald events ingest` through the real binary, input from `file` or written to its stdin.
    func ingest(file: URL?, feed: ((FileHandle) throws -> Void)? = nil) throws -> (seconds: Double, inserted: Int) {
        let process = Process()
        process.executableURL = heraldBinary
        process.arguments = ["events", "ingest", file?.path ?? "-", "--json"]
        process.environment = [
            "HERALD_DATABASE_URL": configuration.conninfo, "HERALD_ACTOR": "benchmark", "PATH": "/usr/bin:/bin",
            "HERALD_TIMING": ProcessInfo.processInfo.environment["HERALD_TIMING"] ?? "0",
        ]
        let outputURL = scratch.appendingPathComponent("ingest.json")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process.standardOutput = output
        let pipe = Pipe()
        if feed != nil { process.standardInput = pipe }
        let elapsed = try seconds {
            try process.run()
            if let feed {
                try feed(pipe.fileHandleForWriting)
                try pipe.fileHandleForWriting.close()
            }
            process.waitUntilExit()
        }
        guard process.terminationStatus == 0 else { throw CLIRunnerError(message: "herald events ingest exited \(process.terminationStatus)") }
        struct Summary: Decodable { let inserted: Int }
        return (elapsed, try JSONDecoder().decode(Summary.self, from: Data(contentsOf: outputURL)).inserted)
    }

    /// CPU seconds, which other work on a shared machine moves far less than wall time: the
    /// server's processes that ended so far (the postmaster's reaped children: backends once
    /// their client is gone, autovacuum workers), and one live backend's own.
    let clockTicks = Double(sysconf(Int32(_SC_CLK_TCK)))
    func cpuSeconds(process: Int32, children: Bool) -> Double {
        // /proc/PID/stat: utime, stime, cutime, cstime are fields 14 to 17 (after the ")" ending the name, field 3 comes first).
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let first = children ? 13 : 11
        guard fields.count > first + 1, let user = Double(fields[first]), let system = Double(fields[first + 1]) else { return .nan }
        return (user + system) / clockTicks
    }
    func endedServerCPU() -> Double {
        Thread.sleep(forTimeInterval: 1)  // the backends of a client that just exited end and are reaped
        return server.server.processIdentifier.map { cpuSeconds(process: $0, children: true) } ?? .nan
    }
    func childrenCPU() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Both timed loads start on a quiet server: nothing left for autovacuum to do (it would
    /// otherwise work on what the previous step wrote, beside the next one) and no dirty
    /// buffers waiting for a checkpoint.
    func settle() throws {
        try admin.execute("VACUUM ANALYZE")
        try admin.execute("CHECKPOINT")
    }

    // 1. herald events ingest (partitions, staging, dedup, history, every rollup).
    try settle()
    let (serverBefore, heraldBefore) = (endedServerCPU(), childrenCPU())
    let (ingestSeconds, inserted) = try ingest(file: input)
    let (serverCPU, heraldCPU) = (endedServerCPU() - serverBefore, childrenCPU() - heraldBefore)
    let ingestRate = Double(inserted) / ingestSeconds
    line("events ingest", String(format: "%d events in %.2f s = %.0f events/s", inserted, ingestSeconds, ingestRate))
    line("  CPU", String(format: "herald %.1f s, PostgreSQL %.1f s", heraldCPU, serverCPU))

    // 2. Plain COPY of the same rows (ids already resolved, text already made) into the same
    // table, rolled back afterwards so the history stays as ingest left it.
    var copyText = ""
    copyText.reserveCapacity(events * 150)
    for n in 0..<events {
        let (campaign, device, kind, at, locale) = event(n)
        copyText += "\(campaigns[campaign].ids)\t\(uuid(n))\t\(device)\t\(kind)\t\(at)\t\(locale)\t3.1.0\t17.2\n"
    }
    let copyBytes = Array(copyText.utf8)
    copyText = ""
    var copySeconds = 0.0
    try settle()
    let backend: Int32 = try admin.query("SELECT pg_backend_pid() AS pid")[0].decode("pid")
    let copyCPUBefore = cpuSeconds(process: backend, children: false)
    try admin.execute("BEGIN")
    copySeconds = try seconds {
        _ = try admin.copyIn(
            "COPY delivery_events (tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version) FROM STDIN"
        ) { writer in
            var start = 0
            while start < copyBytes.count {
                let end = min(start + (1 << 16), copyBytes.count)
                try writer.writeRaw(copyBytes[start..<end])
                start = end
            }
        }
    }
    try admin.execute("ROLLBACK")
    let copyCPU = cpuSeconds(process: backend, children: false) - copyCPUBefore
    let copyRate = Double(events) / copySeconds
    line("plain COPY into delivery_events", String(format: "%d rows in %.2f s = %.0f rows/s", events, copySeconds, copyRate))
    line("  CPU", String(format: "PostgreSQL %.1f s", copyCPU))
    line("ingest rate / plain COPY rate", String(format: "%.2f   goal: at least 0.5", ingestRate / copyRate))

    // 3. Grow the history to `total` events, streamed into herald's standard input.
    if total > events {
        let (growSeconds, grown) = try ingest(file: nil) { handle in
            var start = events
            while start < total {
                let end = min(start + 100_000, total)
                try handle.write(contentsOf: Data(ndjson(start..<end).utf8))
                start = end
            }
        }
        line("grown to \(total) events", String(format: "%d more in %.1f s = %.0f events/s (generation included)", grown, growSeconds, Double(grown) / growSeconds))
    }
    // 4. The questions reporting is for, as the tenant's analyst: right after the ingest (the
    // partitioned parents have no statistics yet: autovacuum never analyses them), then after
    // ANALYZE, as production sees them once someone runs it.
    let questions = try ReportingQuestions.connect(
        server: server, database: databaseName, admin: admin, heraldBinary: heraldBinary, scratch: scratch)
    try questions.measure("right after the ingest")
    try admin.execute("ANALYZE")
    try questions.measure("after ANALYZE")

    // 5. campaign_summary (from rollups) beside GROUP BY over the raw rows: same totals?
    // Read as Herald's operator: the reporting views show a superuser no tenant's rows (0015).
    let reader = try Connection(configuration: configuration)
    try reader.execute("SET ROLE herald_operator")
    let summarySQL: SQL = "SELECT tenant, app, campaign, delivered, impressions, clicks, dismissals, unique_devices FROM reporting.campaign_summary ORDER BY app, campaign"
    var latencies: [Double] = []
    var fromRollups: [String] = []
    for _ in 0..<21 {
        var rows: QueryResult?
        latencies.append(try seconds { rows = try reader.query(summarySQL) })
        fromRollups = try (rows ?? reader.query(summarySQL)).map { row in
            try (0..<8).map { try row.decode(["tenant", "app", "campaign", "delivered", "impressions", "clicks", "dismissals", "unique_devices"][$0], as: String.self) }
                .joined(separator: " ")
        }
    }
    latencies.sort()
    var fromRaw: [String] = []
    let rawSeconds = try seconds {
        fromRaw = try admin.query(
            """
            SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign,
                   count(*) FILTER (WHERE e.kind = 'delivered') AS delivered, count(*) FILTER (WHERE e.kind = 'impression') AS impressions,
                   count(*) FILTER (WHERE e.kind = 'click') AS clicks, count(*) FILTER (WHERE e.kind = 'dismiss') AS dismissals,
                   count(DISTINCT e.device) AS unique_devices
            FROM delivery_events e JOIN campaigns c ON c.id = e.campaign_id JOIN apps a ON a.id = e.app_id JOIN tenants t ON t.id = e.tenant_id
            GROUP BY t.slug, a.slug, c.key ORDER BY a.slug, c.key
            """
        ).map { row in
            try (0..<8).map { try row.decode(["tenant", "app", "campaign", "delivered", "impressions", "clicks", "dismissals", "unique_devices"][$0], as: String.self) }
                .joined(separator: " ")
        }
    }
    let rawCount: Int = try admin.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n")
    line(
        "campaign_summary over \(rawCount) events",
        String(format: "median %.1f ms, p95 %.1f ms (%d rows)   goal: < 50 ms", latencies[10] * 1000, latencies[19] * 1000, fromRollups.count))
    line("same totals by GROUP BY on raw events", String(format: "%.0f ms   totals equal: %@", rawSeconds * 1000, fromRaw == fromRollups ? "yes" : "NO"))
}

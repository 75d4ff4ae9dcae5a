import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient

/// Campaigns-as-code benchmark, as a CI pipeline runs it: the real `herald` binary, timed from
/// process start to exit. The file is the large site (LargeSiteFixture: `apps` apps ×
/// `campaignsPerApp` campaigns) as `herald export` writes it; it is applied into an empty
/// database, applied again unchanged, applied with one campaign changed, and the result is
/// exported — all in the same run, on the same throwaway PostgreSQL, so the ratios compare
/// like with like.
///
/// `HERALD_BENCHMARK_HERALD=/path/to/herald` times another build of herald (an older apply,
/// say) with the same scenario; its export writes the file.
func runApplyBenchmark(apps: Int, campaignsPerApp: Int, runs: Int) throws {
    let heraldBinary = try ProcessInfo.processInfo.environment["HERALD_BENCHMARK_HERALD"].map { URL(fileURLWithPath: $0) }
        ?? builtHerald()
    let server = try PostgresTestServer.shared()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-apply-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }

    /// One run of herald against `database`; its standard output.
    func herald(_ arguments: [String], database: String) throws -> (seconds: Double, output: String) {
        let outputURL = scratch.appendingPathComponent("herald.out")
        let errorURL = scratch.appendingPathComponent("herald.err")
        let (elapsed, status) = try timedRun(
            heraldBinary, arguments,
            environment: [
                "HERALD_DATABASE_URL": server.configuration(database: database).conninfo, "HERALD_ACTOR": "benchmark",
                "HERALD_TENANT": "bench", "PATH": "/usr/bin:/bin",
            ],
            output: outputURL, errors: errorURL)
        guard status == 0 else {
            let message = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            throw CLIRunnerError(message: "herald \(arguments.joined(separator: " ")) exited \(status): \(message)")
        }
        return (elapsed, try String(contentsOf: outputURL, encoding: .utf8))
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func times(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
    /// The last line of apply's plan ("applied N change(s)", "no changes").
    func summary(_ output: String) -> String { output.split(separator: "\n").last.map(String.init) ?? "" }

    // The file: the large site, exported.
    let source = try server.createDatabase()
    defer { try? server.dropDatabase(source) }
    let sourceAdmin = try Connection(configuration: server.configuration(database: source))
    try Migrator().migrate(sourceAdmin)
    try LargeSiteFixture.populate(sourceAdmin, apps: apps, campaignsPerApp: campaignsPerApp)
    try sourceAdmin.execute("VACUUM ANALYZE")
    let file = scratch.appendingPathComponent("campaigns.yaml")
    _ = try herald(["export", "-o", file.path], database: source)
    let original = try String(contentsOf: file, encoding: .utf8)
    print("Herald apply benchmark: \(apps) apps × \(campaignsPerApp) campaigns (\(apps * campaignsPerApp) campaigns), "
        + "a \(original.utf8.count / 1_000_000) MB campaigns file; \(heraldBinary.path)")

    // Reading and checking the file alone (no database): part of every apply.
    var parses: [Double] = []
    for _ in 0..<runs { parses.append(try herald(["validate", "-f", file.path], database: source).seconds) }
    line("validate alone (median of \(runs))", String(format: "%.2f s  (%@)", median(parses), times(parses)))

    // Into an empty (migrated) database.
    let target = try server.createDatabase()
    defer { try? server.dropDatabase(target) }
    let admin = try Connection(configuration: server.configuration(database: target))
    try Migrator().migrate(admin)
    let (empty, emptyOutput) = try herald(["apply", "-f", file.path], database: target)
    line("apply into an empty database", String(format: "%.2f s  (%@)", empty, summary(emptyOutput)))
    // A database at rest, as autovacuum leaves it between two merges.
    try admin.execute("VACUUM ANALYZE")

    var unchanged: [Double] = []
    for _ in 0..<runs {
        let (elapsed, output) = try herald(["apply", "-f", file.path], database: target)
        guard summary(output) == "no changes" else { throw CLIRunnerError(message: "apply of the same file changed something:\n\(output)") }
        unchanged.append(elapsed)
    }
    line("apply unchanged (median of \(runs))", String(format: "%.2f s  (%@)", median(unchanged), times(unchanged)))

    // One campaign renamed, a new name each time: one change per apply.
    let edited = try oneCampaignEdit(original, app: "app-\(max(1, apps / 2))", key: "c-4")
    var oneChange: [Double] = []
    var lastFile = original
    for run in 1...runs {
        lastFile = edited("Campaign 4 (edit \(run))")
        try Data(lastFile.utf8).write(to: file)
        let (elapsed, output) = try herald(["apply", "-f", file.path], database: target)
        guard summary(output) == "applied 1 change(s)" else { throw CLIRunnerError(message: "one edit applied as:\n\(output)") }
        oneChange.append(elapsed)
    }
    line("apply, one campaign renamed (median of \(runs))", String(format: "%.2f s  (%@)", median(oneChange), times(oneChange)))

    var exports: [Double] = []
    for _ in 0..<runs {
        let (elapsed, output) = try herald(["export"], database: target)
        guard output == lastFile else { throw CLIRunnerError(message: "the export differs from the file last applied") }
        exports.append(elapsed)
    }
    line("export of the same set (median of \(runs))", String(format: "%.2f s  (%@)", median(exports), times(exports)))

    let export = median(exports)
    line("apply unchanged / export", String(format: "%.2f×   goal: ≤ 2×", median(unchanged) / export))
    line("apply with one change / export", String(format: "%.2f×   goal: ≤ 2×", median(oneChange) / export))
    line("apply into an empty database", String(format: "%.2f s   goal: ≤ 15 s", empty))
}

/// The exported file with the name of campaign `key` of app `app` replaced: a function of the new name.
private func oneCampaignEdit(_ yaml: String, app: String, key: String) throws -> (String) -> String {
    guard let appStart = yaml.range(of: "\n  - slug: \(app)\n"),
        let campaign = yaml.range(of: "\n    - key: \(key)\n", range: appStart.upperBound..<yaml.endIndex),
        let nameLine = yaml.range(of: "\n      name: ", range: campaign.upperBound..<yaml.endIndex),
        let lineEnd = yaml.range(of: "\n", range: nameLine.upperBound..<yaml.endIndex)
    else {
        throw CLIRunnerError(message: "campaign \(app)/\(key) is not in the exported file")
    }
    let before = String(yaml[..<nameLine.upperBound])
    let after = String(yaml[lineEnd.lowerBound...])
    return { name in before + name + after }
}

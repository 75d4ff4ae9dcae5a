import Foundation
import HeraldJobs
import HeraldPublish
import HeraldStore

/// What `herald publish` says about a run, its history and a prune.
public enum PublishText {
    /// Every warning as `herald: warning: …`, one line each, in one text (a publish can have
    /// thousands: written at once, not a write each).
    public static func warnings(_ warnings: [String]) -> String {
        let prefix = Array("herald: warning: ".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(warnings.reduce(0) { $0 + $1.utf8.count + prefix.count + 1 })
        for warning in warnings {
            text += prefix
            text += terminalSafe(warning).utf8
            text.append(UInt8(ascii: "\n"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A dry run's files: new, changed or removed, each with its unified diff.
    public static func diffs(_ result: PublishJob.Result) -> [PublishSummary.Diff] {
        result.changes.map { change in
            PublishSummary.Diff(
                path: change.path, change: change.after == nil ? "removed" : change.before == nil ? "new" : "changed",
                diff: UnifiedDiff.render(
                    path: change.path, old: change.before.map { String(decoding: $0, as: UTF8.self) },
                    new: change.after.map { String(decoding: $0, as: UTF8.self) }))
        }
    }

    /// What the run did, for people: a dry run's diffs and counts, a rollback, a run that found
    /// nothing to change, or a published run.
    public static func outcome(_ result: PublishJob.Result, dryRun: Bool, diffs: [PublishSummary.Diff], rollback: Int64?) -> String {
        let outcome = result.outcome
        let counts = "\(outcome.written.count) written, \(outcome.unchanged) unchanged, \(outcome.removed.count) removed"
        if dryRun {
            let files = diffs.map { "would \($0.change == "removed" ? "remove" : "write") \($0.path) (\($0.change))\n\($0.diff)" }
            return files.joined()
                + "dry run: \(outcome.written.count) to write, \(outcome.unchanged) unchanged, \(outcome.removed.count) to remove; nothing was written\n"
        }
        if let rollback { return "rolled back to run \(rollback) as run \(result.runID ?? 0): \(counts)\n" }
        if result.repeated { return "nothing changed since run \(result.runID ?? 0): \(counts)\n" }
        return "published run \(result.runID ?? 0) (\(result.apps) app(s)): \(counts)\n"
    }

    /// Said after a rollback, on standard error.
    public static let rollbackNote =
        "the next publish (cron's too) compiles the campaigns as they are now and puts the site forward again; to keep this "
        + "version, change the campaigns back (`herald export` of then, `apply -f`) or pause the cron"

    /// `publish --history` for people.
    public static func history(_ runs: [PublishRun]) -> TextTable {
        var table = TextTable("RUN", "STARTED", "OUTCOME", "WRITTEN", "UNCHANGED", "REMOVED", "SCOPE", "OUT", "SINCE")
        for run in runs {
            let since = run.lastRepeatedAt.map { "\(run.repeats) run(s) with no change, last \(formatTimestamp($0))" } ?? ""
            table.append(
                String(run.id), formatTimestamp(run.startedAt),
                run.outcome.description + (run.rollbackOf.map { " (to run \($0))" } ?? ""), String(run.filesWritten),
                String(run.filesUnchanged), String(run.filesRemoved), run.scope == .site ? "all" : run.scope.description, run.outDir,
                since)
        }
        return table
    }
}

/// One run of `publish --history --json` (docs/json.md).
public struct PublishRunJSON: Encodable {
    let id: Int64
    let startedAt: Date
    let finishedAt: Date?
    let actor, outDir, outcome, scope: String
    let publishAt: Date
    let rollbackOf: Int64?
    let written, unchanged, removed: Int
    let message: String?
    /// Later publishes that found nothing to change, counted on this run.
    let repeats: Int
    let lastRepeatedAt: Date?

    public init(_ run: PublishRun) {
        id = run.id
        startedAt = run.startedAt
        finishedAt = run.finishedAt
        actor = run.actor
        outDir = run.outDir
        outcome = run.outcome.description
        scope = run.scope.description
        publishAt = run.publishAt
        rollbackOf = run.rollbackOf
        written = run.filesWritten
        unchanged = run.filesUnchanged
        removed = run.filesRemoved
        message = run.message
        repeats = run.repeats
        lastRepeatedAt = run.lastRepeatedAt
    }
}

/// `publish --prune-history --json`.
public struct PrunedJSON: Encodable {
    let prunedRuns: Int
    let prunedContents: Int
    /// Tenants whose own publish was running: their stored contents were left.
    let tenantsLeftOut: [String]

    public init(_ pruned: PublishJob.Pruned) {
        prunedRuns = pruned.runs
        prunedContents = pruned.contents
        tenantsLeftOut = pruned.tenantsLeftOut.map(\.rawValue)
    }
}

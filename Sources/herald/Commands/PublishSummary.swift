import HeraldJobs

/// `publish --json`'s summary. In a dry run `written` and `removed` are what would be, and
/// `changes` has each file's diff.
struct PublishSummary: Encodable, Sendable {
    /// One file of a dry run: `new`, `changed` or `removed`, and its unified diff.
    struct Diff: Encodable, Sendable {
        let path: String
        let change: String
        let diff: String
    }

    let run: Int64?
    let dryRun: Bool
    let written, removed: [String]
    let unchanged: Int
    let warnings: [String]
    let changes: [Diff]?

    /// The text `printJSON` writes for this summary, made without Foundation's encoder
    /// (`PlainJSON`: a publish lists tens of thousands of paths); nil when it holds a dry
    /// run's diffs or text whose escaping is left to Foundation.
    var plainJSON: String? {
        guard changes == nil else { return nil }
        var members: [String: PlainJSON.Value] = [
            "dryRun": .bool(dryRun), "written": .strings(written), "removed": .strings(removed),
            "unchanged": .integer(Int64(unchanged)), "warnings": .strings(warnings),
        ]
        if let run { members["run"] = .integer(run) }
        return PlainJSON.object(members)
    }
}

extension PublishSummary {
    init(_ result: PublishJob.Result, dryRun: Bool, changes: [Diff]?) {
        self.init(
            run: result.runID, dryRun: dryRun, written: result.outcome.written, removed: result.outcome.removed,
            unchanged: result.outcome.unchanged, warnings: result.warnings, changes: changes)
    }
}

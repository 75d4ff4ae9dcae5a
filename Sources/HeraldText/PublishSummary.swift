import HeraldJobs

/// `publish --json`'s summary. In a dry run `written` and `removed` are what would be, and
/// `changes` has each file's diff.
public struct PublishSummary: Encodable, Sendable {
    /// One file of a dry run: `new`, `changed` or `removed`, and its unified diff.
    public struct Diff: Encodable, Sendable {
        public let path: String
        public let change: String
        public let diff: String

        public init(path: String, change: String, diff: String) {
            self.path = path
            self.change = change
            self.diff = diff
        }
    }

    public let run: Int64?
    public let dryRun: Bool
    public let written, removed: [String]
    public let unchanged: Int
    public let warnings: [String]
    public let changes: [Diff]?

    public init(run: Int64?, dryRun: Bool, written: [String], removed: [String], unchanged: Int, warnings: [String], changes: [Diff]?) {
        self.run = run
        self.dryRun = dryRun
        self.written = written
        self.removed = removed
        self.unchanged = unchanged
        self.warnings = warnings
        self.changes = changes
    }

    /// The text `printJSON` writes for this summary, made without Foundation's encoder
    /// (`PlainJSON`: a publish lists tens of thousands of paths); nil when it holds a dry
    /// run's diffs or text whose escaping is left to Foundation.
    public var plainJSON: String? {
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
    public init(_ result: PublishJob.Result, dryRun: Bool, changes: [Diff]?) {
        self.init(
            run: result.runID, dryRun: dryRun, written: result.outcome.written, removed: result.outcome.removed,
            unchanged: result.outcome.unchanged, warnings: result.warnings, changes: changes)
    }
}

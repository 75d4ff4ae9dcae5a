import Foundation

/// The rows an `EXPLAIN ANALYZE` plan counted, node by node: the rows each node returned and
/// the rows it removed (by a filter, a join filter or an index recheck), each as a total
/// over the node's loops (the plan prints averages per loop). A plan that read another
/// tenant's rows counts them in one of these, however the query was written.
public struct PlanCounts: Sendable {
    public struct Count: Sendable, CustomStringConvertible {
        /// The plan line the count is on.
        public let line: String
        public let total: Int
        public var description: String { "\(total) on \(line.trimmingCharacters(in: .whitespaces))" }
    }

    public let counts: [Count]

    /// Reads the text of `EXPLAIN (ANALYZE, ...)`, one plan line per element or one text.
    public init(_ plan: String) {
        var counts: [Count] = []
        var loops = 1
        for line in plan.split(separator: "\n").map(String.init) {
            if let match = line.firstMatch(of: /actual (?:time=[0-9.]+\.\.[0-9.]+ )?rows=([0-9]+) loops=([0-9]+)/),
                let rows = Int(match.output.1), let nodeLoops = Int(match.output.2)
            {
                loops = nodeLoops
                counts.append(Count(line: line, total: rows * nodeLoops))
            } else if line.contains("(never executed)") {
                loops = 0
            } else if let match = line.firstMatch(of: /Rows Removed by [A-Za-z ]+: ([0-9]+)/), let removed = Int(match.output.1) {
                counts.append(Count(line: line, total: removed * loops))
            }
        }
        self.counts = counts
    }

    /// The plan without the nodes that never ran (a branch whose condition was false), nor
    /// their details.
    public static func executed(_ plan: String) -> String {
        var kept: [Substring] = []
        var skipping = false
        for line in plan.split(separator: "\n") {
            let isNode = line.contains("->") || kept.isEmpty
            if isNode { skipping = line.contains("(never executed)") }
            if !skipping { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// The counts above `bound`: rows no plan of the caller's own rows could have counted.
    public func above(_ bound: Int) -> [Count] {
        counts.filter { $0.total > bound }
    }
}

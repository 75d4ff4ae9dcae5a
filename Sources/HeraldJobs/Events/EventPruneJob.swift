import HeraldStore

/// Drops whole months of raw events (`herald events prune`); the rollups keep their totals.
public struct EventPruneJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// Drops the months that end on or before `day` (YYYY-MM-DD). Returns the months dropped
    /// and the first day still kept.
    public func prune(before day: String) throws -> (dropped: [String], prunedBefore: String?) {
        try database.requireOwner(to: "pruning events")
        return try database.asOperator { session in
            (try session.eventRetention.prune(before: day), try session.eventRetention.prunedBefore())
        }
    }
}

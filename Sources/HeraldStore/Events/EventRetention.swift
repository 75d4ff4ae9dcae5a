import Foundation
import PostgresClient

/// Dropping old raw events: whole month partitions, rollups kept.
public struct EventRetention {
    let partitions: EventPartitions

    public init(_ session: OperatorSession) {
        partitions = EventPartitions(session.connection)
    }

    /// Drops every month of raw events that ends on or before `before` (a `YYYY-MM-DD` day);
    /// returns the partitions dropped. Events before the start of `before`'s month are refused
    /// by later ingests.
    public func prune(before day: String) throws -> [String] {
        try partitions.prune(before: day)
    }

    /// The day before which raw events were pruned, if any.
    public func prunedBefore() throws -> String? {
        try partitions.horizon()?.description
    }
}

extension OperatorSession {
    public var eventRetention: EventRetention { EventRetention(self) }
}

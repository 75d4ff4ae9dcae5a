import Foundation
import PostgresClient

/// Dropping old raw events: whole month partitions, rollups kept.
public struct EventRetention {
    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// Drops every month of raw events that ends on or before `before` (a `YYYY-MM-DD` day);
    /// returns the partitions dropped. Events before the start of `before`'s month are refused
    /// by later ingests.
    public func prune(before day: String) throws -> [String] {
        try connection.query("SELECT herald_prune_events($1::date) AS dropped", [day]).map { try $0.decode("dropped") }
    }

    /// The day before which raw events were pruned, if any.
    public func prunedBefore() throws -> String? {
        try connection.query("SELECT pruned_before::text AS day FROM event_retention").first.map { try $0.decode("day") }
    }
}

extension OperatorSession {
    public var eventRetention: EventRetention { EventRetention(self) }
}

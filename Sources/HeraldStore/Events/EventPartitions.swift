import HeraldCore
import PostgresClient

/// The month partitions of the raw history and the pruned horizon, the first day of the
/// first month kept: ingest makes months as it needs them and refuses events below the
/// horizon; `EventRetention` drops months and moves the horizon. Works in the caller's
/// transaction.
struct EventPartitions {
    /// The advisory lock (two int4 keys) between making or dropping partitions, which hold it
    /// alone, and storing batches, which share it. 0009_delivery_events.sql's
    /// herald_ensure_event_partitions and herald_prune_events take the same key, written
    /// there as the literals (4851, 1) ("HQ", partitions): an applied migration never changes.
    static let lock: (classID: Int32, objectID: Int32) = (4851, 1)

    let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Until the transaction ends: beside other batches, never beside a prune or a new month.
    func lockShared() throws {
        try connection.execute(Query.lockEventPartitionsShared.prepared, [Self.lock.classID, Self.lock.objectID])
    }

    /// The first day of the first month still kept, when months were ever pruned (read per batch).
    func horizon() throws -> UTCDay? {
        try connection.query(Query.prunedHorizon.prepared).first.map { UTCDay(daysSince1970: try $0.decode("days_since_1970")) }
    }

    /// Makes the partitions of `months` that are not below the horizon, holding the lock alone
    /// (a month made beside batches writing to the table waits for them anyway).
    func make(_ months: Set<EventMonth>) throws {
        try connection.execute(Query.lockEventPartitionsAlone.sql, [Self.lock.classID, Self.lock.objectID])
        let first = try horizon().map(EventMonth.init)
        for month in months.sorted() where first.map({ month >= $0 }) ?? true {
            try connection.execute("SELECT herald_ensure_event_partitions($1::date)", [month.firstDay.description])
        }
    }

    /// Drops every month that ends on or before `day` (`YYYY-MM-DD`) and moves the horizon;
    /// returns the raw partitions dropped.
    func prune(before day: String) throws -> [String] {
        try connection.query("SELECT herald_prune_events($1::date) AS dropped", [day]).map { try $0.decode("dropped") }
    }
}

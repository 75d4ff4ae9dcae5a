import Foundation
import HeraldCore
import PostgresClient

/// What an ingest did with its input.
public struct IngestCounts: Equatable, Sendable, Codable {
    public var read = 0
    public var inserted = 0
    public var duplicate = 0
    public var rejected = 0

    public init() {}

    public static func += (lhs: inout IngestCounts, rhs: IngestCounts) {
        lhs.read += rhs.read
        lhs.inserted += rhs.inserted
        lhs.duplicate += rhs.duplicate
        lhs.rejected += rhs.rejected
    }
}

/// An input record that did not land, and why.
public struct EventRejection: Equatable, Sendable {
    public let line: Int
    public let reason: String
    public let text: String
}

/// Stores delivery events, a batch per transaction: COPY into a staging table, then new
/// events into the history and the rollups in the same transaction, so history and
/// rollups never disagree, even after a crash; an id already stored counts as a duplicate.
///
/// One ingestor owns one connection. Several may store batches at once (from one ingest
/// spread over connections, or from separate ingests): every count stays exact, because
/// what decides "new" is a row only one transaction can insert (the event id, the device's
/// summary row, the device-day bits), and the rollups only add. Rollup rows are locked in
/// key order, last, so two batches never wait on each other for long or in a cycle.
///
/// The statements are queries/events.sql's; those run per batch are prepared once per connection.
public final class EventIngestor {
    private let database: HeraldDatabase
    private var targets: EventTargets
    private var partitionsMade: Set<EventMonth> = []
    private var rows = BinaryCopyRows()
    /// Seconds spent per step over all batches so far (for HERALD_TIMING).
    public private(set) var stepSeconds: [(step: String, seconds: Double)] = []

    private func timed<T>(_ step: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if let index = stepSeconds.firstIndex(where: { $0.step == step }) {
                stepSeconds[index].seconds += elapsed
            } else {
                stepSeconds.append((step, elapsed))
            }
        }
        return try body()
    }

    public init(database: HeraldDatabase) throws {
        self.database = database
        // Batches are staged in temporary tables: let them live in memory (only possible
        // before the session's first temporary table).
        _ = try? database.connection.execute("SET temp_buffers = '64MB'")
        // Made once per connection, emptied by every commit: making and dropping them per
        // batch cost the server a file created and deleted per table per batch.
        try database.asOperator { session in
            for table in [Query.createEventStaging, .createFreshIDs, .createBatchCampaignTotals, .createBatchDailyTotals] {
                try session.connection.execute(table.sql)
            }
        }
        targets = try database.asOperator(readOnly: true) { try EventTargets.load($0.connection) }
    }

    /// Stores the events of `records` and reports what became of each.
    public func ingest(_ records: [EventRecord]) throws -> (counts: IngestCounts, rejections: [EventRejection]) {
        var counts = IngestCounts()
        counts.read = records.count
        var rejections: [EventRejection] = []
        var staged: [StagedEvent] = []
        staged.reserveCapacity(records.count)
        // An id repeated inside the batch counts once per tenant, at its first line: ids are
        // each tenant's own (0017_event_ids_per_tenant.sql).
        var idsInBatch = Set<TenantEventID>(minimumCapacity: records.count)
        var refreshed = false
        for record in records {
            switch record.event {
            case .failure(let problem):
                rejections.append(Self.rejection(record, problem.description))
            case .success(let event):
                var outcome = targets.resolve(event)
                if case .failure = outcome, !refreshed {
                    // Perhaps created since this ingest started: look once more, once per batch.
                    targets = try database.asOperator(readOnly: true) { try EventTargets.load($0.connection) }
                    refreshed = true
                    outcome = targets.resolve(event)
                }
                switch outcome {
                case .success(let ids):
                    let item = StagedEvent(record: record, event: event, ids: ids)
                    if !EventClock.storable.contains(item.microseconds) {
                        rejections.append(Self.rejection(record, Self.outsideStorableTimes(event.at)))
                    } else if idsInBatch.insert(TenantEventID(tenant: ids.tenant, id: event.id)).inserted {
                        staged.append(item)
                    } else {
                        counts.duplicate += 1
                    }
                case .failure(let problem): rejections.append(Self.rejection(record, problem.description))
                }
            }
        }
        if !staged.isEmpty {
            try makePartitions(for: staged)
            let (inserted, kept, late) = try database.asOperatorRetryingConflicts { session -> (Int, Int, [EventRejection]) in
                let connection = session.connection
                let partitions = EventPartitions(connection)
                try partitions.lockShared()
                let (kept, late) = Self.split(staged, at: try partitions.horizon())
                guard !kept.isEmpty else { return (0, 0, late) }
                _ = try timed("copy into staging") {
                    rows.removeAll()
                    for item in kept { item.appendRow(to: &rows) }
                    try connection.copyInBinary(StagedEvent.copy) { try $0.write(rows) }
                }
                CrashPoint.reached(IngestCrashPoint.copied)
                try timed("keep new ids") { try Self.keepNewIDs(connection, staged: kept.count) }
                _ = try timed("store events") { try connection.execute(Query.storeEvents.prepared) }
                let inserted: Int = try timed("add to rollups") { try connection.query(Query.addToRollups.prepared)[0].decode("inserted") }
                return (inserted, kept.count, late)
            }
            rejections += late
            counts.inserted = inserted
            counts.duplicate += kept - inserted
        }
        counts.rejected = rejections.count
        return (counts, rejections.sorted { $0.line < $1.line })
    }

    /// The month partitions the batch needs, made in a transaction of their own (creating one
    /// waits for the batches writing beside it), and never below the pruned horizon.
    private func makePartitions(for staged: [StagedEvent]) throws {
        // Distinct days first (a number per event), then their months.
        let months = Set(Set(staged.map(\.day)).map { EventMonth(EventClock.day(daysSince2000: $0)) }).subtracting(partitionsMade)
        guard !months.isEmpty else { return }
        try database.asOperatorRetryingConflicts { try EventPartitions($0.connection).make(months) }
        partitionsMade.formUnion(months)
    }

    /// The events at or after the pruned horizon, and rejections for the ones before it.
    private static func split(_ staged: [StagedEvent], at horizon: UTCDay?) -> ([StagedEvent], [EventRejection]) {
        guard let horizon else { return (staged, []) }
        let limit = EventClock.microsecondsSince2000(startOf: horizon)
        var kept: [StagedEvent] = []
        var late: [EventRejection] = []
        for item in staged {
            if item.microseconds < limit {
                late.append(rejection(item.record, "at is before \(horizon): events before then were pruned (`herald events prune`)"))
            } else {
                kept.append(item)
            }
        }
        return (kept, late)
    }

    /// Stores the batch's ids and leaves in the staging table only the events whose id was
    /// never stored before (queries/events.sql says how).
    private static func keepNewIDs(_ connection: Connection, staged: Int) throws {
        try connection.execute("SAVEPOINT all_ids_new")
        do {
            try connection.execute(Query.insertAllIDs.prepared)
            try connection.execute("RELEASE SAVEPOINT all_ids_new")
            return
        } catch let error as PostgresError where error.isUniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT all_ids_new")
        }
        let fresh: Int = try connection.query(Query.storeNewIDs.prepared)[0].decode("fresh")
        if fresh < staged {
            try connection.execute(Query.unstageStoredIDs.prepared)
        }
    }

    /// Why an event time outside `EventClock.storable` is refused (docs/events.md says the same).
    private static func outsideStorableTimes(_ at: EventTime) -> String {
        "at \"\(at.text.prefix(80))\" is outside the times Herald stores: from 2000-01-01T00:00:00Z to the end of 9999 (UTC)"
    }

    private static func rejection(_ record: EventRecord, _ reason: String) -> EventRejection {
        EventRejection(line: record.line, reason: reason, text: record.text)
    }
}

/// What makes an event the same event: its id within its tenant (event_ids' key).
private struct TenantEventID: Hashable {
    let tenant: Int64
    let id: EventID
}

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

/// What became of one record of a batch given to `EventIngestor.store`.
public enum EventOutcome: Equatable, Sendable {
    /// Stored now: new to its tenant.
    case inserted
    /// Its id was stored before (or earlier in the same batch): counted once, already.
    case duplicate
    /// Not stored, and why.
    case rejected(String)
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
    /// When the campaigns were last read again for an event naming one not known yet.
    private var targetsRead = DispatchTime.now().uptimeNanoseconds
    /// At most one such reading per this many seconds (0: once per batch). A collector,
    /// where any device can name any campaign, reads them once a second at most.
    public var secondsBetweenTargetReloads: Double = 0
    /// Whether a rejection may say that another tenant has the campaign an event names
    /// (the operator's own files: yes; a device on the internet: no, only "unknown").
    public var namesOtherTenants = true
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
        let stored = try run(records, outcomes: false)
        return (stored.counts, stored.rejections.map(\.rejection).sorted { $0.line < $1.line })
    }

    /// Stores the events of `records` in one transaction, as `ingest` does, and says what
    /// became of each record, in the order given (whatever their line numbers): for a
    /// collector that answers each of the requests it stored together.
    public func store(_ records: [EventRecord]) throws -> [EventOutcome] {
        let stored = try run(records, outcomes: true)
        var outcomes = Array(repeating: EventOutcome.inserted, count: records.count)
        for position in stored.duplicates { outcomes[position] = .duplicate }
        for (position, rejection) in stored.rejections { outcomes[position] = .rejected(rejection.reason) }
        return outcomes
    }

    /// A batch stored: its counts, its rejections and duplicates by position in the input
    /// (duplicates only when `outcomes` was asked for).
    private struct Stored {
        var counts = IngestCounts()
        var rejections: [(position: Int, rejection: EventRejection)] = []
        var duplicates: [Int] = []
    }

    private func run(_ records: [EventRecord], outcomes: Bool) throws -> Stored {
        var result = Stored()
        result.counts.read = records.count
        var staged: [StagedEvent] = []
        staged.reserveCapacity(records.count)
        // An id repeated inside the batch counts once per tenant, at its first line: ids are
        // each tenant's own (0017_event_ids_per_tenant.sql).
        var idsInBatch = Set<TenantEventID>(minimumCapacity: records.count)
        var refreshed = false
        for (position, record) in records.enumerated() {
            switch record.event {
            case .failure(let problem):
                result.rejections.append((position, Self.rejection(record, problem.description)))
            case .success(let event):
                var outcome = targets.resolve(event, namingOtherTenants: namesOtherTenants)
                if case .failure = outcome, !refreshed, mayReadTargetsAgain() {
                    // Perhaps created since this ingest started: look once more, once per batch.
                    targets = try database.asOperator(readOnly: true) { try EventTargets.load($0.connection) }
                    targetsRead = DispatchTime.now().uptimeNanoseconds
                    refreshed = true
                    outcome = targets.resolve(event, namingOtherTenants: namesOtherTenants)
                }
                switch outcome {
                case .success(let ids):
                    let item = StagedEvent(record: record, event: event, ids: ids, position: position)
                    if !EventClock.storable.contains(item.microseconds) {
                        result.rejections.append((position, Self.rejection(record, Self.outsideStorableTimes(event.at))))
                    } else if idsInBatch.insert(TenantEventID(tenant: ids.tenant, id: event.id)).inserted {
                        staged.append(item)
                    } else {
                        result.counts.duplicate += 1
                        if outcomes { result.duplicates.append(position) }
                    }
                case .failure(let problem): result.rejections.append((position, Self.rejection(record, problem.description)))
                }
            }
        }
        if !staged.isEmpty {
            try makePartitions(for: staged)
            let (inserted, kept, late, fresh, horizon) = try database.asOperatorRetryingConflicts {
                session -> (Int, [StagedEvent], [StagedEvent], Set<TenantEventID>?, UTCDay?) in
                let connection = session.connection
                let partitions = EventPartitions(connection)
                try partitions.lockShared()
                let horizon = try partitions.horizon()
                let (kept, late) = Self.split(staged, at: horizon)
                guard !kept.isEmpty else { return (0, kept, late, nil, horizon) }
                _ = try timed("copy into staging") {
                    rows.removeAll()
                    for item in kept { item.appendRow(to: &rows) }
                    try connection.copyInBinary(StagedEvent.copy) { try $0.write(rows) }
                }
                CrashPoint.reached(IngestCrashPoint.copied)
                let allNew = try timed("keep new ids") { try Self.keepNewIDs(connection, staged: kept.count) }
                // Which ids were new, read before the commit empties fresh_ids (nil: all were).
                let fresh = outcomes && !allNew ? try Self.freshIDs(connection) : nil
                _ = try timed("store events") { try connection.execute(Query.storeEvents.prepared) }
                let inserted: Int = try timed("add to rollups") { try connection.query(Query.addToRollups.prepared)[0].decode("inserted") }
                return (inserted, kept, late, fresh, horizon)
            }
            for item in late {
                result.rejections.append((item.position, Self.rejection(item.record, Self.prunedReason(horizon))))
            }
            result.counts.inserted = inserted
            result.counts.duplicate += kept.count - inserted
            if let fresh {
                for item in kept where !fresh.contains(TenantEventID(tenant: item.ids.tenant, id: item.event.id)) {
                    result.duplicates.append(item.position)
                }
            }
        }
        result.counts.rejected = result.rejections.count
        return result
    }

    /// Whether the campaigns may be read again now (`secondsBetweenTargetReloads`).
    private func mayReadTargetsAgain() -> Bool {
        secondsBetweenTargetReloads <= 0
            || Double(DispatchTime.now().uptimeNanoseconds - targetsRead) / 1e9 >= secondsBetweenTargetReloads
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

    /// The events at or after the pruned horizon, and the ones before it.
    private static func split(_ staged: [StagedEvent], at horizon: UTCDay?) -> (kept: [StagedEvent], late: [StagedEvent]) {
        guard let horizon else { return (staged, []) }
        let limit = EventClock.microsecondsSince2000(startOf: horizon)
        var kept: [StagedEvent] = []
        var late: [StagedEvent] = []
        for item in staged {
            if item.microseconds < limit {
                late.append(item)
            } else {
                kept.append(item)
            }
        }
        return (kept, late)
    }

    private static func prunedReason(_ horizon: UTCDay?) -> String {
        "at is before \(horizon.map { "\($0)" } ?? "the pruned horizon"): events before then were pruned (`herald events prune`)"
    }

    /// The ids store-new-ids found new, in this transaction.
    private static func freshIDs(_ connection: Connection) throws -> Set<TenantEventID> {
        var fresh = Set<TenantEventID>()
        for row in try connection.query("SELECT tenant_id, event_id::text AS event_id FROM fresh_ids") {
            if let id = EventID(try row.decode("event_id", as: String.self)) {
                fresh.insert(TenantEventID(tenant: try row.decode("tenant_id"), id: id))
            }
        }
        return fresh
    }

    /// Stores the batch's ids and leaves in the staging table only the events whose id was
    /// never stored before (queries/events.sql says how); true when every id was new.
    private static func keepNewIDs(_ connection: Connection, staged: Int) throws -> Bool {
        try connection.execute("SAVEPOINT all_ids_new")
        do {
            try connection.execute(Query.insertAllIDs.prepared)
            try connection.execute("RELEASE SAVEPOINT all_ids_new")
            return true
        } catch let error as PostgresError where error.isUniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT all_ids_new")
        }
        let fresh: Int = try connection.query(Query.storeNewIDs.prepared)[0].decode("fresh")
        if fresh < staged {
            try connection.execute(Query.unstageStoredIDs.prepared)
        }
        return fresh == staged
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

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
public final class EventIngestor {
    private let database: HeraldDatabase
    private var targets: EventTargets
    private var partitionsMade: Set<String> = []
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
            for statement in Self.createTemporaryTables { try session.connection.execute(statement) }
        }
        targets = try database.asOperator(readOnly: true) { try EventTargets.load($0.connection) }
    }

    private struct Staged {
        let record: EventRecord
        let event: DeliveryEvent
        let ids: EventTargets.IDs
        let uuid: EventID
        /// `at` as PostgreSQL stores it (microseconds since 2000-01-01 UTC): the day, the
        /// month partition and the horizon all follow from it, so they agree with the server.
        let microseconds: Int64

        var day: Int64 { Self.floorDivide(microseconds, 86_400_000_000) }

        static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
            value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        }
    }

    /// Stores the events of `records` and reports what became of each.
    public func ingest(_ records: [EventRecord]) throws -> (counts: IngestCounts, rejections: [EventRejection]) {
        var counts = IngestCounts()
        counts.read = records.count
        var rejections: [EventRejection] = []
        var staged: [Staged] = []
        staged.reserveCapacity(records.count)
        // An id repeated inside the batch counts once, at its first line.
        var idsInBatch = Set<EventID>(minimumCapacity: records.count)
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
                    let uuid = event.id
                    if idsInBatch.insert(uuid).inserted {
                        staged.append(
                            Staged(record: record, event: event, ids: ids, uuid: uuid, microseconds: Self.microsecondsSince2000(event.at)))
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
                // Beside other batches, never beside a prune (which takes this lock alone).
                try connection.execute("SELECT pg_advisory_xact_lock_shared(4851, 1)")
                let (kept, late) = try Self.splitAtHorizon(staged, connection)
                guard !kept.isEmpty else { return (0, 0, late) }
                _ = try timed("copy into staging") {
                    rows.removeAll()
                    for item in kept { Self.append(item, to: &rows) }
                    try connection.copyInBinary(
                        "COPY event_staging (event_id, tenant_id, app_id, campaign_id, device, kind, at, day, locale, app_version, os_version) FROM STDIN WITH (FORMAT binary)"
                    ) { try $0.write(rows) }
                }
                try timed("keep new ids") { try Self.keepNewIDs(connection, staged: kept.count) }
                _ = try timed("store events") { try connection.execute(Self.storeEvents) }
                let inserted: Int = try timed("add to rollups") { try connection.query(Self.addToRollups)[0].decode("inserted") }
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
    private func makePartitions(for staged: [Staged]) throws {
        // Distinct months first (a number per event), then their names.
        let months = Set(Set(staged.map { Self.yearMonth(daysSince2000: $0.day) }).map {
            String(format: "%04d-%02d", $0 / 100, $0 % 100)
        }).subtracting(partitionsMade)
        guard !months.isEmpty else { return }
        try database.asOperatorRetryingConflicts { session in
            let connection = session.connection
            try connection.execute("SELECT pg_advisory_xact_lock(4851, 1)")
            let horizon = try Self.horizon(connection)
            for month in months.sorted() where horizon.map({ month >= $0.prefix(7) }) ?? true {
                try connection.execute("SELECT herald_ensure_event_partitions($1::date)", [month + "-01"])
            }
        }
        partitionsMade.formUnion(months)
    }

    private static func horizon(_ connection: Connection) throws -> String? {
        try connection.query("SELECT pruned_before::text AS day FROM event_retention").first.map { try $0.decode("day", as: String.self) }
    }

    /// The events at or after the pruned horizon, and rejections for the ones before it.
    private static func splitAtHorizon(_ staged: [Staged], _ connection: Connection) throws -> ([Staged], [EventRejection]) {
        guard let horizon = try horizon(connection) else { return (staged, []) }
        let limit = (epochSeconds(day: horizon) - 946_684_800) * 1_000_000
        var kept: [Staged] = []
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

    /// One staging row, in the column order of the COPY above.
    private static func append(_ item: Staged, to rows: inout BinaryCopyRows) {
        let e = item.event
        rows.startRow(fields: 11)
        rows.appendUUID(high: item.uuid.high, low: item.uuid.low)
        rows.appendInt64(item.ids.tenant)
        rows.appendInt64(item.ids.app)
        rows.appendInt64(item.ids.campaign)
        rows.appendText(e.device)
        rows.appendText(e.kind.rawValue)
        rows.appendInt64(item.microseconds)
        rows.appendInt32(Int32(truncatingIfNeeded: item.day))
        rows.appendText(e.locale.rawValue)
        rows.appendText(e.appVersion)
        if let os = e.osVersion { rows.appendText(os) } else { rows.appendNull() }
    }

    /// PostgreSQL's binary timestamptz: microseconds since 2000-01-01 UTC. A fraction is
    /// rounded to the microsecond as PostgreSQL's own input does (rint of the fraction × 10⁶).
    static func microsecondsSince2000(_ time: EventTime) -> Int64 {
        let micros = (time.epochSeconds - 946_684_800) * 1_000_000
        guard time.nanoseconds > 0 else { return micros }
        // The same double as strtod("0.fraction"): both integers are exact, and one division rounds once.
        let fraction = Double(time.nanoseconds) / 1e9
        return micros + Int64((fraction * 1_000_000).rounded(.toNearestOrEven))
    }

    private static func rejection(_ record: EventRecord, _ reason: String) -> EventRejection {
        EventRejection(line: record.line, reason: reason, text: record.text)
    }

    /// year × 100 + month of a UTC day: the month partition an event of that day lands in.
    static func yearMonth(daysSince2000: Int64) -> Int {
        let days = Int(daysSince2000) + 10_957
        // Civil date from days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 100 + month
    }

    /// Seconds since 1970 at the start of a `YYYY-MM-DD` day (UTC).
    static func epochSeconds(day: String) -> Int64 {
        EventTime(day + "T00:00:00Z")?.epochSeconds ?? Int64.min
    }

    // MARK: SQL

    /// The batch as COPYed (ids unique inside it), and what storing it adds to the rollups:
    /// private to the connection, empty outside a batch's transaction.
    private static let createTemporaryTables: [SQL] = [
        """
        CREATE TEMP TABLE IF NOT EXISTS event_staging (
            event_id     uuid NOT NULL,
            tenant_id    bigint NOT NULL,
            app_id       bigint NOT NULL,
            campaign_id  bigint NOT NULL,
            device       text NOT NULL,
            kind         event_kind NOT NULL,
            at           timestamptz NOT NULL,
            day          date NOT NULL,
            locale       locale_tag NOT NULL,
            app_version  text NOT NULL,
            os_version   text
        ) ON COMMIT DELETE ROWS
        """,
        "CREATE TEMP TABLE IF NOT EXISTS fresh_ids (event_id uuid) ON COMMIT DELETE ROWS",
        """
        CREATE TEMP TABLE IF NOT EXISTS batch_campaign_totals (
            tenant_id bigint, app_id bigint, campaign_id bigint, delivered bigint, impressions bigint, clicks bigint,
            dismissals bigint, new_devices bigint, first_at timestamptz, last_at timestamptz
        ) ON COMMIT DELETE ROWS
        """,
        """
        CREATE TEMP TABLE IF NOT EXISTS batch_daily_totals (
            tenant_id bigint, app_id bigint, campaign_id bigint, day date, locale locale_tag,
            delivered bigint, impressions bigint, clicks bigint, dismissals bigint,
            delivered_devices bigint, impression_devices bigint, click_devices bigint, dismiss_devices bigint
        ) ON COMMIT DELETE ROWS
        """,
    ]

    /// Stores the batch's ids and leaves in the staging table only the events whose id was
    /// never stored before. Usually every id is new: a plain insert says so at half the cost
    /// of an upsert; the first id already stored (or being stored beside us: the insert waits
    /// for that transaction) undoes it, and the upsert then sorts new from old.
    private static func keepNewIDs(_ connection: Connection, staged: Int) throws {
        try connection.execute("SAVEPOINT all_ids_new")
        do {
            try connection.execute("INSERT INTO event_ids (event_id) SELECT event_id FROM event_staging ORDER BY event_id")
            try connection.execute("RELEASE SAVEPOINT all_ids_new")
            return
        } catch let error as PostgresError where error.isUniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT all_ids_new")
        }
        let fresh: Int = try connection.query(storeNewIDs)[0].decode("fresh")
        if fresh < staged {
            try connection.execute("DELETE FROM event_staging s WHERE NOT EXISTS (SELECT FROM fresh_ids f WHERE f.event_id = s.event_id)")
        }
    }

    /// The ids never stored before (another batch storing the same id at the same time makes
    /// this one wait for it, then skip it), kept in fresh_ids; how many there were.
    private static let storeNewIDs: SQL = """
        WITH fresh AS (
            INSERT INTO event_ids (event_id)
            SELECT event_id FROM event_staging ORDER BY event_id
            ON CONFLICT (event_id) DO NOTHING
            RETURNING event_id
        ), kept AS (
            INSERT INTO fresh_ids SELECT event_id FROM fresh
        )
        SELECT count(*) AS fresh FROM fresh
        """

    /// The new events (what is left in the staging table) into the history, the per-device summary and the
    /// device-day marks; what they add to the rollups into the two batch tables. Upserts go
    /// in key order, so batches stored beside each other lock rows in the same order.
    private static let storeEvents: SQL = """
        WITH new_events AS NOT MATERIALIZED (
            SELECT * FROM event_staging
        ), history AS (
            INSERT INTO delivery_events (tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version)
            SELECT tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version
            FROM new_events
        ),

        -- The batch per device, campaign, UTC day and locale: the one pass over its rows that
        -- every summary below is made from.
        per_device_day AS MATERIALIZED (
            SELECT tenant_id, app_id, campaign_id, day, locale, device, min(at) AS first_at, max(at) AS last_at,
                   count(*) FILTER (WHERE kind = 'delivered') AS delivered,
                   count(*) FILTER (WHERE kind = 'impression') AS impressions,
                   count(*) FILTER (WHERE kind = 'click') AS clicks,
                   count(*) FILTER (WHERE kind = 'dismiss') AS dismissals,
                   bit_or(CASE kind WHEN 'delivered' THEN 1 WHEN 'impression' THEN 2 WHEN 'click' THEN 4 ELSE 8 END)::smallint AS kinds
            FROM new_events
            GROUP BY tenant_id, app_id, campaign_id, day, locale, device
        ),

        -- Per device and campaign; (xmax = 0) is true for the rows the upsert inserted, i.e.
        -- devices new to the campaign, which is what the campaign's unique count adds.
        per_device AS (
            SELECT tenant_id, app_id, campaign_id, device, min(first_at) AS first_at, max(last_at) AS last_at,
                   sum(delivered)::bigint AS delivered, sum(impressions)::bigint AS impressions,
                   sum(clicks)::bigint AS clicks, sum(dismissals)::bigint AS dismissals
            FROM per_device_day
            GROUP BY tenant_id, app_id, campaign_id, device
        ), device_summary AS (
            INSERT INTO device_campaign_summary AS d
                (tenant_id, app_id, campaign_id, device, first_at, last_at, delivered, impressions, clicks, dismissals)
            SELECT * FROM per_device ORDER BY campaign_id, device
            ON CONFLICT (campaign_id, device) DO UPDATE SET
                first_at = least(d.first_at, excluded.first_at),
                last_at = greatest(d.last_at, excluded.last_at),
                delivered = d.delivered + excluded.delivered,
                impressions = d.impressions + excluded.impressions,
                clicks = d.clicks + excluded.clicks,
                dismissals = d.dismissals + excluded.dismissals
            RETURNING d.campaign_id, (xmax = 0) AS new_device
        ), campaign_totals AS (
            INSERT INTO batch_campaign_totals
            SELECT p.tenant_id, p.app_id, p.campaign_id, sum(p.delivered), sum(p.impressions), sum(p.clicks), sum(p.dismissals),
                   coalesce(max(n.n), 0), min(p.first_at), max(p.last_at)
            FROM per_device p
            LEFT JOIN (SELECT campaign_id, count(*) FILTER (WHERE new_device) AS n FROM device_summary GROUP BY campaign_id) n
                USING (campaign_id)
            GROUP BY p.tenant_id, p.app_id, p.campaign_id
        ),

        -- Per campaign, UTC day and locale. A device counts once per day, locale and kind:
        -- campaign_device_days keeps a bit per kind it has counted (delivered 1, impression 2,
        -- click 4, dismiss 8); the upsert returns the bits it set (rows where nothing new was
        -- set are left alone and not returned).
        marked AS (
            INSERT INTO campaign_device_days AS d (campaign_id, day, locale, device, kinds)
            SELECT campaign_id, day, locale, device, kinds
            FROM per_device_day
            ORDER BY 1, 2, 3, 4
            ON CONFLICT (campaign_id, day, locale, device) DO UPDATE
                SET previous_kinds = d.kinds, kinds = d.kinds | excluded.kinds
                WHERE d.kinds | excluded.kinds <> d.kinds
            RETURNING d.campaign_id, d.day, d.locale, d.kinds & ~d.previous_kinds AS bits
        )
        INSERT INTO batch_daily_totals
        SELECT g.tenant_id, g.app_id, g.campaign_id, g.day, g.locale, g.delivered, g.impressions, g.clicks, g.dismissals,
               coalesce(u.delivered, 0), coalesce(u.impressions, 0), coalesce(u.clicks, 0), coalesce(u.dismissals, 0)
        FROM (SELECT tenant_id, app_id, campaign_id, day, locale,
                     sum(delivered) AS delivered, sum(impressions) AS impressions,
                     sum(clicks) AS clicks, sum(dismissals) AS dismissals
              FROM per_device_day
              GROUP BY 1, 2, 3, 4, 5) g
        LEFT JOIN (SELECT campaign_id, day, locale,
                          count(*) FILTER (WHERE bits & 1 <> 0) AS delivered,
                          count(*) FILTER (WHERE bits & 2 <> 0) AS impressions,
                          count(*) FILTER (WHERE bits & 4 <> 0) AS clicks,
                          count(*) FILTER (WHERE bits & 8 <> 0) AS dismissals
                   FROM marked
                   GROUP BY 1, 2, 3) u USING (campaign_id, day, locale)
        """

    /// The batch's totals added to the rollups, in key order, just before the commit: the
    /// rows every batch shares are held for as short a time as possible. Returns how many
    /// events were new.
    private static let addToRollups: SQL = """
        WITH campaigns AS (
            INSERT INTO campaign_rollup AS r
                (tenant_id, app_id, campaign_id, delivered, impressions, clicks, dismissals, unique_devices, first_at, last_at)
            SELECT * FROM batch_campaign_totals ORDER BY campaign_id
            ON CONFLICT (campaign_id) DO UPDATE SET
                delivered = r.delivered + excluded.delivered,
                impressions = r.impressions + excluded.impressions,
                clicks = r.clicks + excluded.clicks,
                dismissals = r.dismissals + excluded.dismissals,
                unique_devices = r.unique_devices + excluded.unique_devices,
                first_at = least(r.first_at, excluded.first_at),
                last_at = greatest(r.last_at, excluded.last_at)
        ), daily AS (
            INSERT INTO campaign_daily_rollup AS r
            SELECT * FROM batch_daily_totals ORDER BY campaign_id, day, locale
            ON CONFLICT (campaign_id, day, locale) DO UPDATE SET
                delivered = r.delivered + excluded.delivered,
                impressions = r.impressions + excluded.impressions,
                clicks = r.clicks + excluded.clicks,
                dismissals = r.dismissals + excluded.dismissals,
                delivered_devices = r.delivered_devices + excluded.delivered_devices,
                impression_devices = r.impression_devices + excluded.impression_devices,
                click_devices = r.click_devices + excluded.click_devices,
                dismiss_devices = r.dismiss_devices + excluded.dismiss_devices
        )
        SELECT coalesce(sum(delivered + impressions + clicks + dismissals), 0)::bigint AS inserted FROM batch_campaign_totals
        """
}

/// tenant/app/campaign slugs → ids, for every campaign (operators see all), loaded once per
/// ingest: resolving in memory keeps a million lookups out of the database.
struct EventTargets {
    struct IDs {
        let tenant: Int64
        let app: Int64
        let campaign: Int64
    }

    private struct Key: Hashable {
        let tenant: String
        let app: String
        let campaign: String
    }

    private var campaigns: [Key: IDs] = [:]
    private var tenants: Set<String> = []
    private var apps: Set<String> = []  // "tenant/app"
    private var campaignTenants: [String: Set<String>] = [:]  // "app/campaign" → tenants having it

    static func load(_ connection: Connection) throws -> EventTargets {
        var targets = EventTargets()
        for row in try connection.query("SELECT slug::text AS slug FROM tenants") {
            targets.tenants.insert(try row.decode("slug"))
        }
        for row in try connection.query("SELECT t.slug::text AS tenant, a.slug::text AS app FROM apps a JOIN tenants t ON t.id = a.tenant_id") {
            targets.apps.insert("\(try row.decode("tenant", as: String.self))/\(try row.decode("app", as: String.self))")
        }
        let rows = try connection.query(
            """
            SELECT t.slug::text AS tenant, a.slug::text AS app, c.key::text AS campaign, t.id AS tenant_id, a.id AS app_id, c.id
            FROM campaigns c JOIN apps a ON a.id = c.app_id JOIN tenants t ON t.id = c.tenant_id
            """)
        for row in rows {
            let tenant: String = try row.decode("tenant")
            let app: String = try row.decode("app")
            let campaign: String = try row.decode("campaign")
            targets.campaigns[Key(tenant: tenant, app: app, campaign: campaign)] = IDs(tenant: try row.decode("tenant_id"), app: try row.decode("app_id"), campaign: try row.decode("id"))
            targets.campaignTenants["\(app)/\(campaign)", default: []].insert(tenant)
        }
        return targets
    }

    func resolve(_ event: DeliveryEvent) -> Result<IDs, EventProblem> {
        let tenant = event.tenant.rawValue
        let app = event.app.rawValue
        let campaign = event.campaign.rawValue
        if let ids = campaigns[Key(tenant: tenant, app: app, campaign: campaign)] { return .success(ids) }
        guard tenants.contains(tenant) else { return .failure(EventProblem("unknown tenant \"\(tenant)\"")) }
        if let others = campaignTenants["\(app)/\(campaign)"], !others.contains(tenant) {
            return .failure(EventProblem("campaign \"\(app)/\(campaign)\" belongs to another tenant, not \"\(tenant)\""))
        }
        guard apps.contains("\(tenant)/\(app)") else { return .failure(EventProblem("unknown app \"\(app)\" in tenant \"\(tenant)\"")) }
        return .failure(EventProblem("unknown campaign \"\(campaign)\" in \(tenant)/\(app)"))
    }
}

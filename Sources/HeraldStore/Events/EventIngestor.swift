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
/// Batches run one at a time across all ingests (and never beside a prune), which is what
/// keeps the unique-device counts exact.
public final class EventIngestor {
    private let database: HeraldDatabase
    private var targets: EventTargets
    private var partitionsMade: Set<String> = []
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
        // Batches are staged in a temporary table: let it live in memory (only possible
        // before the session's first temporary table).
        _ = try? database.connection.execute("SET temp_buffers = '64MB'")
        targets = try database.asOperator(readOnly: true) { try EventTargets.load($0.connection) }
    }

    /// Stores the events of `records` and reports what became of each.
    public func ingest(_ records: [EventRecord]) throws -> (counts: IngestCounts, rejections: [EventRejection]) {
        var counts = IngestCounts()
        counts.read = records.count
        var rejections: [EventRejection] = []
        var resolved: [(record: EventRecord, event: DeliveryEvent, ids: EventTargets.IDs)] = []
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
                case .success(let ids): resolved.append((record, event, ids))
                case .failure(let problem): rejections.append(Self.rejection(record, problem.description))
                }
            }
        }
        guard !resolved.isEmpty else {
            counts.rejected = rejections.count
            return (counts, rejections.sorted { $0.line < $1.line })
        }

        let inserted = try database.asOperator { session -> Int in
            let connection = session.connection
            // One batch at a time, and never while a prune drops months (same lock).
            try connection.execute("SELECT pg_advisory_xact_lock(4851, 1)")
            let horizon = try connection.query("SELECT pruned_before::text AS day FROM event_retention")
                .first.map { try $0.decode("day", as: String.self) }
            if let horizon {
                resolved.removeAll { item in
                    guard item.event.at.epochSeconds < Self.epochSeconds(day: horizon) else { return false }
                    rejections.append(
                        Self.rejection(item.record, "at is before \(horizon): events before then were pruned (`herald events prune`)"))
                    return true
                }
            }
            for month in Set(resolved.map { Self.month(of: $0.event.at) }) where !partitionsMade.contains(month) {
                try connection.execute("SELECT herald_ensure_event_partitions($1::date)", [month + "-01"])
                partitionsMade.insert(month)
            }
            guard !resolved.isEmpty else { return 0 }
            try connection.execute(Self.createStaging)
            _ = try timed("copy into staging") {
                try connection.copyIn(
                "COPY event_staging (line, event_id, tenant_id, app_id, campaign_id, device, kind, at, locale, app_version, os_version) FROM STDIN"
            ) { writer in
                for item in resolved {
                    let e = item.event
                    try writer.writeRow([
                        String(item.record.line), e.eventID, String(item.ids.tenant), String(item.ids.app), String(item.ids.campaign),
                        e.device, e.kind.rawValue, e.at.text, e.locale.rawValue, e.appVersion, e.osVersion,
                    ])
                }
            }
            }
            return try timed("store the batch") { try connection.query(Self.storeBatch)[0].decode("inserted") }
        }
        counts.inserted = inserted
        counts.duplicate = resolved.count - inserted
        counts.rejected = rejections.count
        return (counts, rejections.sorted { $0.line < $1.line })
    }

    private static func rejection(_ record: EventRecord, _ reason: String) -> EventRejection {
        EventRejection(line: record.line, reason: reason, text: record.text)
    }

    /// `YYYY-MM` of the event's UTC time: the month partition it lands in.
    static func month(of time: EventTime) -> String {
        let seconds = time.epochSeconds
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        // Civil date from days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d", year, month)
    }

    /// Seconds since 1970 at the start of a `YYYY-MM-DD` day (UTC).
    static func epochSeconds(day: String) -> Int64 {
        EventTime(day + "T00:00:00Z")?.epochSeconds ?? Int64.min
    }

    // MARK: SQL

    private static let createStaging = """
        CREATE TEMP TABLE event_staging (
            line         bigint NOT NULL,
            event_id     uuid NOT NULL,
            tenant_id    bigint NOT NULL,
            app_id       bigint NOT NULL,
            campaign_id  bigint NOT NULL,
            device       text NOT NULL,
            kind         event_kind NOT NULL,
            at           timestamptz NOT NULL,
            locale       text NOT NULL,
            app_version  text NOT NULL,
            os_version   text
        ) ON COMMIT DROP
        """

    /// After COPY, one statement: the new events (ids never stored; an id repeated in the
    /// batch counts once, at its first line), the history, and every rollup, all from the
    /// same rows. Returns how many events were new.
    private static let storeBatch = """
        WITH fresh AS (
            INSERT INTO event_ids (event_id)
            SELECT DISTINCT event_id FROM event_staging
            ON CONFLICT (event_id) DO NOTHING
            RETURNING event_id
        ), new_events AS MATERIALIZED (
            SELECT DISTINCT ON (s.event_id) s.*, (s.at AT TIME ZONE 'UTC')::date AS day
            FROM event_staging s JOIN fresh USING (event_id)
            ORDER BY s.event_id, s.line
        ), history AS (
            INSERT INTO delivery_events (tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version)
            SELECT tenant_id, app_id, campaign_id, event_id, device, kind, at, locale, app_version, os_version
            FROM new_events
            ORDER BY campaign_id, at
        ),

        -- Per device and campaign; (xmax = 0) is true for the rows the upsert inserted, i.e.
        -- devices new to the campaign, which is what the campaign's unique count adds.
        per_device AS (
            SELECT tenant_id, app_id, campaign_id, device, min(at) AS first_at, max(at) AS last_at,
                   count(*) FILTER (WHERE kind = 'delivered') AS delivered,
                   count(*) FILTER (WHERE kind = 'impression') AS impressions,
                   count(*) FILTER (WHERE kind = 'click') AS clicks,
                   count(*) FILTER (WHERE kind = 'dismiss') AS dismissals
            FROM new_events
            GROUP BY tenant_id, app_id, campaign_id, device
        ), device_summary AS (
            INSERT INTO device_campaign_summary AS d
                (tenant_id, app_id, campaign_id, device, first_at, last_at, delivered, impressions, clicks, dismissals)
            SELECT * FROM per_device
            ON CONFLICT (campaign_id, device) DO UPDATE SET
                first_at = least(d.first_at, excluded.first_at),
                last_at = greatest(d.last_at, excluded.last_at),
                delivered = d.delivered + excluded.delivered,
                impressions = d.impressions + excluded.impressions,
                clicks = d.clicks + excluded.clicks,
                dismissals = d.dismissals + excluded.dismissals
            RETURNING d.campaign_id, (xmax = 0) AS new_device
        ), new_devices AS (
            SELECT campaign_id, count(*) FILTER (WHERE new_device) AS n FROM device_summary GROUP BY campaign_id
        ), campaign_totals AS (
            INSERT INTO campaign_rollup AS r
                (tenant_id, app_id, campaign_id, delivered, impressions, clicks, dismissals, unique_devices, first_at, last_at)
            SELECT p.tenant_id, p.app_id, p.campaign_id, sum(p.delivered), sum(p.impressions), sum(p.clicks), sum(p.dismissals),
                   coalesce(max(n.n), 0), min(p.first_at), max(p.last_at)
            FROM per_device p LEFT JOIN new_devices n USING (campaign_id)
            GROUP BY p.tenant_id, p.app_id, p.campaign_id
            ON CONFLICT (campaign_id) DO UPDATE SET
                delivered = r.delivered + excluded.delivered,
                impressions = r.impressions + excluded.impressions,
                clicks = r.clicks + excluded.clicks,
                dismissals = r.dismissals + excluded.dismissals,
                unique_devices = r.unique_devices + excluded.unique_devices,
                first_at = least(r.first_at, excluded.first_at),
                last_at = greatest(r.last_at, excluded.last_at)
        ),

        -- Per campaign, UTC day, locale and kind. A device counts once per day, locale and
        -- kind: campaign_device_days keeps a bit per kind it has counted; the upsert returns
        -- the bits it set (rows where nothing new was set are left alone and not returned).
        per_day AS (
            SELECT campaign_id, day, locale, device,
                   bit_or(CASE kind WHEN 'delivered' THEN 1 WHEN 'impression' THEN 2 WHEN 'click' THEN 4 ELSE 8 END)::smallint AS kinds
            FROM new_events
            GROUP BY 1, 2, 3, 4
        ), marked AS (
            INSERT INTO campaign_device_days AS d (campaign_id, day, locale, device, kinds)
            SELECT * FROM per_day
            ON CONFLICT (campaign_id, day, locale, device) DO UPDATE
                SET previous_kinds = d.kinds, kinds = d.kinds | excluded.kinds
                WHERE d.kinds | excluded.kinds <> d.kinds
            RETURNING d.campaign_id, d.day, d.locale, d.kinds & ~d.previous_kinds AS bits
        ), new_uniques AS (
            SELECT m.campaign_id, m.day, m.locale::text AS locale, k.kind, count(*) AS n
            FROM marked m
            JOIN (VALUES ('delivered'::event_kind, 1), ('impression', 2), ('click', 4), ('dismiss', 8)) AS k (kind, bit)
              ON m.bits & k.bit <> 0
            GROUP BY 1, 2, 3, 4
        ), daily AS (
            INSERT INTO campaign_daily_rollup AS r (tenant_id, app_id, campaign_id, day, locale, kind, events, unique_devices)
            SELECT g.tenant_id, g.app_id, g.campaign_id, g.day, g.locale, g.kind, g.events, coalesce(u.n, 0)
            FROM (SELECT tenant_id, app_id, campaign_id, day, locale, kind, count(*) AS events
                  FROM new_events GROUP BY 1, 2, 3, 4, 5, 6) g
            LEFT JOIN new_uniques u USING (campaign_id, day, locale, kind)
            ON CONFLICT (campaign_id, day, locale, kind) DO UPDATE SET
                events = r.events + excluded.events,
                unique_devices = r.unique_devices + excluded.unique_devices
        )
        SELECT count(*) AS inserted FROM new_events
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

    private var campaigns: [String: IDs] = [:]  // "tenant/app/campaign"
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
            targets.campaigns["\(tenant)/\(app)/\(campaign)"] = IDs(tenant: try row.decode("tenant_id"), app: try row.decode("app_id"), campaign: try row.decode("id"))
            targets.campaignTenants["\(app)/\(campaign)", default: []].insert(tenant)
        }
        return targets
    }

    func resolve(_ event: DeliveryEvent) -> Result<IDs, EventProblem> {
        let tenant = event.tenant.rawValue
        let app = event.app.rawValue
        let campaign = event.campaign.rawValue
        if let ids = campaigns["\(tenant)/\(app)/\(campaign)"] { return .success(ids) }
        guard tenants.contains(tenant) else { return .failure(EventProblem("unknown tenant \"\(tenant)\"")) }
        if let others = campaignTenants["\(app)/\(campaign)"], !others.contains(tenant) {
            return .failure(EventProblem("campaign \"\(app)/\(campaign)\" belongs to another tenant, not \"\(tenant)\""))
        }
        guard apps.contains("\(tenant)/\(app)") else { return .failure(EventProblem("unknown app \"\(app)\" in tenant \"\(tenant)\"")) }
        return .failure(EventProblem("unknown campaign \"\(campaign)\" in \(tenant)/\(app)"))
    }
}

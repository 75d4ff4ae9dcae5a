import HeraldCore
import PostgresClient

/// An event of a batch ready for the staging table: its campaign resolved, its time worked
/// out as PostgreSQL stores it; and its row of the binary COPY into event_staging.
struct StagedEvent {
    let record: EventRecord
    let event: DeliveryEvent
    let ids: EventTargets.IDs
    /// `at` as timestamptz holds it (`EventClock`).
    let microseconds: Int64
    /// The UTC day of `at`, as a date holds it.
    let day: Int32
    /// Its place in the batch as given.
    let position: Int

    init(record: EventRecord, event: DeliveryEvent, ids: EventTargets.IDs, position: Int) {
        self.record = record
        self.event = event
        self.ids = ids
        self.position = position
        microseconds = EventClock.microsecondsSince2000(event.at)
        day = EventClock.daysSince2000(microseconds: microseconds)
    }

    /// The COPY that `appendRow` writes the rows of (event_staging: queries/events.sql).
    static let copy: SQL = """
        COPY event_staging (event_id, tenant_id, app_id, campaign_id, device, kind, at, day, locale, app_version, os_version)
        FROM STDIN WITH (FORMAT binary)
        """

    /// This event's row, in the column order of `copy`.
    func appendRow(to rows: inout BinaryCopyRows) {
        rows.startRow(fields: 11)
        rows.appendUUID(high: event.id.high, low: event.id.low)
        rows.appendInt64(ids.tenant)
        rows.appendInt64(ids.app)
        rows.appendInt64(ids.campaign)
        rows.appendText(event.device)
        rows.appendText(event.kind.rawValue)
        rows.appendInt64(microseconds)
        rows.appendInt32(day)
        rows.appendText(event.locale.rawValue)
        rows.appendText(event.appVersion)
        if let os = event.osVersion { rows.appendText(os) } else { rows.appendNull() }
    }
}

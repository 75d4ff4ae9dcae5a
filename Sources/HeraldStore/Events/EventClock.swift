import HeraldCore

/// The event store's time arithmetic, in one place. PostgreSQL keeps a timestamptz as
/// microseconds and a date as days since 2000-01-01 UTC: an event's day, its month partition
/// and the pruned horizon all follow from the microseconds of its `at`, so they agree with
/// the server. Calendar dates themselves are `UTCDay`'s.
enum EventClock {
    /// 2000-01-01, PostgreSQL's epoch.
    static let postgresEpoch = UTCDay(daysSince1970: 10_957)
    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The event times Herald stores, in microseconds since 2000: 2000-01-01T00:00:00Z up to the
    /// end of 9999 (UTC), as stored (after rounding to the microsecond). A later time, such as
    /// 9999-12-31T23:59:59-14:00, would make a month partition named with a five-digit year,
    /// which `herald events prune` never drops and no day given to Herald can name; an earlier
    /// one is a device clock gone wrong (1970 is a reset clock). 2000-01-01 to 10000-01-01 is
    /// twenty 400-year cycles of 146,097 days.
    static let storable: Range<Int64> = 0..<(20 * 146_097 * microsecondsPerDay)

    /// `time` as timestamptz holds it. A fraction is rounded to the microsecond as
    /// PostgreSQL's own input does: rint of the fraction (read as a double) × 10⁶.
    static func microsecondsSince2000(_ time: EventTime) -> Int64 {
        let micros = (time.epochSeconds - Int64(postgresEpoch.daysSince1970) * 86_400) * 1_000_000
        guard time.nanoseconds > 0 else { return micros }
        // The same double as strtod("0.fraction"): both integers are exact, one division rounds once.
        let fraction = Double(time.nanoseconds) / 1e9
        return micros + Int64((fraction * 1_000_000).rounded(.toNearestOrEven))
    }

    /// The first microsecond of `day`.
    static func microsecondsSince2000(startOf day: UTCDay) -> Int64 {
        Int64(day.daysSince1970 - postgresEpoch.daysSince1970) * microsecondsPerDay
    }

    /// The UTC day of `microseconds` since 2000, as a date holds it (days since 2000).
    static func daysSince2000(microseconds: Int64) -> Int32 {
        let days = microseconds >= 0 ? microseconds / microsecondsPerDay : -((-microseconds + microsecondsPerDay - 1) / microsecondsPerDay)
        return Int32(truncatingIfNeeded: days)
    }

    static func day(daysSince2000: Int32) -> UTCDay {
        postgresEpoch.adding(days: Int(daysSince2000))
    }
}

/// A month of events: the partition of delivery_events and campaign_device_days its events
/// land in.
struct EventMonth: Hashable, Comparable {
    /// Its first day, which names the partition to herald_ensure_event_partitions.
    let firstDay: UTCDay

    init(_ day: UTCDay) {
        firstDay = day.adding(days: 1 - day.date.day)
    }

    static func < (lhs: EventMonth, rhs: EventMonth) -> Bool {
        lhs.firstDay < rhs.firstDay
    }
}

import Foundation

/// What a device did with a campaign.
public enum EventKind: String, CaseIterable, Sendable, Codable {
    case delivered, impression, click, dismiss
}

/// One event as a device (or the operator's collector) reports it, checked field by field so
/// that everything the database will be handed is already known to fit.
///
/// Columns, in NDJSON keys or CSV header names: event_id, tenant, app, campaign, device,
/// kind, at, locale, app_version, os_version (optional).
public struct DeliveryEvent: Equatable, Sendable {
    /// The client's UUID for the event, read once.
    public let id: EventID
    public let tenant: Slug
    public let app: Slug
    public let campaign: Slug
    /// Opaque device id: 1 to 128 characters (Unicode code points, as PostgreSQL counts them).
    public let device: String
    public let kind: EventKind
    /// ISO 8601 with a zone, exactly as given (PostgreSQL reads it as timestamptz).
    public let at: EventTime
    public let locale: LocaleTag
    public let appVersion: String
    public let osVersion: String?

    public static let columns = ["event_id", "tenant", "app", "campaign", "device", "kind", "at", "locale", "app_version", "os_version"]
    public static let requiredColumns = Array(columns.dropLast())

    /// The event from its named fields (nil or absent: missing), or why it is not one.
    public init(fields: [String: String?]) throws(EventProblem) {
        var values = EventFields()
        for (index, name) in Self.columns.enumerated() {
            if let present = fields[name] { values[index] = present }
        }
        try self.init(values)
    }

    /// The event from its fields in `columns` order (nil: absent or null), or why it is not
    /// one; the fast NDJSON path comes here without building a dictionary.
    init(_ fields: EventFields) throws(EventProblem) {
        func required(_ index: Int) throws(EventProblem) -> String {
            guard let value = fields[index] else { throw EventProblem("missing field \"\(Self.columns[index])\"") }
            guard !value.utf8.contains(0) else { throw EventProblem("\(Self.columns[index]) contains a NUL character") }
            return value
        }
        func slug(_ index: Int) throws(EventProblem) -> Slug {
            let raw = try required(index)
            do {
                return try Slug(raw)
            } catch {
                throw EventProblem("\(Self.columns[index]) \"\(raw.prefix(80))\" is not a slug (lowercase letters, digits and -)")
            }
        }
        let idText = try required(0)
        guard let id = EventID(idText) else { throw EventProblem("event_id \"\(idText.prefix(80))\" is not a UUID") }
        self.id = id
        tenant = try slug(1)
        app = try slug(2)
        campaign = try slug(3)
        device = try required(4)
        guard !device.isEmpty else { throw EventProblem("device is empty") }
        guard Self.fits(device, 128) else { throw EventProblem("device is longer than 128 characters (Unicode code points)") }
        let kindText = try required(5)
        guard let kind = EventKind(rawValue: kindText) else {
            throw EventProblem("kind \"\(kindText.prefix(80))\" is not one of \(EventKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.kind = kind
        let atText = try required(6)
        guard let at = EventTime(atText) else {
            throw EventProblem("at \"\(atText.prefix(80))\" is not an ISO 8601 time with a zone (like 2026-11-23T09:30:00Z)")
        }
        self.at = at
        let localeText = try required(7)
        do {
            locale = try LocaleTag(localeText)
        } catch {
            throw EventProblem("locale \"\(localeText.prefix(80))\" is not a locale tag (like en, de, pt-BR)")
        }
        appVersion = try required(8)
        guard !appVersion.isEmpty, Self.fits(appVersion, 64) else {
            throw EventProblem("app_version must have 1 to 64 characters (Unicode code points)")
        }
        if let value = fields[9], !value.isEmpty {
            guard !value.utf8.contains(0) else { throw EventProblem("os_version contains a NUL character") }
            guard Self.fits(value, 64) else { throw EventProblem("os_version is longer than 64 characters (Unicode code points)") }
            osVersion = value
        } else {
            osVersion = nil
        }
    }

    /// Whether `text` has at most `limit` characters as the database counts them: its
    /// `length()` counts code points (0009_delivery_events.sql's CHECKs), not the grapheme
    /// clusters of `String.count` ("e" and a combining accent are one of those, two code
    /// points). No more bytes than the limit means no more code points either.
    static func fits(_ text: String, _ limit: Int) -> Bool {
        text.utf8.count <= limit || text.unicodeScalars.count <= limit
    }

    /// The id as lowercase UUID text.
    public var eventID: String { id.description }

    /// Whether `text` is an event id (`EventID`).
    static func isUUID(_ text: String) -> Bool {
        EventID(text) != nil
    }
}

/// An event's fields in `DeliveryEvent.columns` order; nil is absent or null.
struct EventFields {
    private var values: [String?] = Array(repeating: nil, count: DeliveryEvent.columns.count)

    subscript(index: Int) -> String? {
        get { values[index] }
        set { values[index] = newValue }
    }
}

/// Why one input record is not an event (goes to the rejects with its line number).
public struct EventProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A point in time written as ISO 8601 with a zone and the seconds: `2026-11-23T09:30:00Z`,
/// `2026-11-23T10:30:00.250+01:00`. Read by the one time parser (`TimeText`): real calendar
/// dates, hours below 24, a zone always, so PostgreSQL never refuses what passed here.
public struct EventTime: Equatable, Sendable {
    public let text: String
    /// Seconds since 1970 (fractions apart): for ordering and the pruned horizon.
    public let epochSeconds: Int64
    /// The fraction of a second as written, in nanoseconds (0 without one).
    public let nanoseconds: Int

    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ TimeText($0) }), parsed.hasSeconds else { return nil }
        epochSeconds = parsed.epochSeconds
        nanoseconds = parsed.nanoseconds
        self.text = text
    }
}

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
    /// Lowercase UUID text, as the client made it.
    public let eventID: String
    public let tenant: Slug
    public let app: Slug
    public let campaign: Slug
    /// Opaque device id: 1 to 128 characters.
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
        let id = try required(0)
        guard Self.isUUID(id) else { throw EventProblem("event_id \"\(id.prefix(80))\" is not a UUID") }
        eventID = id.lowercased()
        tenant = try slug(1)
        app = try slug(2)
        campaign = try slug(3)
        device = try required(4)
        guard !device.isEmpty else { throw EventProblem("device is empty") }
        // At most 128 characters: no more bytes than that means no more characters either.
        guard device.utf8.count <= 128 || device.count <= 128 else { throw EventProblem("device is longer than 128 characters") }
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
        guard !appVersion.isEmpty, appVersion.utf8.count <= 64 || appVersion.count <= 64 else {
            throw EventProblem("app_version must have 1 to 64 characters")
        }
        if let value = fields[9], !value.isEmpty {
            guard !value.utf8.contains(0) else { throw EventProblem("os_version contains a NUL character") }
            guard value.utf8.count <= 64 || value.count <= 64 else { throw EventProblem("os_version is longer than 64 characters") }
            osVersion = value
        } else {
            osVersion = nil
        }
    }

    /// 8-4-4-4-12 hex digits (either case) with dashes: what Foundation's UUID(uuidString:)
    /// accepts, checked without making one.
    static func isUUID(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        for (index, byte) in text.utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let lower = byte | 0x20
                guard (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
                else { return false }
            }
        }
        return true
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

/// A point in time written as ISO 8601 with a zone: `2026-11-23T09:30:00Z`,
/// `2026-11-23T10:30:00.250+01:00`. Checked strictly (real calendar dates, hours below 24,
/// a zone always), so PostgreSQL never refuses what passed here.
public struct EventTime: Equatable, Sendable {
    public let text: String
    /// Seconds since 1970 (fractions dropped): for ordering and the pruned horizon.
    public let epochSeconds: Int64

    private static let daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    public init?(_ text: String) {
        var text = text
        guard let seconds = text.withUTF8({ Self.epochSeconds($0) }) else { return nil }
        epochSeconds = seconds
        self.text = text
    }

    /// Seconds since 1970 of the ISO 8601 time in `b`, or nil when it is not one.
    private static func epochSeconds(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let hour = digits(11, 2),
            b[13] == UInt8(ascii: ":"), let minute = digits(14, 2), b[16] == UInt8(ascii: ":"), let second = digits(17, 2),
            year >= 1970, (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard (1...(month == 2 && leap ? 29 : daysInMonth[month - 1])).contains(day) else { return nil }
        var index = 19
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, b[index] >= 48, b[index] <= 57 { index += 1 }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < b.count else { return nil }  // a zone is required
        var offset = 0
        if b[index] == UInt8(ascii: "Z") {
            guard index + 1 == b.count else { return nil }
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            let rest = b.count - index - 1
            guard let hours = digits(index + 1, 2), hours <= 14 else { return nil }
            var minutes = 0
            if rest == 5, b[index + 3] == UInt8(ascii: ":"), let m = digits(index + 4, 2) {
                minutes = m
            } else if rest == 4, let m = digits(index + 3, 2) {
                minutes = m
            } else if rest != 2 {
                return nil
            }
            guard minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        // Days from the civil date (Howard Hinnant's algorithm), then seconds.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
    }
}

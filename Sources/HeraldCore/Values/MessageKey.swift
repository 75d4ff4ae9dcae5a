import Foundation

/// An iNotify message key: devices remember every key they showed or were asked to ignore,
/// forever, and show keys in case-insensitive sorted order, newest (last) first.
public struct MessageKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        let allowed = raw.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/_.:-".unicodeScalars.contains(scalar))
        }
        guard (1...64).contains(raw.count), allowed, raw.first?.isASCIILetter == true || raw.first?.isASCIIDigit == true else {
            throw ValidationError(
                message: "invalid message key \(quote(raw)): use 1-64 letters, digits and / _ . : -, starting with a letter or digit "
                    + "(the convention is a date, 2026/05/01)")
        }
        rawValue = raw
    }

    /// `YYYY/MM/DD` of `date` in UTC, then `-2`, `-3`, … while the key is taken.
    public static func defaultKey(for date: Date, taken: Set<String>) -> MessageKey {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let base = String(format: "%04d/%02d/%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        // A date key is always well-formed.
        return MessageKey(unchecked: candidate)
    }

    private init(unchecked raw: String) {
        rawValue = raw
    }

    public var description: String { rawValue }

    /// iNotify's order: case-insensitive.
    public static func < (lhs: MessageKey, rhs: MessageKey) -> Bool {
        lhs.rawValue.lowercased() < rhs.rawValue.lowercased()
    }
}

import Foundation

/// An iNotify message key: devices remember every key they showed or were asked to ignore,
/// forever, and show keys in case-insensitive sorted order, newest (last) first.
public struct MessageKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        // A key of allowed ASCII bytes (every valid key) passes the rules below as it is (each
        // byte is a character, and ASCII's alphabetic characters are its letters): checked
        // byte by byte, without Unicode's tables, as every alert of a snapshot is read.
        if raw.utf8.withContiguousStorageIfAvailable(Self.isPlainKey) == true {
            rawValue = raw
            return
        }
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

    private static func isPlainKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            // `| 0x20` lowercases an ASCII capital and maps no other byte into a...z.
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (1...64).contains(bytes.count), let first = bytes.first, isLetterOrDigit(first) else { return false }
        return bytes.allSatisfy { byte in
            isLetterOrDigit(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
        }
    }

    /// The default key for an alert starting (or created) at `date`: `YYYY/MM/DD` in UTC, and
    /// when the app has used keys of that day, the next key of this sequence that sorts after
    /// every one of them in iNotify's order, so that string order is creation order forever:
    ///
    ///     2026/11/23, 2026/11/23-2 … 2026/11/23-9, 2026/11/23-b10 … 2026/11/23-b99, 2026/11/23-c100 …
    ///
    /// (from the 10th, a letter gives the number of digits: `b` two, `c` three, …; a plain
    /// `-10` would sort before `-2`). `taken` is every key the app ever used, compared
    /// case-insensitively as iNotify does.
    public static func defaultKey(for date: Date, taken: Set<String>) -> MessageKey {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let base = String(format: "%04d/%02d/%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        let lowerTaken = Set(taken.map { $0.lowercased() })
        let sameDay = taken.filter { $0.lowercased().hasPrefix(base) }
        guard let greatest = sameDay.max(by: { order($0, $1) < 0 }) else { return MessageKey(unchecked: base) }
        var number = (dailyNumber(of: greatest, base: base) ?? 1) + 1
        while number < 1_000_000 {
            let candidate = base + dailySuffix(number)
            if order(candidate, greatest) > 0, !lowerTaken.contains(candidate.lowercased()) { return MessageKey(unchecked: candidate) }
            number += 1
        }
        // A key chosen by hand sorts after the whole sequence (2026/11/23-z): follow it.
        var suffix = 2
        while lowerTaken.contains("\(greatest)-\(suffix)".lowercased()) { suffix += 1 }
        return MessageKey(unchecked: String("\(greatest)-\(suffix)".suffix(64)))
    }

    /// `-2` … `-9`, then `-b10` … `-b99`, `-c100` …: a letter for the number of digits.
    static func dailySuffix(_ number: Int) -> String {
        let digits = String(number)
        if digits.count == 1 { return "-" + digits }
        let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(digits.count - 1)))
        return "-\(letter)\(digits)"
    }

    /// The position of `key` in its day's sequence (1 for the bare date), or nil for a key
    /// that is not one of the sequence's.
    static func dailyNumber(of key: String, base: String) -> Int? {
        guard key.lowercased().hasPrefix(base) else { return nil }
        let suffix = key.dropFirst(base.count).lowercased()
        if suffix.isEmpty { return 1 }
        let digits = suffix.drop { !$0.isASCIIDigit }
        guard let number = Int(digits), number >= 2, dailySuffix(number) == suffix else { return nil }
        return number
    }

    private init(unchecked raw: String) {
        rawValue = raw
    }

    public var description: String { rawValue }

    /// iNotify's order: `caseInsensitiveCompare:` (letters folded to lowercase, then by character code).
    public static func < (lhs: MessageKey, rhs: MessageKey) -> Bool {
        order(lhs.rawValue, rhs.rawValue) < 0
    }

    /// iNotify's order on any two keys: -1, 0 (the same but for case: no defined order on the
    /// device) or 1. Property-tested against Foundation's `caseInsensitiveCompare`.
    public static func order(_ a: String, _ b: String) -> Int {
        let x = a.lowercased()
        let y = b.lowercased()
        return x == y ? 0 : (x < y ? -1 : 1)
    }
}

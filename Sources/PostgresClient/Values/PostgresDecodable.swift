import Foundation

/// A value read from a result column in text format. `decode(postgresText: nil)` is SQL NULL:
/// non-optional types refuse it, `Optional` turns it into nil.
public protocol PostgresDecodable {
    static func decode(postgresText: String?) throws(PostgresDecodingFailure) -> Self
    /// The same from the value's bytes as libpq holds them (nil is NULL). By default they
    /// become a String for `decode(postgresText:)`; numbers and times read them directly.
    static func decode(postgresBytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Self
}

extension PostgresDecodable {
    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Self {
        // Invalid UTF-8 is repaired as String(cString:) repairs it.
        try decode(postgresText: bytes.map { String(decoding: $0, as: UTF8.self) })
    }
}

/// Why a column's text could not become the requested type (the column is added by `Row`).
public struct PostgresDecodingFailure: Error, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Types that decode from non-NULL text.
public protocol PostgresTextDecodable: PostgresDecodable {
    init(postgresNonNullText text: String) throws(PostgresDecodingFailure)
}

extension PostgresTextDecodable {
    public static func decode(postgresText: String?) throws(PostgresDecodingFailure) -> Self {
        guard let text = postgresText else { throw PostgresDecodingFailure("is NULL") }
        return try Self(postgresNonNullText: text)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(postgresText: String?) throws(PostgresDecodingFailure) -> Wrapped? {
        guard let text = postgresText else { return nil }
        return try Wrapped.decode(postgresText: text)
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Wrapped? {
        guard let bytes else { return nil }
        return try Wrapped.decode(postgresBytes: bytes)
    }
}

extension String: PostgresTextDecodable {
    public init(postgresNonNullText text: String) { self = text }
}

extension PostgresTextDecodable where Self: FixedWidthInteger {
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        guard let value = Self(text) else { throw PostgresDecodingFailure("\"\(text)\" is not a \(Self.bitWidth)-bit integer") }
        self = value
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Self {
        if let bytes, let value = decimal(bytes) { return value }
        // NULL, or not a plain decimal: the text path says why in its words.
        return try decode(postgresText: bytes.map { String(decoding: $0, as: UTF8.self) })
    }

    /// What `Self(text)` reads, without making the text: an optional sign, then decimal
    /// digits that fit; nil for anything else.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: Self = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Negative numbers accumulate downwards, so the most negative value fits too.
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? shifted.subtractingReportingOverflow(Self(digit)) : shifted.addingReportingOverflow(Self(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }
}

extension Int: PostgresTextDecodable {}
extension Int32: PostgresTextDecodable {}
extension Int64: PostgresTextDecodable {}

extension Double: PostgresTextDecodable {
    /// float4/float8 and numeric text.
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        guard let value = Double(text) else { throw PostgresDecodingFailure("\"\(text)\" is not a number") }
        self = value
    }
}

extension Bool: PostgresTextDecodable {
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: throw PostgresDecodingFailure("\"\(text)\" is not a boolean")
        }
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Bool {
        // What the server sends; anything else takes the text path.
        if let bytes, bytes.count == 1 {
            if bytes[0] == UInt8(ascii: "t") { return true }
            if bytes[0] == UInt8(ascii: "f") { return false }
        }
        return try decode(postgresText: bytes.map { String(decoding: $0, as: UTF8.self) })
    }
}

extension Date: PostgresTextDecodable {
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        guard let date = PostgresTimestamp.parse(text) else {
            throw PostgresDecodingFailure("\"\(text)\" is not a finite timestamptz")
        }
        self = date
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?) throws(PostgresDecodingFailure) -> Date {
        if let bytes, let date = PostgresTimestamp.parse(bytes) { return date }
        return try decode(postgresText: bytes.map { String(decoding: $0, as: UTF8.self) })
    }
}

extension UUID: PostgresTextDecodable {
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        guard let value = UUID(uuidString: text) else { throw PostgresDecodingFailure("\"\(text)\" is not a UUID") }
        self = value
    }
}

extension Data: PostgresTextDecodable {
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        guard text.hasPrefix("\\x"), text.utf8.count % 2 == 0 else {
            throw PostgresDecodingFailure("is not bytea in hex format")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2 - 1)
        var digits = text.utf8.dropFirst(2).makeIterator()
        while let high = digits.next(), let low = digits.next() {
            guard let h = hexValue(high), let l = hexValue(low) else {
                throw PostgresDecodingFailure("is not bytea in hex format")
            }
            bytes.append(h << 4 | l)
        }
        self = Data(bytes)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension PostgresJSON: PostgresTextDecodable {
    public init(postgresNonNullText text: String) { self.init(text) }
}

extension Array: PostgresDecodable where Element == String {}
extension Array: PostgresTextDecodable where Element == String {
    /// Parses a one-dimensional text[] literal: `{a,"b c","d\"e",NULL}`. NULL elements are refused.
    public init(postgresNonNullText text: String) throws(PostgresDecodingFailure) {
        self = try PostgresArrayLiteral.parse(text)
    }
}

enum PostgresArrayLiteral {
    static func parse(_ text: String) throws(PostgresDecodingFailure) -> [String] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "{", scalars.last == "}" else {
            throw PostgresDecodingFailure("\"\(text)\" is not an array literal")
        }
        let body = scalars[1..<(scalars.count - 1)]
        if body.isEmpty { return [] }
        var elements: [String] = []
        var index = body.startIndex
        while true {
            var element = String.UnicodeScalarView()
            var quoted = false
            if index < body.endIndex, body[index] == "\"" {
                quoted = true
                index += 1
                while index < body.endIndex, body[index] != "\"" {
                    if body[index] == "\\", index + 1 < body.endIndex { index += 1 }
                    element.append(body[index])
                    index += 1
                }
                guard index < body.endIndex else { throw PostgresDecodingFailure("unterminated array element") }
                index += 1
            } else {
                while index < body.endIndex, body[index] != "," {
                    element.append(body[index])
                    index += 1
                }
            }
            let value = String(element)
            if !quoted, value == "NULL" { throw PostgresDecodingFailure("array holds a NULL element") }
            elements.append(value)
            if index == body.endIndex { return elements }
            guard body[index] == "," else { throw PostgresDecodingFailure("\"\(text)\" is not a one-dimensional array") }
            index += 1
        }
    }
}

import Foundation

/// A value sent as a query parameter, in PostgreSQL's text format. `nil` is SQL NULL.
/// Casts belong in the SQL (`$1::uuid`), so every parameter travels as text.
public protocol PostgresEncodable {
    var postgresText: String? { get }
}

extension String: PostgresEncodable {
    public var postgresText: String? { self }
}

extension Int: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Double: PostgresEncodable {
    /// Shortest text that reads back as the same Double ("88.5", "5.0" → "5.0").
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return "\(self)"
    }
}

extension Bool: PostgresEncodable {
    public var postgresText: String? { self ? "true" : "false" }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC with microseconds, which timestamptz reads exactly.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension UUID: PostgresEncodable {
    public var postgresText: String? { uuidString.lowercased() }
}

extension Data: PostgresEncodable {
    /// bytea hex format, built in one buffer (large blobs are common: published files).
    public var postgresText: String? {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 2 + count * 2)
        out[0] = UInt8(ascii: "\\")
        out[1] = UInt8(ascii: "x")
        var index = 2
        for byte in self {
            out[index] = digits[Int(byte >> 4)]
            out[index + 1] = digits[Int(byte & 0x0F)]
            index += 2
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Array: PostgresEncodable where Element: PostgresEncodable {
    /// An array literal of the elements' texts (`PostgresArray.literal`), for a parameter cast in
    /// the SQL (`$1::text[]`, `$2::bigint[]`): publishes send arrays of tens of thousands of ids.
    public var postgresText: String? { PostgresArray.literal(lazy.map { $0.postgresText }) }
}

/// PostgreSQL's text form of a one-dimensional array, for a parameter cast in the SQL
/// (`$1::text[]`, `$2::bigint[]`): every element double-quoted with `"` and `\` escaped, nil an
/// unquoted NULL. Built byte by byte: arrays of tens of thousands of elements are common.
public enum PostgresArray {
    public static func literal<Elements: Collection>(_ elements: Elements) -> String where Elements.Element == String? {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(2 + elements.reduce(0) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard let element else {
                out.append(contentsOf: "NULL".utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresText: String? { self?.postgresText }
}

/// JSON text for json/jsonb parameters and columns.
public struct PostgresJSON: Sendable, Equatable, PostgresEncodable {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var postgresText: String? { text }
}

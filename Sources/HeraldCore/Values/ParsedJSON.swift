import Foundation

/// A JSON value read back from text the database keeps (the audit log's row images), so that
/// `--json` nests it as an object instead of a string, with object keys in camelCase as every
/// other key Herald prints.
public enum ParsedJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ParsedJSON])
    case object([String: ParsedJSON])

    /// The value of `text`, or nil when it is not JSON.
    public init?(text: String) {
        guard let value = try? JSONDecoder().decode(ParsedJSON.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ParsedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ParsedJSON].self))
        }
    }

    /// The same value with every object key in camelCase (`starts_at` → `startsAt`).
    public var camelCased: ParsedJSON {
        switch self {
        case .array(let values): .array(values.map(\.camelCased))
        case .object(let members): .object(Dictionary(members.map { (ParsedJSON.camelCaseKey($0.key), $0.value.camelCased) }) { first, _ in first })
        default: self
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    /// A column or field name as a JSON key: `click_through_rate` → `clickThroughRate`.
    public static func camelCaseKey(_ name: String) -> String {
        let words = name.split(separator: "_")
        guard let first = words.first else { return name }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

import Foundation
import HeraldCore

/// `printJSON`'s text.
public func jsonText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(formatTimestamp(date))
    }
    return TerminalText.safeJSON(compactEmptyContainers(String(decoding: try encoder.encode(value), as: UTF8.self)))
}

/// A column or field name as a JSON key: `click_through_rate` → `clickThroughRate`.
public func camelCaseKey(_ name: String) -> String { ParsedJSON.camelCaseKey(name) }

/// Foundation pretty-prints an empty array or object over three lines; scripts and people
/// expect `[]` and `{}`. (A JSON string never holds a raw newline, so this cannot touch one.)
///
/// One pass over the bytes (a publish prints tens of thousands of paths: a regular
/// expression over them cost more than encoding them). Foundation writes only spaces and
/// newlines between tokens, so `[` or `{`, a newline, blanks holding another newline, and
/// the closing bracket is exactly an empty container.
public func compactEmptyContainers(_ json: String) -> String {
    let bytes = Array(json.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        out.append(byte)
        index += 1
        let close: UInt8 = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : 0
        guard close != 0, index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { continue }
        var end = index + 1
        var newlines = 0
        while end < bytes.count, isBlank(bytes[end]) {
            if bytes[end] == UInt8(ascii: "\n") { newlines += 1 }
            end += 1
        }
        if newlines > 0, end < bytes.count, bytes[end] == close {
            out.append(close)
            index = end + 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Whitespace as a regular expression's `\s` matches it between JSON tokens.
private func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        || byte == 0x0B || byte == 0x0C
}


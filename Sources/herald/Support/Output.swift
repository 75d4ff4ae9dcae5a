import Foundation
import HeraldCore

/// Aligned text tables for people; `--json` output goes through `printJSON`.
struct TextTable {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    init(headers: [String]) {
        self.headers = headers
    }

    /// A row; its cells are shown with invisible characters escaped (a newline in a name
    /// would otherwise fake a row of its own).
    mutating func append(_ row: String...) {
        rows.append(row.map(Excerpt.escaped))
    }

    func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1
                    ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }
}

func printTable(_ table: TextTable, emptyMessage: String) {
    if table.rows.isEmpty {
        print(emptyMessage)
    } else {
        print(table.render())
    }
}

/// Stable JSON for scripts: sorted keys, ISO 8601 UTC dates.
func printJSON<T: Encodable>(_ value: T) throws {
    print(try jsonText(value))
}

/// `printJSON`'s text.
func jsonText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(formatTimestamp(date))
    }
    return TerminalText.safeJSON(compactEmptyContainers(String(decoding: try encoder.encode(value), as: UTF8.self)))
}

/// A column or field name as a JSON key: `click_through_rate` → `clickThroughRate`.
func camelCaseKey(_ name: String) -> String { ParsedJSON.camelCaseKey(name) }

/// Foundation pretty-prints an empty array or object over three lines; scripts and people
/// expect `[]` and `{}`. (A JSON string never holds a raw newline, so this cannot touch one.)
///
/// One pass over the bytes (a publish prints tens of thousands of paths: a regular
/// expression over them cost more than encoding them). Foundation writes only spaces and
/// newlines between tokens, so `[` or `{`, a newline, blanks holding another newline, and
/// the closing bracket is exactly an empty container.
func compactEmptyContainers(_ json: String) -> String {
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

/// ISO 8601 UTC, whole seconds, as everywhere in Herald (`2026-05-01T00:00:00Z`).
func formatTimestamp(_ date: Date) -> String {
    Timestamp.format(date)
}

func formatOptional(_ date: Date?) -> String {
    date.map(formatTimestamp) ?? "-"
}

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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(formatTimestamp(date))
    }
    print(compactEmptyContainers(String(decoding: try encoder.encode(value), as: UTF8.self)))
}

/// A column or field name as a JSON key: `click_through_rate` → `clickThroughRate`.
func camelCaseKey(_ name: String) -> String {
    let words = name.split(separator: "_")
    guard let first = words.first else { return name }
    return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// Foundation pretty-prints an empty array or object over three lines; scripts and people
/// expect `[]` and `{}`. (A JSON string never holds a raw newline, so this cannot touch one.)
func compactEmptyContainers(_ json: String) -> String {
    json.replacingOccurrences(of: #"\[\n\s*\n\s*\]"#, with: "[]", options: .regularExpression)
        .replacingOccurrences(of: #"\{\n\s*\n\s*\}"#, with: "{}", options: .regularExpression)
}

/// ISO 8601 UTC, whole seconds, as everywhere in Herald (`2026-05-01T00:00:00Z`).
func formatTimestamp(_ date: Date) -> String {
    Timestamp.format(date)
}

func formatOptional(_ date: Date?) -> String {
    date.map(formatTimestamp) ?? "-"
}

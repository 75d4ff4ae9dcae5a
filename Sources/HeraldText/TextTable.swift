import Foundation
import HeraldCore

/// Aligned text tables for people; `--json` output goes through `printJSON`.
public struct TextTable {
    public let headers: [String]
    public var rows: [[String]] = []

    public init(_ headers: String...) {
        self.headers = headers
    }

    public init(headers: [String]) {
        self.headers = headers
    }

    /// A row; its cells are shown with invisible characters escaped (a newline in a name
    /// would otherwise fake a row of its own).
    public mutating func append(_ row: String...) {
        rows.append(row.map(Excerpt.escaped))
    }

    public func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        // Padded by characters, as the widths are counted (NSString's padding counts UTF-16
        // units: an emoji in a name would shift its row).
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1
                    ? row[column] : row[column] + String(repeating: " ", count: max(0, widths[column] - row[column].count))
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n")
    }
}

/// ISO 8601 UTC, whole seconds, as everywhere in Herald (`2026-05-01T00:00:00Z`).
public func formatTimestamp(_ date: Date) -> String {
    Timestamp.format(date)
}

public func formatOptional(_ date: Date?) -> String {
    date.map(formatTimestamp) ?? "-"
}

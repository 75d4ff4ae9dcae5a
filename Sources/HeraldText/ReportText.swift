import Foundation
import HeraldCore
import HeraldStore

/// `herald report`'s table as people, spreadsheets and scripts read it.
public enum ReportText {
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, json
    }

    public static func render(_ table: ReportTable, format: Format, window: String) -> String {
        switch format {
        case .json:
            // As every --json: an array of objects, keys in camelCase, numbers as numbers.
            let rows = table.rows.map { row in
                ParsedJSON.object(
                    Dictionary(
                        zip(table.columns, row).map { column, value -> (String, ParsedJSON) in
                            guard let value else { return (camelCaseKey(column), .null) }
                            guard table.numericColumns.contains(column) else { return (camelCaseKey(column), .string(value)) }
                            return (camelCaseKey(column), Int64(value).map(ParsedJSON.integer) ?? Double(value).map(ParsedJSON.number) ?? .string(value))
                        }, uniquingKeysWith: { first, _ in first }))
            }
            return ((try? jsonText(ParsedJSON.array(rows))) ?? "[]") + "\n"
        case .csv:
            let lines = [table.columns.map(Self.csvField)] + table.rows.map { $0.map { Self.csvField($0 ?? "") } }
            return lines.map { $0.joined(separator: ",") + "\r\n" }.joined()
        case .table:
            guard !table.rows.isEmpty else { return "no events in \(window)\n" }
            var text = TextTable(headers: table.columns.map { $0.uppercased() })
            for row in table.rows { text.rows.append(row.map { $0 ?? "-" }) }
            return text.render() + "\n"
        }
    }

    static func csvField(_ value: String) -> String {
        value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}

import Foundation
import HeraldText

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

import Foundation
import PostgresClient

/// One column of rows sent as a single array parameter (`$1::text[]`, `$2::bigint[]`, …; the
/// cast in the SQL names the element type). Elements travel in the text format, each
/// double-quoted with `"` and `\` escaped; nil is an unquoted NULL.
struct ArrayParameter: PostgresEncodable {
    private(set) var elements: [String?] = []

    init() {}

    /// Optionals are encodable too: `nil` becomes NULL.
    mutating func append(_ value: some PostgresEncodable) {
        elements.append(value.postgresText)
    }

    var count: Int { elements.count }

    var postgresText: String? { PostgresArray.literal(elements) }
}

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

    /// Built byte by byte: an apply sends arrays of tens of thousands of elements.
    var postgresText: String? {
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

import CLibPQ

/// One row of a result, its values copied out of libpq (the PGresult is already cleared).
public struct Row: Sendable {
    let columnIndex: [String: Int]
    let values: [String?]

    /// Decodes `column` as `type`; errors name the column and the type.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let index = columnIndex[column] else {
            throw PostgresError(
                kind: .decoding,
                message: "no column \"\(column)\" in the result (columns: \(columnIndex.keys.sorted().joined(separator: ", ")))")
        }
        do {
            return try T.decode(postgresText: values[index])
        } catch {
            throw PostgresError(kind: .decoding, message: "column \"\(column)\" as \(T.self): \(error.reason)", column: column)
        }
    }

    public func isNull(_ column: String) throws -> Bool {
        try decode(column, as: String?.self) == nil
    }
}

/// The rows of a successful statement, read completely into Swift values.
public struct QueryResult: Sendable, RandomAccessCollection {
    public let columns: [String]
    public let rowsAffected: Int
    let rows: [Row]

    public var startIndex: Int { rows.startIndex }
    public var endIndex: Int { rows.endIndex }
    public subscript(position: Int) -> Row { rows[position] }

    /// Copies everything out of `result` (the caller clears it).
    init(result: OpaquePointer) {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        var columns: [String] = []
        var index: [String: Int] = [:]
        for column in 0..<columnCount {
            let name = PQfname(result, Int32(column)).map { String(cString: $0) } ?? "?column?"
            columns.append(name)
            if index[name] == nil { index[name] = column }
        }
        var rows: [Row] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else if let value = PQgetvalue(result, Int32(row), Int32(column)) {
                    values.append(String(cString: value))
                } else {
                    values.append(nil)
                }
            }
            rows.append(Row(columnIndex: index, values: values))
        }
        self.columns = columns
        self.rows = rows
        let tuples = PQcmdTuples(result).map { String(cString: $0) } ?? ""
        rowsAffected = Int(tuples) ?? 0
    }
}

import CLibPQ

/// A PGresult, cleared when the last `QueryResult` or `Row` reading it is gone. Values are
/// decoded from it when asked for, not copied into Swift strings up front (most of a large
/// read's time went into those copies). libpq documents a PGresult as read-only once made,
/// so it can be read from several threads at once; it does not refer to its connection.
@usableFromInline
final class ResultStorage: @unchecked Sendable {
    let result: OpaquePointer
    let rowCount: Int
    @usableFromInline let columnCount: Int
    let columns: [String]
    /// The first column of each name (a later duplicate is reachable only by index).
    let columnIndex: [String: Int]

    /// Takes ownership of `result`: nobody else may clear it.
    init(taking result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        var columns: [String] = []
        var index: [String: Int] = [:]
        for column in 0..<columnCount {
            let name = PQfname(result, Int32(column)).map { String(cString: $0) } ?? "?column?"
            columns.append(name)
            if index[name] == nil { index[name] = column }
        }
        self.columns = columns
        columnIndex = index
    }

    deinit {
        PQclear(result)
    }

    @usableFromInline
    func index(of column: String) -> Int? {
        columnIndex[column]
    }

    @usableFromInline
    func noColumn(_ column: String) -> PostgresError {
        PostgresError(
            kind: .decoding,
            message: "no column \"\(column)\" in the result (columns: \(columnIndex.keys.sorted().joined(separator: ", ")))")
    }
}

/// A column of one result, found by name once: `row.decode(column)` then skips hashing the
/// name for every row. Use it only with rows of the result it came from.
public struct Column: Sendable {
    public let name: String
    /// nil when the result has no such column: decoding then fails as decoding by name does.
    @usableFromInline let index: Int?
}

/// One row of a result. Decoding is inlinable so that callers get it specialised for each
/// type they read (the generic version's overhead was a good part of reading a row).
public struct Row: Sendable {
    @usableFromInline let storage: ResultStorage
    @usableFromInline let row: Int

    @usableFromInline init(storage: ResultStorage, row: Int) {
        self.storage = storage
        self.row = row
    }

    /// Decodes `column` as `type`; errors name the column and the type.
    @inlinable
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try decode(index: storage.index(of: column), name: column)
    }

    /// Decodes `column` (from `QueryResult.column`) as `type`, as decoding by its name does.
    @inlinable
    public func decode<T: PostgresDecodable>(_ column: Column, as type: T.Type = T.self) throws -> T {
        try decode(index: column.index, name: column.name)
    }

    public func isNull(_ column: String) throws -> Bool {
        try decode(column, as: String?.self) == nil
    }

    @inlinable
    func decode<T: PostgresDecodable>(index: Int?, name column: String) throws -> T {
        // An index from another result could be out of range here: libpq must not be asked.
        guard let index, index < storage.columnCount else { throw storage.noColumn(column) }
        do {
            return try T.decode(postgresBytes: value(column: index))
        } catch {
            throw PostgresError(kind: .decoding, message: "column \"\(column)\" as \(T.self): \(error.reason)", column: column)
        }
    }

    /// The bytes of the value at `column` of this row, nil for NULL. They live as long as
    /// `storage`, which the caller holds (self) while decoding them.
    @usableFromInline
    func value(column: Int) -> UnsafeBufferPointer<UInt8>? {
        let result = storage.result
        // `row` and `column` are within the result's counts (QueryResult's indices, checked above).
        guard PQgetisnull(result, Int32(row), Int32(column)) == 0, let value = PQgetvalue(result, Int32(row), Int32(column))
        else { return nil }
        // Text-format values end at NUL and hold none (PostgreSQL text cannot; bytea comes as
        // hex), so the length libpq reports is the C string's length.
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return UnsafeRawPointer(value).withMemoryRebound(to: UInt8.self, capacity: length) {
            UnsafeBufferPointer(start: $0, count: length)
        }
    }
}

/// The rows of a successful statement, decoded from libpq's result as they are read.
public struct QueryResult: Sendable, RandomAccessCollection {
    let storage: ResultStorage
    public let rowsAffected: Int

    public var columns: [String] { storage.columns }
    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.rowCount }

    public subscript(position: Int) -> Row {
        precondition(position >= 0 && position < storage.rowCount, "row \(position) is out of range")
        return Row(storage: storage, row: position)
    }

    /// `name` found once, for decoding it from every row.
    public func column(_ name: String) -> Column {
        Column(name: name, index: storage.columnIndex[name])
    }

    /// Takes ownership of `result` (the caller must not clear it).
    init(taking result: OpaquePointer) {
        rowsAffected = Int(PQcmdTuples(result).map { String(cString: $0) } ?? "") ?? 0
        storage = ResultStorage(taking: result)
    }
}

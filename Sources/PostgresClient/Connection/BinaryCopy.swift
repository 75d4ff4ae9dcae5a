/// `COPY … FROM STDIN WITH (FORMAT binary)`: values go in as their raw bytes — no escaping on
/// our side, no hex decoding on the server's (megabytes of published files per publish).
public struct BinaryCopyWriter {
    let writer: CopyWriter

    /// One row; each field is the column's binary form (for text and bytea: the bytes
    /// themselves), nil for NULL.
    public func writeRow(_ fields: [[UInt8]?]) throws {
        var row: [UInt8] = []
        row.reserveCapacity(2 + fields.reduce(0) { $0 + 4 + ($1?.count ?? 0) })
        Self.append(Int16(fields.count), to: &row)
        for field in fields {
            if let field {
                Self.append(Int32(field.count), to: &row)
                row += field
            } else {
                Self.append(Int32(-1), to: &row)
            }
        }
        try writer.writeRaw(row)
    }

    /// Rows already encoded (`BinaryCopyRows`).
    public func write(_ rows: BinaryCopyRows) throws {
        try writer.writeRaw(rows.bytes)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    /// "PGCOPY\n\xff\r\n\0", no flags, no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    static let trailer: [UInt8] = [0xFF, 0xFF]
}

/// Rows in binary COPY form, built field by field into one buffer (no array per row):
/// for a hundred thousand rows at a time.
public struct BinaryCopyRows {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Starts a row of `fields` fields; exactly that many appends must follow.
    public mutating func startRow(fields: Int) {
        BinaryCopyWriter.append(Int16(fields), to: &bytes)
    }

    /// An int8 (bigint) field.
    public mutating func appendInt64(_ value: Int64) {
        BinaryCopyWriter.append(Int32(8), to: &bytes)
        BinaryCopyWriter.append(value, to: &bytes)
    }

    /// An int4 (integer) or date (days since 2000-01-01) field.
    public mutating func appendInt32(_ value: Int32) {
        BinaryCopyWriter.append(Int32(4), to: &bytes)
        BinaryCopyWriter.append(value, to: &bytes)
    }

    /// A uuid field: its 128 bits, most significant first.
    public mutating func appendUUID(high: UInt64, low: UInt64) {
        BinaryCopyWriter.append(Int32(16), to: &bytes)
        BinaryCopyWriter.append(high, to: &bytes)
        BinaryCopyWriter.append(low, to: &bytes)
    }

    /// A field whose binary form is these bytes (text, enum labels and bytea are their bytes;
    /// uuid its 16 bytes).
    public mutating func appendBytes(_ value: some Collection<UInt8>) {
        BinaryCopyWriter.append(Int32(value.count), to: &bytes)
        bytes.append(contentsOf: value)
    }

    /// A text field.
    public mutating func appendText(_ value: String) {
        var value = value
        value.withUTF8 { appendBytes($0) }
    }

    public mutating func appendNull() {
        BinaryCopyWriter.append(Int32(-1), to: &bytes)
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}

extension Connection {
    /// `sql` must say `WITH (FORMAT binary)`. Returns rows copied.
    @discardableResult
    public func copyInBinary(_ sql: SQL, _ write: (BinaryCopyWriter) throws -> Void) throws -> Int {
        try copyIn(sql) { writer in
            try writer.writeRaw(BinaryCopyWriter.header)
            try write(BinaryCopyWriter(writer: writer))
            try writer.writeRaw(BinaryCopyWriter.trailer)
        }
    }
}

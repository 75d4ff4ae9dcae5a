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

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    /// "PGCOPY\n\xff\r\n\0", no flags, no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    static let trailer: [UInt8] = [0xFF, 0xFF]
}

extension Connection {
    /// `sql` must say `WITH (FORMAT binary)`. Returns rows copied.
    @discardableResult
    public func copyInBinary(_ sql: String, _ write: (BinaryCopyWriter) throws -> Void) throws -> Int {
        try copyIn(sql) { writer in
            try writer.writeRaw(BinaryCopyWriter.header)
            try write(BinaryCopyWriter(writer: writer))
            try writer.writeRaw(BinaryCopyWriter.trailer)
        }
    }
}

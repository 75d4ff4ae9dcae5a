/// What one transaction sees, exported (`pg_export_snapshot()`) so that a transaction on
/// another connection can see exactly the same rows (`SET TRANSACTION SNAPSHOT`): one read
/// split over two connections, and so over two of the server's processes.
public struct TransactionSnapshot: Sendable, Equatable {
    /// The server's name for it, such as `00000003-0000001B-1`: hexadecimal digits and dashes only.
    public let id: String

    /// nil unless `id` has the form the server gives (it is spliced into SQL: SET takes no parameters).
    init?(id: String) {
        guard !id.isEmpty, id.utf8.count <= 64,
            id.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F")) || $0 == UInt8(ascii: "-") })
        else { return nil }
        self.id = id
    }
}

extension Connection {
    /// This transaction's snapshot, for others to import while it stays open. Only inside a
    /// REPEATABLE READ (or SERIALIZABLE) transaction is it the snapshot every statement sees.
    public func exportSnapshot() throws -> TransactionSnapshot {
        let id: String = try query("SELECT pg_export_snapshot() AS id")[0].decode("id")
        guard let snapshot = TransactionSnapshot(id: id) else {
            throw PostgresError(kind: .decoding, message: "pg_export_snapshot() gave an unexpected name")
        }
        return snapshot
    }
}

import CLibPQ
import Foundation

/// A failure from libpq or the server. Carries the SQLSTATE and the fields a caller needs to
/// explain it; `description` never includes bound values, the DETAIL field (which can quote
/// row values) or a password.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case connection, query, decoding, usage }

    public var kind: Kind
    public var sqlState: SQLState?
    public var message: String
    public var detail: String?
    public var hint: String?
    public var constraint: String?
    public var table: String?
    public var column: String?

    public init(
        kind: Kind, message: String, sqlState: SQLState? = nil, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.table = table
        self.column = column
    }

    public var description: String {
        var text = sqlState.map { "\($0): \(message)" } ?? message
        if let constraint { text += " (constraint \(constraint))" }
        return text
    }

    public var isUniqueViolation: Bool { sqlState == .uniqueViolation }

    /// The server went away or ended this session: it cannot be reached, it shut down or
    /// restarted, an administrator terminated the backend, the network dropped (SQLSTATE class
    /// 08, 57P01, 57P02, 57P03). Nothing is wrong with the statement: it may succeed later.
    public var isConnectionLost: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        return sqlState.rawValue.hasPrefix("08") || [.adminShutdown, .crashShutdown, .cannotConnectNow].contains(sqlState)
    }
    public var isForeignKeyViolation: Bool { sqlState == .foreignKeyViolation }
    public var isCheckViolation: Bool { sqlState == .checkViolation }
    public var isRaisedException: Bool { sqlState == .raiseException }

    /// Reads the diagnostic fields of a failed result.
    static func from(result: OpaquePointer, connection: OpaquePointer?) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let value = PQresultErrorField(result, Int32(ascii)) else { return nil }
            return String(cString: value)
        }
        let primary = field("M") ?? connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "unknown error"
        // The server went away in the middle of the statement ("server closed the connection
        // unexpectedly", no SQLSTATE): the connection is gone, not the statement at fault.
        let lost = field("C") == nil && connection.map { PQstatus($0) == CONNECTION_BAD } == true
        return PostgresError(
            kind: lost ? .connection : .query, message: primary.trimmingCharacters(in: .whitespacesAndNewlines),
            sqlState: field("C").map(SQLState.init(rawValue:)), detail: field("D"), hint: field("H"),
            constraint: field("n"), table: field("t"), column: field("c"))
    }
}

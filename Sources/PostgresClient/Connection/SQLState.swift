/// A five-character SQLSTATE (PostgreSQL's "Appendix A. Error Codes"), as the server sent it.
/// Compare errors with the named codes below, never with string literals.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    // Class 22: data exception
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    public static let datetimeFieldOverflow = SQLState(rawValue: "22008")
    // Class 23: integrity constraint violation
    public static let restrictViolation = SQLState(rawValue: "23001")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let checkViolation = SQLState(rawValue: "23514")
    // Class 40: transaction rollback
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    // Class 42: syntax error or access rule violation
    public static let insufficientPrivilege = SQLState(rawValue: "42501")
    public static let undefinedFunction = SQLState(rawValue: "42883")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    public static let undefinedObject = SQLState(rawValue: "42704")
    // Class 55: object not in prerequisite state
    public static let lockNotAvailable = SQLState(rawValue: "55P03")

    // Class 57: operator intervention (the session was ended from outside)
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let crashShutdown = SQLState(rawValue: "57P02")
    public static let cannotConnectNow = SQLState(rawValue: "57P03")
    // Class P0: PL/pgSQL error
    public static let raiseException = SQLState(rawValue: "P0001")
}

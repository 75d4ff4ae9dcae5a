/// A refusal the application layer makes itself, in words, with the kind of problem it is
/// (the CLI turns the kind into its exit code). The store's refusals come as `StoreError`.
public struct JobError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The command was given the wrong things (a flag missing, two that contradict).
        case usage
        /// What was given breaks a rule.
        case invalid
        /// An input to read is not there.
        case noInput
        /// An output cannot be written.
        case cannotWrite
        /// The login may not do this.
        case noPermission
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func usage(_ message: String) -> JobError { JobError(.usage, message) }
    public static func invalid(_ message: String) -> JobError { JobError(.invalid, message) }
    public static func noPermission(_ message: String) -> JobError { JobError(.noPermission, message) }
}

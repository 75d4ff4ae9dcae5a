/// A rule the input broke, in words a person can act on: what was wrong, the offending
/// value, and how to fix it. `path` locates it in a campaigns file (nil for flags).
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String?
    public var message: String

    public init(path: String? = nil, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        path.map { "\($0): \(message)" } ?? message
    }

    /// The same problem, located under `prefix` in a file.
    public func at(_ prefix: String) -> ValidationError {
        ValidationError(path: path.map { "\(prefix).\($0)" } ?? prefix, message: message)
    }
}

/// Quotes a value for a message: invisible characters escaped, a long value cut (`Excerpt`).
func quote(_ value: String) -> String {
    Excerpt.quoted(value)
}

/// Several problems at once (a file, a set of flags), reported together.
public struct ValidationErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public let errors: [ValidationError]

    public init(_ errors: [ValidationError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

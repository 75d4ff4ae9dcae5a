/// The text of one SQL statement, as `Connection` takes it: a literal written in the code (or
/// a statement of an embedded `.sql` file), never a `String` made at run time. Values go in
/// as parameters (`$1`); the only way to put other text into a statement is to splice an
/// `UnsafeSQL` into it, so every splice says so where it is made:
///
///     "DELETE FROM \(UnsafeSQL(table)) WHERE campaign_id = $1"
///
/// Interpolating anything else (a `String`, a number) does not compile.
public struct SQL: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public let text: String

    public init(stringLiteral text: String) {
        self.text = text
    }

    public init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    public var description: String { text }

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Splices `fragment` in as it is: see `UnsafeSQL`.
        public mutating func appendInterpolation(_ fragment: UnsafeSQL) {
            text += fragment.text
        }
    }
}

/// Text spliced into an SQL statement as it is, unchecked and unquoted: a table or partition
/// name, a column list, a keyword, a whole statement read from an embedded file. The name
/// says what it is. It must never hold input; what comes from input goes in as a parameter.
public struct UnsafeSQL: Sendable, Hashable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// A statement run many times on one connection (once per batch, say): `Connection` prepares
/// it under `name` the first time it runs there and from then on only executes it, so the
/// server parses and analyses it once per connection instead of once per run (and keeps its
/// plan when it sees that replanning would not help).
public struct PreparedStatement: Sendable, Hashable {
    /// Unique on a connection.
    public let name: String
    public let sql: SQL

    public init(name: String, sql: SQL) {
        self.name = name
        self.sql = sql
    }
}

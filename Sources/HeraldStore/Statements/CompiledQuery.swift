import PostgresClient
import Synchronization

/// A statement of `queries/*.sql` as PostgreSQL takes it. In the files a value is named where
/// it is used (`WHERE slug = :slug`, as GRDB's named arguments and postgres-nio's interpolated
/// binds put it), and a statement that says `-- with: some-name` starts with the statement of
/// that name as a common table expression (`some_name`), so that SQL several statements share
/// is written once. Here the shared statements are put in front, `AS NOT MATERIALIZED` (the
/// planner inlines them: the plan is the one of the statement written out in full), and each
/// `:name` becomes `$1…$n` in the order the names first appear: the one place where a
/// parameter's name turns into its position.
///
/// Statements written with `$1…$n` (events.sql, reporting.sql) come out as they are, with no
/// names: their callers still pass values by position.
struct CompiledQuery: Sendable, Equatable {
    let sql: SQL
    /// The parameters' names (`tenant_ids`), in the order of `$1…$n`.
    let parameters: [String]
}

extension Query {
    /// This statement as it is sent, compiled once per process.
    var compiled: CompiledQuery {
        get throws {
            if let known = Self.compiledQueries.withLock({ $0[self] }) { return known }
            let compiled = try CompiledQuery(self)
            Self.compiledQueries.withLock { $0[self] = compiled }
            return compiled
        }
    }

    private static let compiledQueries = Mutex<[Query: CompiledQuery]>([:])
}

extension CompiledQuery {
    init(_ query: Query) throws {
        try self.init(name: query.rawValue, text: query.sql.text) { Query(rawValue: $0)?.sql.text }
    }

    /// Statement `name` of text `text`; `statement` gives the text of another by name (for its "-- with:" lines).
    init(name: String, text: String, statement: (String) -> String?) throws {
        var prefix = ""
        for shared in Self.sharedStatements(text) {
            guard let fragment = statement(shared) else {
                throw Self.mistake(name, "says \"-- with: \(shared)\", which is no statement of queries/*.sql")
            }
            guard Self.sharedStatements(fragment).isEmpty else {
                throw Self.mistake(name, "says \"-- with: \(shared)\", which has \"-- with:\" lines itself: name those in \(name)")
            }
            let table = String(shared.map { $0 == "-" ? "_" : $0 })
            prefix += (prefix.isEmpty ? "WITH " : ",\n") + "\(table) AS NOT MATERIALIZED (\n\(fragment)\n)"
        }
        if !prefix.isEmpty, Self.code(text).prefix(4).uppercased() == "WITH" {
            throw Self.mistake(name, "has a WITH of its own and a \"-- with:\" line: write the shared statement into its WITH")
        }
        let numbered = try Self.numbered(prefix.isEmpty ? text : prefix + "\n" + text, statement: name)
        sql = "\(UnsafeSQL(numbered.text))"  // the files this binary carries
        parameters = numbered.names
    }

    /// The names in a statement's `-- with: name` lines, among the comments it starts with.
    static func sharedStatements(_ text: String) -> [String] {
        var names: [String] = []
        for line in text.split(separator: "\n") {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("--") else { break }
            rest = rest.dropFirst(2).drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("with") else { continue }
            rest = rest.dropFirst(4).drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix(":") else { continue }
            var name = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            while let last = name.last, last == " " || last == "\t" || last == "\r" { name.removeLast() }
            names.append(String(name))
        }
        return names
    }

    /// The statement's text from its first line that is not a comment.
    private static func code(_ text: String) -> Substring {
        var rest = text[...]
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard rest.hasPrefix("--") else { return rest }
            rest = rest.drop { $0 != "\n" }
        }
    }

    /// `text` with each `:name` replaced by its number, and the names in order. Quoted text,
    /// quoted identifiers, comments and dollar-quoted bodies are copied as they are; `::` is a
    /// cast. A statement uses names or numbers, never both.
    static func numbered(_ text: String, statement: String) throws -> (text: String, names: [String]) {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var names: [String] = []
        var usesPositions = false
        var index = 0
        while index < bytes.count {
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            let afterWord = index > 0 && SQLText.isWordByte(bytes[index - 1])
            if let end = SQLText.endOfVerbatim(bytes, at: index) {
                out += bytes[index..<end]
                index = end
            } else if bytes[index] == UInt8(ascii: ":"), next == UInt8(ascii: ":") {
                out += bytes[index...(index + 1)]
                index += 2
            } else if bytes[index] == UInt8(ascii: ":"), let next, SQLText.startsName(next) {
                var end = index + 1
                while end < bytes.count, SQLText.isWordByte(bytes[end]), bytes[end] < 0x80 { end += 1 }
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                if !names.contains(name) { names.append(name) }
                out += Array("$\(names.firstIndex(of: name).map { $0 + 1 } ?? 0)".utf8)
                index = end
            } else {
                if bytes[index] == UInt8(ascii: "$"), !afterWord, let next, SQLText.isDigit(next) { usesPositions = true }
                out.append(bytes[index])
                index += 1
            }
        }
        if usesPositions, !names.isEmpty {
            throw mistake(statement, "uses both $1…$n and :names (\(names.joined(separator: ", "))): name every parameter")
        }
        return (String(decoding: out, as: UTF8.self), names)
    }

    static func mistake(_ statement: String, _ what: String) -> PostgresError {
        PostgresError(kind: .usage, message: "statement \(statement) of queries/*.sql \(what)")
    }
}

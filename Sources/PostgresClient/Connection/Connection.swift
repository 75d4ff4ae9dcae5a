import CLibPQ
import Foundation

public enum IsolationLevel: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"

    /// The words BEGIN takes: one of the three above.
    var sql: UnsafeSQL { UnsafeSQL(rawValue) }
}

public enum PingResult: Sendable, Equatable {
    case ok, rejecting, noResponse, noAttempt
}

/// One libpq connection. Not Sendable: own it in one place and use it from one thread
/// (`ConnectionQueue` does that for async code). Every statement goes through
/// `PQexecParams` (or a prepared statement: `PreparedStatement`) with parameters in text
/// format, except `executeScript` for trusted multi-statement files. Statements are `SQL`,
/// so anything spliced into one is an `UnsafeSQL` the reader sees.
public final class Connection {
    let handle: OpaquePointer
    public let configuration: ConnectionConfiguration
    private var transactionDepth = 0
    /// The statements prepared on this connection so far, by name.
    private var prepared: [String: SQL] = [:]
    /// Statements waiting to go with the next one (`sendWithNext`), in order.
    var pending: [PendingStatement] = []
    /// How many times what waited was sent: a transaction knows from it whether its BEGIN went.
    var sentBatches = 0
    /// Whether what waits goes in one round trip (libpq 14 and newer) or one statement at a time.
    var usesPipeline = false

    /// `settings`: the caller's own session settings (`set_config(name, value, false)`), set in
    /// the statement that sets the connection's. That statement goes with the first one the
    /// connection runs (`sendWithNext`): no round trip of its own.
    public init(configuration: ConnectionConfiguration, settings: KeyValuePairs<String, String> = [:]) throws {
        self.configuration = configuration
        try Self.loadLibPQ()
        guard let handle = PQconnectdb(configuration.conninfo) else {
            throw PostgresError(kind: .connection, message: "out of memory connecting to \(configuration.redactedDescription)")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw PostgresError(
                kind: .connection,
                message: "cannot connect to \(configuration.redactedDescription): \(Self.redactPasswords(reason, known: configuration.password))")
        }
        self.handle = handle
        usesPipeline = herald_libpq_has_pipeline()
        // Server notices (e.g. "already a member of role") are not ours to print.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // The caller's as `set_config($1, $2, false), …`: names and values are parameters.
        let callers = UnsafeSQL(settings.indices.map { ", set_config($\(2 * $0 + 1), $\(2 * $0 + 2), false)" }.joined())
        sendWithNext(
            """
            SELECT set_config('TimeZone', 'UTC', false), set_config('DateStyle', 'ISO, YMD', false),
                   set_config('client_encoding', 'UTF8', false), set_config('IntervalStyle', 'iso_8601', false)\(callers)
            """,
            settings.flatMap { [$0.key, $0.value] })
    }

    deinit {
        PQfinish(handle)
    }

    /// libpq is loaded on first use (see CLibPQ): a system without it is said in words here.
    static func loadLibPQ() throws {
        var reason = [CChar](repeating: 0, count: 512)
        guard !herald_libpq_load(&reason, reason.count) else { return }
        throw PostgresError(kind: .connection, message: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    public static func ping(_ configuration: ConnectionConfiguration) -> PingResult {
        switch PQping(configuration.conninfo) {
        case PQPING_OK: .ok
        case PQPING_REJECT: .rejecting
        case PQPING_NO_RESPONSE: .noResponse
        default: .noAttempt
        }
    }

    public var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// In a transaction, also one whose BEGIN still waits to be sent.
    public var isInTransaction: Bool {
        guard transactionDepth == 0 else { return true }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    // MARK: Statements

    /// Runs one parameterised statement and returns its rows.
    @discardableResult
    public func query(_ sql: SQL, _ parameters: [any PostgresEncodable] = []) throws -> QueryResult {
        let texts = parameters.map(\.postgresText)
        if !pending.isEmpty {
            // What waits goes with it (`sendWithNext`); nil only on a path that throws instead.
            guard let result = try runPendingWith((sql, texts)) else { throw connectionError() }
            return QueryResult(taking: result)
        }
        return try consume(execParams(sql, texts))
    }

    /// Sends one statement with its parameters' texts (`PQexecParams`, text format) and waits
    /// for its result, which the caller owns.
    func execParams(_ sql: SQL, _ texts: [String?]) throws -> OpaquePointer {
        let result = try withCStrings(texts) { pointers in
            PQexecParams(handle, sql.text, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw connectionError() }
        return result
    }

    /// Runs one parameterised statement and returns the number of rows it affected.
    @discardableResult
    public func execute(_ sql: SQL, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try query(sql, parameters).rowsAffected
    }

    // MARK: Prepared statements

    /// Prepares `sql` under `name` on this connection (`PQprepare`: parsed and checked by the
    /// server, parameter types inferred from the SQL as `query` does). Once per
    /// connection: preparing a name again with the same SQL does nothing, with other SQL is
    /// refused. A prepared statement outlives the transaction it was prepared in, even one
    /// rolled back, and lasts as long as the connection.
    public func prepare(name: String, sql: SQL) throws {
        if let known = prepared[name] {
            guard known == sql else {
                throw PostgresError(kind: .usage, message: "a different statement is already prepared as \"\(name)\" on this connection")
            }
            return
        }
        try sendPending()
        guard let result = PQprepare(handle, name, sql.text, 0, nil) else { throw connectionError() }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw PostgresError.from(result: result, connection: handle) }
        prepared[name] = sql
    }

    /// Runs `statement` with `parameters` (text format, as `query` sends them) and returns its
    /// rows; prepares it first if this connection has not yet.
    @discardableResult
    public func query(_ statement: PreparedStatement, _ parameters: [any PostgresEncodable] = []) throws -> QueryResult {
        try prepare(name: statement.name, sql: statement.sql)
        try sendPending()
        let texts = parameters.map(\.postgresText)
        let result = try withCStrings(texts) { pointers in
            PQexecPrepared(handle, statement.name, Int32(pointers.count), pointers, nil, nil, 0)
        }
        return try consume(result)
    }

    /// `query(statement, parameters)`, returning the number of rows it affected.
    @discardableResult
    public func execute(_ statement: PreparedStatement, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try query(statement, parameters).rowsAffected
    }

    /// Runs a trusted multi-statement script (a migration file) with `PQexec`. Never pass input here.
    public func executeScript(_ sql: SQL) throws {
        try sendPending()
        guard PQsendQuery(handle, sql.text) == 1 else { throw connectionError() }
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            if failure == nil, status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK, status != PGRES_EMPTY_QUERY {
                failure = self.failure(result)
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    private func consume(_ result: OpaquePointer?) throws -> QueryResult {
        guard let result else { throw connectionError() }
        // The QueryResult owns it from here and clears it when its last row is gone.
        return QueryResult(taking: try outcome(result).get())
    }

    /// A result that succeeded, or the error of one that failed (cleared then).
    func outcome(_ result: OpaquePointer) -> Result<OpaquePointer, PostgresError> {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return .success(result)
        default:
            defer { PQclear(result) }
            return .failure(failure(result))
        }
    }

    func connectionError() -> PostgresError {
        let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        return classified(PostgresError(kind: .query, message: message.isEmpty ? "the connection failed" : message))
    }

    /// The error of a failed result, classified.
    func failure(_ result: OpaquePointer) -> PostgresError {
        classified(PostgresError.from(result: result, connection: handle))
    }

    /// A lost connection (libpq's status is bad after the failure, or the server said it ended
    /// the session) becomes a `.connection` error that names the server: "server closed the
    /// connection unexpectedly" alone does not say which.
    private func classified(_ error: PostgresError) -> PostgresError {
        guard PQstatus(handle) == CONNECTION_BAD || error.isConnectionLost else { return error }
        var lost = error
        lost.kind = .connection
        // libpq's own text may start with the severity ("FATAL:  terminating connection …").
        var reason = error.message.split(separator: "\n").first.map(String.init) ?? error.message
        for severity in ["FATAL:", "ERROR:"] where reason.hasPrefix(severity) {
            reason = String(reason.dropFirst(severity.count)).trimmingCharacters(in: .whitespaces)
        }
        lost.message = "lost the connection to \(configuration.redactedDescription): \(reason)"
        return lost
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws (the
    /// body's error is rethrown). A nested call uses a savepoint. The BEGIN (or SAVEPOINT) goes
    /// with the body's first statement (`sendWithNext`); a body that throws before sending any
    /// leaves nothing to roll back.
    /// `importing`: another open transaction's snapshot (`exportSnapshot()`), which this one
    /// then sees instead of its own (REPEATABLE READ or SERIALIZABLE only; not when nested).
    @discardableResult
    public func transaction<T>(
        _ isolation: IsolationLevel = .readCommitted, readOnly: Bool = false, importing snapshot: TransactionSnapshot? = nil,
        _ body: (Connection) throws -> T
    ) throws -> T {
        // A name made here from a number, never input.
        let savepoint = transactionDepth > 0 ? UnsafeSQL("nested_transaction_\(transactionDepth)") : nil
        // Where the BEGIN waits, until what waits is sent.
        let start = (index: pending.count, batch: sentBatches)
        if let savepoint {
            sendWithNext("SAVEPOINT \(savepoint)")
        } else if readOnly {
            sendWithNext("BEGIN ISOLATION LEVEL \(isolation.sql) READ ONLY")
        } else {
            sendWithNext("BEGIN ISOLATION LEVEL \(isolation.sql)")
        }
        if let snapshot, savepoint == nil {
            do {
                // Unsafe fragment: the id is hexadecimal digits and dashes (TransactionSnapshot
                // checks), and SET takes no parameters. It must come before any query.
                try execute("SET TRANSACTION SNAPSHOT '\(UnsafeSQL(snapshot.id))'")
            } catch {
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let value: T
        do {
            value = try body(self)
        } catch {
            if sentBatches == start.batch {
                // Nothing of this transaction reached the server: drop what waits of it.
                pending.removeSubrange(start.index...)
            } else if let savepoint {
                _ = try? execute("ROLLBACK TO SAVEPOINT \(savepoint)")
            } else {
                _ = try? execute("ROLLBACK")
            }
            throw error
        }
        if let savepoint {
            try execute("RELEASE SAVEPOINT \(savepoint)")
        } else {
            // A statement failed inside the body and the body carried on (try?): COMMIT would
            // quietly roll back. Say so instead of reporting success.
            if PQtransactionStatus(handle) == PQTRANS_INERROR {
                _ = try? execute("ROLLBACK")
                throw PostgresError(
                    kind: .query,
                    message: "the transaction was rolled back: a statement in it failed and its error was ignored")
            }
            try execute("COMMIT")
        }
        return value
    }

    // MARK: Advisory locks

    public func tryAdvisoryLock(_ key: Int64) throws -> Bool {
        try query("SELECT pg_try_advisory_lock($1::bigint) AS locked", [key])[0].decode("locked")
    }

    public func advisoryLock(_ key: Int64) throws {
        try execute("SELECT pg_advisory_lock($1::bigint)", [key])
    }

    public func advisoryUnlock(_ key: Int64) throws {
        try execute("SELECT pg_advisory_unlock($1::bigint)", [key])
    }

    public func tryAdvisoryTransactionLock(_ key: Int64) throws -> Bool {
        try query("SELECT pg_try_advisory_xact_lock($1::bigint) AS locked", [key])[0].decode("locked")
    }

    public func advisoryTransactionLock(_ key: Int64) throws {
        try execute("SELECT pg_advisory_xact_lock($1::bigint)", [key])
    }

    // MARK: Passwords

    /// The SCRAM-SHA-256 verifier of `password` for role `user`, computed here by libpq
    /// (`PQencryptPasswordConn`): `ALTER ROLE … PASSWORD` takes it as it is, so the password
    /// itself never reaches the server, its logs or its tables.
    public func scramVerifier(password: String, user: String) throws -> String {
        guard let verifier = PQencryptPasswordConn(handle, password, user, "scram-sha-256") else {
            throw connectionError()
        }
        defer { PQfreemem(verifier) }
        return String(cString: verifier)
    }

    // MARK: COPY

    /// `COPY … FROM STDIN` (text format): `write` sends rows through the writer. Returns rows copied.
    @discardableResult
    public func copyIn(_ sql: SQL, _ write: (CopyWriter) throws -> Void) throws -> Int {
        try sendPending()
        let start = try execParams(sql, [])
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            throw failure(start)
        }
        PQclear(start)
        let writer = CopyWriter(connection: self)
        var failure: (any Error)?
        do {
            try write(writer)
            try writer.flush()
        } catch {
            failure = error
        }
        let endResult = failure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "aborted by the client")
        if endResult != 1, failure == nil { failure = connectionError() }
        var copied = 0
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = Int(PQcmdTuples(result).map { String(cString: $0) } ?? "") ?? 0
            } else if failure == nil {
                failure = self.failure(result)
            }
            PQclear(result)
        }
        if let failure { throw failure }
        return copied
    }

    func putCopyData(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
            } ?? 1
        }
        guard sent == 1 else { throw connectionError() }
    }

    /// libpq's messages can echo the conninfo; keep any password out of them.
    /// `text` with passwords masked: `password=…` (quoted values with spaces included), the
    /// password part of URLs, and the configured password itself wherever it appears.
    static func redactPasswords(_ text: String, known: String? = nil) -> String {
        var text = text
        if let known, !known.isEmpty { text = text.replacingOccurrences(of: known, with: "***") }
        guard let regex = try? NSRegularExpression(pattern: "(password\\s*=\\s*)('(?:[^'\\\\]|\\\\.)*'|\\S+)|(://[^:/@\\s]*:)([^@\\s]*)(@)") else {
            return text
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(in: text, range: range, withTemplate: "$1$3***$5")
    }
}

/// Streams rows into an open COPY in PostgreSQL's text format, 64 KiB at a time.
public final class CopyWriter {
    private unowned let connection: Connection
    private var buffer: [UInt8] = []

    init(connection: Connection) {
        self.connection = connection
        buffer.reserveCapacity(1 << 16)
    }

    /// One row; nil is NULL. Tabs, newlines, carriage returns and backslashes are escaped.
    public func writeRow(_ values: [String?]) throws {
        appendFields(values)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func appendFields(_ values: [String?]) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let value else {
                buffer.append(contentsOf: Array("\\N".utf8))
                continue
            }
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default: buffer.append(byte)
                }
            }
        }
    }

    /// Bytes already in COPY text format.
    public func writeRaw(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try connection.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Calls `body` with C strings for `texts` that stay alive for the whole call (nil = NULL).
func withCStrings<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R) throws -> R {
    // A C string ends at NUL: the server would silently get the text cut there.
    for (index, text) in texts.enumerated() where text?.utf8.contains(0) == true {
        throw PostgresError(
            kind: .usage, message: "query parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold")
    }
    var owned: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in owned { free(pointer) } }
    // A failed copy would go out as NULL: refuse instead of sending a different value.
    for (text, pointer) in zip(texts, owned) where text != nil && pointer == nil {
        throw PostgresError(kind: .usage, message: "out of memory while preparing query parameters")
    }
    return try owned.withUnsafeMutableBufferPointer { buffer in
        try body(buffer.map { $0.map { UnsafePointer($0) } })
    }
}

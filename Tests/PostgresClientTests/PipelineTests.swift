import Foundation
import HeraldTestSupport
@testable import PostgresClient
import Testing

/// Statements that wait for the next one (`sendWithNext`: the session's settings, BEGIN, a
/// role) go in its round trip, and behave as if each had been sent alone. Each test runs with
/// libpq's pipeline mode and without it (libpq before 14: one statement at a time).
@Suite struct PipelineTests {
    struct Refused: Error, Equatable { let state: SQLState? }

    private func connect(_ configuration: ConnectionConfiguration, pipelined: Bool) throws -> Connection {
        let connection = try Connection(configuration: configuration, settings: ["application_name": "pipeline-test"])
        connection.usesPipeline = pipelined
        return connection
    }

    @Test(arguments: [true, false]) func theSessionSettingsGoWithTheFirstStatementInOneRoundTrip(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            #expect(connection.pending.count == 1 && connection.sentBatches == 0)
            let row = try connection.query("SELECT current_setting('TimeZone') AS zone, current_setting('application_name') AS name")[0]
            #expect(try row.decode("zone", as: String.self) == "UTC")
            #expect(try row.decode("name", as: String.self) == "pipeline-test")
            #expect(connection.pending.isEmpty && connection.sentBatches == 1)
        }
    }

    @Test(arguments: [true, false]) func settingsStayWhenTheStatementSentWithThemFails(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1 / 0") }
            #expect(error?.sqlState == SQLState(rawValue: "22012"))
            // Each went as its own statement: the settings' own transaction committed.
            let zone: String = try connection.query("SELECT current_setting('TimeZone') AS zone")[0].decode("zone")
            #expect(zone == "UTC")
        }
    }

    @Test(arguments: [true, false]) func aTransactionsBeginAndRoleGoWithItsFirstStatement(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            _ = try connection.query("SELECT 1")
            let before = connection.sentBatches
            let (user, readOnly) = try connection.transaction(readOnly: true) { tx in
                tx.sendWithNext("SELECT set_config('role', $1, true)", ["pg_read_all_data"])
                #expect(tx.isInTransaction)  // its BEGIN still waits
                let row = try tx.query("SELECT current_user::text AS who, current_setting('transaction_read_only') AS read_only")[0]
                return (try row.decode("who", as: String.self), try row.decode("read_only", as: String.self))
            }
            #expect(user == "pg_read_all_data")
            #expect(readOnly == "on")  // the BEGIN … READ ONLY that went first
            #expect(connection.sentBatches == before + 1)  // BEGIN, role and statement at once; COMMIT alone
            let after: String = try connection.query("SELECT current_user::text AS who")[0].decode("who")
            #expect(after != "pg_read_all_data")  // SET LOCAL's role ended with the transaction
        }
    }

    @Test(arguments: [true, false]) func aWaitingStatementsFailureIsThrownAsItsOwnAndStopsTheTransaction(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            try connection.execute("CREATE TABLE t (n int)")
            let error = #expect(throws: Refused.self) {
                try connection.transaction { tx in
                    tx.sendWithNext("SELECT set_config('role', $1, true)", ["no_such_role_here"]) { Refused(state: $0.sqlState) }
                    try tx.execute("INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.state == SQLState(rawValue: "22023"))  // invalid_parameter_value: no such role
            // The INSERT sent with it did not run outside the aborted block, and nothing was committed.
            #expect(try connection.query("SELECT count(*)::int AS n FROM t")[0].decode("n", as: Int.self) == 0)
            #expect(!connection.isInTransaction)
        }
    }

    @Test(arguments: [true, false]) func aTransactionThatThrowsBeforeSendingAnythingSendsNothing(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            _ = try connection.query("SELECT 1")
            let before = connection.sentBatches
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try connection.transaction { tx in
                    tx.sendWithNext("SELECT set_config('role', $1, true)", ["no_such_role_here"])
                    try tx.transaction { _ in throw Boom() }
                }
            }
            #expect(connection.sentBatches == before)
            #expect(connection.pending.isEmpty)
            // A body that sends nothing still commits what waited (its role's failure is said).
            #expect(throws: PostgresError.self) {
                try connection.transaction { tx in tx.sendWithNext("SELECT set_config('role', $1, true)", ["no_such_role_here"]) }
            }
            #expect(!connection.isInTransaction)
            #expect(try connection.query("SELECT 2 AS n")[0].decode("n", as: Int.self) == 2)
        }
    }

    @Test(arguments: [true, false]) func aServerProcessEndedUnderABatchIsALostConnection(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            let pid: Int = try connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid")
            let other = try Connection(configuration: configuration)
            try other.execute("SELECT pg_terminate_backend($1::int)", [pid])
            let error = #expect(throws: PostgresError.self) {
                try connection.transaction { tx in
                    tx.sendWithNext("SELECT set_config('application_name', 'lost', true)")
                    try tx.query("SELECT 1")
                }
            }
            // What reconnecting callers (the watcher, the collector) look for.
            #expect(error?.isConnectionLost == true, "\(String(describing: error))")
        }
    }

    /// The waiting statements' results are freed once read (each a PGresult of a kilobyte or
    /// more): 3,000 units of work with a BEGIN and a setting waiting leave the process's memory
    /// as it was. In a process of its own, so that no other test's allocations move it.
    @Test func theResultsOfWaitingStatementsAreFreed() async {
        await #expect(processExitsWith: .success) {
            let grown = try withTestDatabase { configuration -> Int in
                let connection = try Connection(configuration: configuration)
                func work(_ times: Int) throws {
                    for _ in 0..<times {
                        try connection.transaction { tx in
                            tx.sendWithNext("SELECT set_config('application_name', $1, true)", ["leak-check"])
                            _ = try tx.query("SELECT 1 AS one")
                        }
                    }
                }
                try work(300)
                let before = try residentBytes()
                try work(3_000)
                return try residentBytes() - before
            }
            // Leaking the BEGIN's and the setting's results grew it by about 15 MB here.
            exit(grown < 4_000_000 ? 0 : 1)
        }
    }

    @Test(arguments: [true, false]) func workThatCannotGoInAPipelineSendsWhatWaitsFirst(pipelined: Bool) throws {
        try withTestDatabase { configuration in
            let connection = try connect(configuration, pipelined: pipelined)
            try connection.transaction { tx in
                // A script (simple protocol), COPY and a prepared statement each find the BEGIN sent.
                try tx.executeScript("CREATE TABLE t (n int); INSERT INTO t VALUES (1);")
                try tx.copyIn("COPY t (n) FROM STDIN") { try $0.writeRow(["2"]) }
                let statement = PreparedStatement(name: "count_t", sql: "SELECT count(*)::int AS n FROM t")
                #expect(try tx.query(statement)[0].decode("n", as: Int.self) == 2)
            }
            #expect(try connection.query("SELECT count(*)::int AS n FROM t")[0].decode("n", as: Int.self) == 2)
            // What waited went before the COPY, and the transaction it began is rolled back whole.
            #expect(throws: CancellationError.self) {
                try connection.transaction { tx in
                    tx.sendWithNext("SELECT 1")
                    _ = try tx.copyIn("COPY t (n) FROM STDIN") { try $0.writeRow(["3"]) }
                    throw CancellationError()
                }
            }
            #expect(try connection.query("SELECT count(*)::int AS n FROM t")[0].decode("n", as: Int.self) == 2)
        }
    }
}

/// This process's resident memory, from /proc/self/statm (pages).
private func residentBytes() throws -> Int {
    let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { throw PostgresError(kind: .usage, message: "unreadable /proc/self/statm") }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

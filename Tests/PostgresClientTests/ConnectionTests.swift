import Foundation
import HeraldTestSupport
@testable import PostgresClient
import Testing

@Suite struct ConnectionTests {
    @Test func errorsCarrySQLStateAndConstraintButNeverTheValues() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (name text CONSTRAINT t_name_key UNIQUE, n int CONSTRAINT t_n_positive CHECK (n > 0))")
            try connection.execute("INSERT INTO t VALUES ($1, 1)", ["secret-value-1"])
            let unique = #expect(throws: PostgresError.self) {
                try connection.execute("INSERT INTO t VALUES ($1, 2)", ["secret-value-1"])
            }
            #expect(unique?.isUniqueViolation == true)
            #expect(unique?.constraint == "t_name_key")
            #expect(unique?.detail?.contains("secret-value-1") == true)  // kept for callers...
            #expect(unique?.description.contains("secret-value-1") == false)  // ...never printed
            #expect(unique?.description.contains("23505") == true)
            let check = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO t VALUES ($1, $2)", ["x", -5]) }
            #expect(check?.isCheckViolation == true)
            #expect(check?.constraint == "t_n_positive")
            #expect(check?.description.contains("-5") == false)
        }
    }

    @Test func connectionFailureNamesHostAndDatabaseButNotThePassword() throws {
        let configuration = ConnectionConfiguration(
            keywords: ["host": "/tmp/herald-no-such-dir", "dbname": "heraldprod", "user": "bob", "password": "hunter2-secret"])
        let error = #expect(throws: PostgresError.self) { try Connection(configuration: configuration) }
        #expect(error?.kind == .connection)
        #expect(error?.message.contains("/tmp/herald-no-such-dir") == true)
        #expect(error?.message.contains("heraldprod") == true)
        #expect(error?.message.contains("hunter2-secret") == false)
        let url = ConnectionConfiguration(conninfo: "postgresql://bob:hunter2-secret@127.0.0.1:1/heraldprod?connect_timeout=2")
        let urlError = #expect(throws: PostgresError.self) { try Connection(configuration: url) }
        #expect(urlError?.message.contains("hunter2-secret") == false)
        #expect(url.redactedDescription.contains("hunter2-secret") == false)
        #expect(url.redactedDescription.contains("dbname=heraldprod"))
        // A quoted password with spaces and quotes: no part of it shows.
        let spaced = ConnectionConfiguration(
            keywords: ["host": "/tmp/herald-no-such-dir", "dbname": "heraldprod", "password": "correct horse 'battery' staple"])
        let spacedError = #expect(throws: PostgresError.self) { try Connection(configuration: spaced) }
        for word in ["correct", "horse", "battery", "staple"] {
            #expect(spacedError?.message.contains(word) == false, "\(word)")
        }
    }

    @Test func passwordsAreMaskedInAnyMessageThatRepeatsThem() {
        let text = "failed: password='correct horse \\'battery\\' staple' user=bob; url postgresql://bob:pw%201@h/db; password=plain next"
        let masked = Connection.redactPasswords(text, known: "another-known")
        #expect(!masked.contains("horse") && !masked.contains("staple") && !masked.contains("plain") && !masked.contains("pw%201"), "\(masked)")
        #expect(masked.contains("user=bob") && masked.contains("next"), "\(masked)")
        #expect(Connection.redactPasswords("the server said hunter2 is wrong", known: "hunter2") == "the server said *** is wrong")
    }

    @Test func transactionsCommitRollBackAndNest() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (n int)")
            try connection.transaction { try $0.execute("INSERT INTO t VALUES (1)") }
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try connection.transaction { tx in
                    try tx.execute("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
            }
            try connection.transaction { tx in
                try tx.execute("INSERT INTO t VALUES (3)")
                #expect(throws: Boom.self) {
                    try tx.transaction { inner in
                        try inner.execute("INSERT INTO t VALUES (4)")
                        throw Boom()
                    }
                }
                #expect(tx.isInTransaction)
            }
            #expect(!connection.isInTransaction)
            let values = try connection.query("SELECT n FROM t ORDER BY n").map { try $0.decode("n", as: Int.self) }
            #expect(values == [1, 3])
        }
    }

    /// A failed statement whose error the body swallowed must not turn into a silent rollback
    /// reported as success.
    @Test func aSwallowedFailureIsNotReportedAsACommit() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (n int PRIMARY KEY)")
            let error = #expect(throws: PostgresError.self) {
                try connection.transaction { tx in
                    try tx.execute("INSERT INTO t VALUES (1)")
                    _ = try? tx.execute("INSERT INTO t VALUES (1)")  // duplicate key, ignored
                }
            }
            #expect(error?.message.contains("rolled back") == true)
            #expect(!connection.isInTransaction)
            #expect(try connection.query("SELECT count(*) AS c FROM t")[0].decode("c", as: Int.self) == 0)
            // A failure inside a nested savepoint that the outer body handles is fine.
            try connection.transaction { tx in
                try tx.execute("INSERT INTO t VALUES (2)")
                _ = try? tx.transaction { inner in try inner.execute("INSERT INTO t VALUES (2)") }
            }
            #expect(try connection.query("SELECT count(*) AS c FROM t")[0].decode("c", as: Int.self) == 1)
        }
    }

    @Test func repeatableReadSeesOneSnapshot() throws {
        try withTestDatabase { configuration in
            let reader = try Connection(configuration: configuration)
            let writer = try Connection(configuration: configuration)
            try writer.execute("CREATE TABLE t (n int)")
            try reader.transaction(.repeatableRead, readOnly: true) { tx in
                let before = try tx.query("SELECT count(*) AS c FROM t")[0].decode("c", as: Int.self)
                try writer.execute("INSERT INTO t VALUES (1)")
                let after = try tx.query("SELECT count(*) AS c FROM t")[0].decode("c", as: Int.self)
                #expect(before == after)
            }
            #expect(try reader.query("SELECT count(*) AS c FROM t")[0].decode("c", as: Int.self) == 1)
        }
    }

    @Test func advisoryLocksExcludeOtherSessions() throws {
        try withTestDatabase { configuration in
            let first = try Connection(configuration: configuration)
            let second = try Connection(configuration: configuration)
            #expect(try first.tryAdvisoryLock(42))
            #expect(try !second.tryAdvisoryLock(42))
            try first.advisoryUnlock(42)
            #expect(try second.tryAdvisoryLock(42))
            try second.transaction { (tx: Connection) throws in
                #expect(try tx.tryAdvisoryTransactionLock(7))
                #expect(try !first.tryAdvisoryTransactionLock(7))
            }
            #expect(try first.tryAdvisoryTransactionLock(7))
        }
    }

    @Test func preparedStatementsArePreparedOncePerConnectionAndOutliveRollbacks() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (n int PRIMARY KEY, name text)")
            let insert = PreparedStatement(name: "insert-t", sql: "INSERT INTO t VALUES ($1, $2) RETURNING n * 10 AS tenfold")
            // Prepared inside a transaction that is rolled back: still there afterwards.
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try connection.transaction { tx in
                    #expect(try tx.query(insert, [1, "one"])[0].decode("tenfold", as: Int.self) == 10)
                    throw Boom()
                }
            }
            #expect(try connection.execute(insert, [2, Optional<String>.none]) == 1)
            try connection.transaction { try $0.execute(insert, [3, "it's"]) }
            let rows = try connection.query("SELECT n, name FROM t ORDER BY n")
            #expect(try rows.map { try $0.decode("n", as: Int.self) } == [2, 3])
            #expect(try rows.map { try $0.decode("name", as: String?.self) } == [nil, "it's"])
            let prepared = try connection.query("SELECT name, statement FROM pg_prepared_statements")
            #expect(try prepared.map { try $0.decode("name", as: String.self) } == ["insert-t"])
            // A failure is the server's error, and the connection goes on.
            let duplicate = #expect(throws: PostgresError.self) { try connection.execute(insert, [2, "again"]) }
            #expect(duplicate?.isUniqueViolation == true)
            let broken = #expect(throws: PostgresError.self) { try connection.prepare(name: "broken", sql: "SELEC 1") }
            #expect(broken?.description.hasPrefix("42601") == true)  // a syntax error
            // One name, one statement.
            let other = #expect(throws: PostgresError.self) { try connection.prepare(name: "insert-t", sql: "SELECT 1") }
            #expect(other?.kind == .usage)
            try connection.prepare(name: "insert-t", sql: insert.sql)
            #expect(try connection.query("SELECT count(*) AS n FROM pg_prepared_statements")[0].decode("n", as: Int.self) == 1)
        }
    }

    @Test func copyInEscapesEverythingAndStreamsLargeInputs() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (id int, body text)")
            let awkward: [String?] = ["tab\there", "new\nline", "carriage\rreturn", "back\\slash", "ünï 🎉", nil, "\\N"]
            let copied = try connection.copyIn("COPY t (id, body) FROM STDIN") { writer in
                for (index, body) in awkward.enumerated() { try writer.writeRow([String(index), body]) }
            }
            #expect(copied == awkward.count)
            let back = try connection.query("SELECT body FROM t ORDER BY id").map { try $0.decode("body", as: String?.self) }
            #expect(back == awkward)

            try connection.execute("TRUNCATE t")
            let line = String(repeating: "x", count: 1000)
            let big = try connection.copyIn("COPY t (id, body) FROM STDIN") { writer in
                for index in 0..<3000 { try writer.writeRow([String(index), line]) }  // ~3 MB
            }
            #expect(big == 3000)
            #expect(try connection.query("SELECT sum(length(body)) AS s FROM t")[0].decode("s", as: Int.self) == 3_000_000)
        }
    }

    @Test func binaryCopyCarriesRawBytesAndNulls() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE b (name text, content bytea)")
            let everyByte = (0...255).map(UInt8.init)
            let copied = try connection.copyInBinary("COPY b (name, content) FROM STDIN WITH (FORMAT binary)") { writer in
                try writer.writeRow([Array("all ünï\t".utf8), everyByte])
                try writer.writeRow([Array("empty".utf8), []])
                try writer.writeRow([Array("null".utf8), nil])
            }
            #expect(copied == 3)
            let rows = try connection.query("SELECT name, content FROM b ORDER BY name")
            #expect(try rows.map { try $0.decode("name", as: String.self) } == ["all ünï\t", "empty", "null"])
            #expect(try rows.map { try $0.decode("content", as: Data?.self).map { [UInt8]($0) } } == [everyByte, [], nil])
        }
    }

    @Test func aFailedCopyReportsTheErrorAndLeavesTheConnectionUsable() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.execute("CREATE TABLE t (id int)")
            #expect(throws: PostgresError.self) {
                try connection.copyIn("COPY t (id) FROM STDIN") { try $0.writeRow(["not a number"]) }
            }
            #expect(try connection.query("SELECT 1 AS one")[0].decode("one", as: Int.self) == 1)
        }
    }

    @Test func scriptsRunSeveralStatementsAndStopAtTheFirstError() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            try connection.executeScript("CREATE TABLE a (n int); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);")
            #expect(try connection.query("SELECT count(*) AS c FROM a")[0].decode("c", as: Int.self) == 2)
            #expect(throws: PostgresError.self) { try connection.executeScript("INSERT INTO a VALUES (3); SELECT * FROM missing;") }
        }
    }

    @Test func aConnectionQueueServesManyConcurrentTasks() async throws {
        try await withTestDatabase { configuration in
            let queue = try ConnectionQueue(configuration: configuration)
            let sum = try await withThrowingTaskGroup(of: Int.self) { group in
                for value in 1...50 {
                    group.addTask {
                        try await queue.run { connection in
                            try connection.query("SELECT $1::int * 2 AS doubled", [value])[0].decode("doubled", as: Int.self)
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(sum == 2 * (1...50).reduce(0, +))
        }
    }
}

@Suite struct ConnectionConfigurationTests {
    @Test func theCallersURLVariableComesFirstThenLibpqVariables() {
        let url = "APP_DATABASE_URL"
        #expect(ConnectionConfiguration.fromEnvironment([url: "postgresql:///x", "PGHOST": "h"], urlVariable: url)?.conninfo == "postgresql:///x")
        #expect(ConnectionConfiguration.fromEnvironment(["PGDATABASE": "x"], urlVariable: url)?.conninfo == "")
        #expect(ConnectionConfiguration.fromEnvironment([url: "", "HOME": "/root"], urlVariable: url) == nil)
        #expect(ConnectionConfiguration.fromEnvironment([:], urlVariable: url) == nil)
        // Only the variable the caller names: the driver has no name of its own.
        #expect(ConnectionConfiguration.fromEnvironment(["HERALD_DATABASE_URL": "postgresql:///x"]) == nil)
        #expect(ConnectionConfiguration.fromEnvironment([url: "postgresql:///x"]) == nil)
    }

    @Test func keywordsAreQuotedForLibpq() throws {
        let configuration = ConnectionConfiguration(keywords: ["dbname": "it's", "user": "a b", "password": "back\\slash"])
        #expect(configuration.conninfo == "dbname='it\\'s' password='back\\\\slash' user='a b'")
        #expect(configuration.redactedDescription.contains("dbname=it's"))
        #expect(configuration.redactedDescription.contains("user=a b"))
        #expect(!configuration.redactedDescription.contains("slash"))
    }

    @Test func aNestedSyncCallRunsInsteadOfDeadlocking() throws {
        try withTestDatabase { configuration in
            let queue = try ConnectionQueue(configuration: configuration)
            let value = try queue.sync { outer in
                try queue.sync { inner in
                    try inner.query("SELECT 41 + 1 AS n")[0].decode("n", as: Int.self)
                } + (try outer.query("SELECT 0 AS z")[0].decode("z", as: Int.self))
            }
            #expect(value == 42)
        }
    }
}

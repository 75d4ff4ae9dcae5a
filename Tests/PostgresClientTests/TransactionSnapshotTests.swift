import Foundation
import HeraldTestSupport
@testable import PostgresClient
import Testing

/// One read split over two connections: the second imports the first's snapshot and sees
/// exactly its rows, not what was committed since.
@Suite struct TransactionSnapshotTests {
    @Test func anImportedSnapshotSeesTheExportersRowsNotLaterCommits() throws {
        try withTestDatabase { configuration in
            let first = try Connection(configuration: configuration)
            let second = try Connection(configuration: configuration)
            let writer = try Connection(configuration: configuration)
            try first.execute("CREATE TABLE t (n int)")
            try first.execute("INSERT INTO t VALUES (1)")
            func count(_ connection: Connection) throws -> Int64 { try connection.query("SELECT count(*) AS n FROM t")[0].decode("n") }
            try first.transaction(.repeatableRead, readOnly: true) { reader in
                #expect(try count(reader) == 1)
                let snapshot = try reader.exportSnapshot()
                try writer.execute("INSERT INTO t VALUES (2)")
                let seen = try second.transaction(.repeatableRead, readOnly: true, importing: snapshot) { try count($0) }
                #expect(seen == 1)  // as the exporter sees it
            }
            #expect(try second.transaction(.repeatableRead, readOnly: true) { try count($0) } == 2)  // its own snapshot: both rows
            // Once the exporter's transaction is over, its snapshot can no longer be imported.
            let gone = try first.transaction(.repeatableRead, readOnly: true) { try $0.exportSnapshot() }
            #expect(throws: PostgresError.self) { try second.transaction(.repeatableRead, importing: gone) { try count($0) } }
            #expect(try count(second) == 2)  // the failed import left no transaction open
        }
    }

    /// The id is spliced into SET TRANSACTION SNAPSHOT (it takes no parameters): only the
    /// server's form passes.
    @Test func onlyNamesOfTheServersFormAreAccepted() {
        #expect(TransactionSnapshot(id: "00000003-0000001B-1") != nil)
        for id in ["", "x", "00000003-0000001b-1", "1'; DROP TABLE t; --", "1 2", String(repeating: "0", count: 65)] {
            #expect(TransactionSnapshot(id: id) == nil, "\(id)")
        }
    }
}

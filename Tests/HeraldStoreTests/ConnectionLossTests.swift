import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// A server that goes away in the middle of the work is "unavailable" (exit 69), named, and
/// never an unexpected database error.
@Suite struct ConnectionLossTests {
    @Test func aTerminatedBackendIsUnavailableAndNamesTheDatabase() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let row = try database.connection.query("SELECT pg_backend_pid() AS pid, current_database() AS name")[0]
            let (pid, name): (Int, String) = (try row.decode("pid"), try row.decode("name"))
            let admin = try Connection(configuration: configuration)
            try admin.execute("SELECT pg_terminate_backend($1::int)", [pid])
            let error = #expect(performing: {
                try database.asOperator(readOnly: true) { try $0.tenants.list() }
            }, throws: isStoreError(.unavailable)) as? StoreError
            guard case .unavailable(let message)? = error else {
                Issue.record("expected unavailable, got \(String(describing: error))")
                return
            }
            #expect(message.hasPrefix("lost the connection to "), "\(message)")
            #expect(message.contains("dbname=\(name)"), "\(message)")
        }
    }

    @Test(arguments: ["57P01", "57P02", "57P03", "08006", "08003"])
    func sqlStatesOfALostSessionAreUnavailable(_ code: String) {
        let error = PostgresError(kind: .query, message: "terminating connection", sqlState: SQLState(rawValue: code))
        #expect(error.isConnectionLost)
        guard case .unavailable = StoreError.from(error) else {
            Issue.record("\(code) is not unavailable: \(StoreError.from(error))")
            return
        }
    }

    @Test func otherFailuresAreNot() {
        #expect(!PostgresError(kind: .query, message: "syntax", sqlState: SQLState(rawValue: "42601")).isConnectionLost)
        #expect(!PostgresError(kind: .query, message: "no state").isConnectionLost)
    }
}

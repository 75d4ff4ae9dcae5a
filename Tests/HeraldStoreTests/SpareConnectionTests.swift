import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// A second connection opened beside the first (a publish holds its tenants' locks on one) is
/// handed out by the next `connectAgain`, once, knowing what the first found; one that could
/// not connect is replaced by a new connection, not reported.
@Suite struct SpareConnectionTests {
    @Test func theSpareIsHandedOutOnceKnowingWhatTheFirstFound() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "first")
            try database.requireCurrentSchema()
            let login = try database.login()
            // Told apart by its actor: a connection the connector made would say "first".
            database.keepSpare(BackgroundMade { try HeraldDatabase(configuration: configuration, actor: "spare") })
            let spare = try database.connectAgain()
            #expect(spare.actor == "spare")
            #expect(spare.knownLogin == login)
            #expect(spare.schemaIsKnownCurrent)
            let actor = try spare.asOperator(readOnly: true) { session in
                try session.connection.query("SELECT current_setting('herald.actor') AS actor")[0].decode("actor", as: String.self)
            }
            #expect(actor == "spare")
            let next = try database.connectAgain()
            #expect(next.actor == "first")
        }
    }

    @Test func aSpareThatCouldNotConnectIsReplaced() throws {
        struct Unreachable: Error {}
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "first")
            database.keepSpare(BackgroundMade { throw Unreachable() })
            let again = try database.connectAgain()
            #expect(again.actor == "first")
            #expect(try again.asOperator(readOnly: true) { try $0.tenants.list() }.isEmpty)
        }
    }
}

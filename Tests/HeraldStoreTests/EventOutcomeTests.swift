import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// `EventIngestor.store`, the collector's way in: what became of each record, in the order
/// given, so that requests stored in one transaction are each answered for their own events.
@Suite struct EventOutcomeTests {
    @Test func eachRecordGetsItsOwnOutcomeAcrossBatchesAndInsideOne() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            _ = try StoreFixtures.seedTwoTenants(database)
            let ingestor = try EventIngestor(database: database)
            #expect(try ingestor.store(parse([eventLine(1), eventLine(2)])) == [.inserted, .inserted])
            // Stored before (1), new (3), twice in this batch (3 again), malformed, another tenant's campaign.
            let outcomes = try ingestor.store(parse([eventLine(3), eventLine(1), "{", eventLine(3), eventLine(4, app: "news"), eventLine(5)]))
            #expect(outcomes.count == 6)
            #expect(outcomes[0] == .inserted)
            #expect(outcomes[1] == .duplicate)
            if case .rejected(let reason) = outcomes[2] { #expect(reason.hasPrefix("invalid JSON")) } else { Issue.record("\(outcomes[2])") }
            #expect(outcomes[3] == .duplicate)
            #expect(outcomes[4] == .rejected("campaign \"news/spring\" belongs to another tenant, not \"acme\""))
            #expect(outcomes[5] == .inserted)
            // For devices: no word of another tenant's campaign.
            ingestor.namesOtherTenants = false
            #expect(try ingestor.store(parse([eventLine(6, app: "news")])) == [.rejected("unknown app \"news\" in tenant \"acme\"")])
            try database.asOperator { session in
                let check = try rollupDisagreements(session.connection)
                #expect(check.differences == 0 && check.raw == 4)
            }
        }
    }
}

import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

@Suite struct ChangeTrackerTests {
    /// A transaction that started before a publish's snapshot and commits after it (with a
    /// lower audit id than changes the publish did see) is still reported as a change.
    @Test func changesCommittedOutOfOrderAreNotMissed() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            let slow = try HeraldDatabase(configuration: configuration, actor: "slow")
            let fast = try HeraldDatabase(configuration: configuration, actor: "fast")
            let publisher = try HeraldDatabase(configuration: configuration, actor: "publisher")

            try slow.connection.execute("BEGIN")
            try slow.connection.execute("SELECT set_config('herald.tenant_id', $1, true)", [String(seeded.acme.id)])
            try slow.connection.execute("SET LOCAL ROLE herald_tenant")
            try slow.connection.execute("UPDATE apps SET name = 'Slow edit'")  // audit row written now, uncommitted
            _ = try fast.inTenant(seeded.globex.slug) { try $0.apps.update(seeded.globexApp.spec.slug, { var c = AppChanges(); c.name = "Fast"; return c }()) }

            let (snapshot, seenNow) = try publisher.asOperator(.repeatableRead) { session in
                let current = try session.changes.currentSnapshot()
                let early = SourceSnapshot(cluster: current.cluster, snapshot: "1:1:")
                return (current, try session.changes.changedApps(since: early, current: current, previousAt: Date(), at: Date()))
            }
            #expect(seenNow?.contains(seeded.globexApp.id) == true)
            try slow.connection.execute("COMMIT")

            let later = try publisher.asOperator(.repeatableRead) {
                try $0.changes.changedApps(since: snapshot, current: try $0.changes.currentSnapshot(), previousAt: Date(), at: Date())
            }
            #expect(later == [seeded.acmeApp.id], "the slow transaction's change must be reported, and only it")
        }
    }

    @Test func campaignsThatStartOrEndBetweenTwoPublishTimesMarkTheirApp() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "test")
            let seeded = try StoreFixtures.seedTwoTenants(database)
            try database.inTenant(seeded.acme.slug) { session in
                var banner = try session.campaigns.find(try Slug("spring"), in: seeded.acmeApp).spec  // starts 2026-05-01
                banner.status = .active
                try session.campaigns.save(banner, in: seeded.acmeApp, now: Date(timeIntervalSince1970: 1_700_000_000))
            }
            let snapshot = try database.asOperator(.repeatableRead) { try $0.changes.currentSnapshot() }
            let april = Date(timeIntervalSince1970: 1_775_000_000)
            let june = Date(timeIntervalSince1970: 1_780_272_000)
            let crossing = try database.asOperator(.repeatableRead) { try $0.changes.changedApps(since: snapshot, current: snapshot, previousAt: april, at: june) }
            #expect(crossing == [seeded.acmeApp.id])
            let backwards = try database.asOperator(.repeatableRead) { try $0.changes.changedApps(since: snapshot, current: snapshot, previousAt: june, at: april) }
            #expect(backwards == [seeded.acmeApp.id])
            let quiet = try database.asOperator(.repeatableRead) { try $0.changes.changedApps(since: snapshot, current: snapshot, previousAt: june, at: june.addingTimeInterval(60)) }
            // A snapshot from another cluster (before a restore onto a new server) tells nothing here.
            let restored = SourceSnapshot(cluster: snapshot.cluster + "0", snapshot: snapshot.snapshot)
            #expect(try database.asOperator(.repeatableRead) { try $0.changes.changedApps(since: restored, current: snapshot, previousAt: june, at: june) } == nil)
            #expect(quiet?.isEmpty == true)
        }
    }
}

import Foundation
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// Herald's names for its database settings live in HeraldStore (PostgresClient is handed them),
/// and the executable reaches the database only through HeraldStore's narrow face.
@Suite struct DatabaseLocationTests {
    @Test func heraldsURLComesFirstThenLibpqVariables() {
        #expect(DatabaseLocation.configured(in: ["HERALD_DATABASE_URL": "postgresql:///x", "PGHOST": "h"])?.conninfo == "postgresql:///x")
        #expect(DatabaseLocation.configured(in: ["PGDATABASE": "x"])?.conninfo == "")
        #expect(DatabaseLocation.configured(in: ["HERALD_DATABASE_URL": "", "HOME": "/root"]) == nil)
        #expect(DatabaseLocation.configured(in: [:]) == nil)
    }

    @Test func theDescriptionNamesThePlaceButNotThePassword() throws {
        let location = try #require(
            DatabaseLocation.configured(in: ["HERALD_DATABASE_URL": "postgresql://herald:s3cret-pw@db.example.com:6543/heraldprod"]))
        #expect(location.redactedDescription.contains("db.example.com"))
        #expect(location.redactedDescription.contains("dbname=heraldprod"))
        #expect(!location.redactedDescription.contains("s3cret-pw"))
    }

    @Test func anEmptyServerBinariesFolderIsNamedByHeraldsVariable() throws {
        try withTemporaryDirectory { root in
            let missing = root.appendingPathComponent("none").path
            do {
                _ = try DatabaseEnvironment.locateServerBinaries(["HERALD_PG_BINDIR": missing, "PATH": "/usr/bin"])
                Issue.record("found server binaries in an empty folder")
            } catch let error as PostgresError {
                #expect(error.message.hasPrefix("HERALD_PG_BINDIR=\(missing) holds no PostgreSQL server binaries"))
                #expect(error.message.contains("unset HERALD_PG_BINDIR"))
                #expect(error.message.contains("apt-get install postgresql"))
            }
        }
    }

    @Test func anUnreachableServerIsUnavailableInWordsWithoutThePassword() throws {
        let location = try #require(
            DatabaseLocation.configured(in: ["HERALD_DATABASE_URL": "postgresql://herald:s3cret-pw@127.0.0.1:1/heraldprod?connect_timeout=2"]))
        #expect(!location.isAcceptingConnections)
        let error =
            #expect(performing: { _ = try HeraldDatabase(location: location, actor: "test") }, throws: isStoreError(.unavailable))
            as? StoreError
        guard case .unavailable(let message)? = error else {
            Issue.record("not StoreError.unavailable: \(String(describing: error))")
            return
        }
        #expect(message.contains("127.0.0.1"))
        #expect(!message.contains("s3cret-pw"))
    }

    @Test func anAdvisoryLockHeldElsewhereIsBusyAtOnceAndFreeAfterwards() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let holder = try HeraldDatabase(configuration: configuration, actor: "holder")
            let other = try HeraldDatabase(configuration: configuration, actor: "other")
            try holder.withAdvisoryLock(.publish, wait: false, busyMessage: "unused") {
                #expect(throws: StoreError.busy("someone else publishes")) {
                    try other.withAdvisoryLock(.publish, wait: false, busyMessage: "someone else publishes") {}
                }
                // Another lock is another key.
                try other.withAdvisoryLock(.migrate, wait: false, busyMessage: "unused") {}
            }
            #expect(try other.withAdvisoryLock(.publish, wait: false, busyMessage: "unused") { 42 } == 42)
            // Released when the body throws, too.
            #expect(throws: StoreError.conflict("inside")) {
                try other.withAdvisoryLock(.publish, wait: true, busyMessage: "unused") { throw StoreError.conflict("inside") }
            }
            try holder.withAdvisoryLock(.publish, wait: false, busyMessage: "unused") {}
        }
    }

    @Test func lockKeysAreDistinct() {
        #expect(Set(AdvisoryLock.allCases.map(\.rawValue)).count == AdvisoryLock.allCases.count)
        #expect(PublishRunRepository.lockKey == AdvisoryLock.publish.rawValue)
    }
}

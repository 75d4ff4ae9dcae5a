import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

/// Applies of one tenant take turns (issue #11.6): three applies of disjoint campaign sets
/// for one app, run at once, all said "applied" and left all three sets active.
@Suite struct ApplyTurnsTests {
    /// A campaigns file of tenant `tenant` whose app `weather` lists exactly `keys`, active.
    static func file(_ keys: [String], tenant: String = "acme", name: String = "Alert") -> String {
        var text = """
            version: 1
            tenants:
            - slug: \(tenant)
              name: Tenant \(tenant)
              apps:
              - slug: weather
                name: Weather
                platform: ios
                bundleId: com.\(tenant).weather
                defaultLocale: en
                campaigns:

            """
        for (index, key) in keys.enumerated() {
            text += """
                    - key: \(key)
                      kind: alert
                      name: \(name)
                      status: active
                      messageKey: "\(key)/\(index)"
                      content:
                        en: {title: Title \(key), message: Message}

                """
        }
        return text
    }

    /// The keys of `tenant`'s active campaigns, read as the superuser.
    static func active(_ database: ConnectionConfiguration, tenant: String = "acme") throws -> Set<String> {
        let rows = try Connection(configuration: database).query(
            """
            SELECT c.key::text AS key FROM campaigns c JOIN tenants t ON t.id = c.tenant_id
            WHERE t.slug = $1 AND c.status = 'active'
            """, [tenant])
        return Set(try rows.map { try $0.decode("key", as: String.self) })
    }

    /// Holds `tenant`'s apply turn, as a running apply does, while `body` runs.
    static func holdingTurn<T>(_ database: ConnectionConfiguration, of tenant: String, _ body: (Connection) throws -> T) throws -> T {
        let holder = try Connection(configuration: database)
        return try holder.transaction { tx in
            let locked = try tx.query(
                """
                SELECT l.tenant_id FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id
                WHERE l.purpose = 'apply' AND t.slug = $1 FOR UPDATE OF l
                """, [tenant])
            #expect(locked.count == 1, "the first apply leaves the tenant a row to take turns on")
            return try body(tx)
        }
    }

    @Test func anApplyWhileAnotherHoldsTheTenantExits75AndWritesNothing() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            try herald.succeed(["apply", "-f", "-"], stdin: Self.file(["a1", "a2"]))
            try herald.succeed(["apply", "-f", "-"], stdin: Self.file(["g1"], tenant: "globex"))
            try Self.holdingTurn(database, of: "acme") { _ in
                let before = try HeraldFixtures.fingerprint(database)
                for extra in [[], ["--dry-run"], ["--json"]] {
                    let result = try herald.run(["apply", "-f", "-"] + extra, stdin: Self.file(["b1"]))
                    #expect(result.status == 75, "\(extra): \(result)")
                    #expect(result.stderr.contains("another `herald apply` is changing tenant acme"), "\(result)")
                    #expect(result.stderr.contains("--wait"), "\(result)")
                    #expect(result.stdout.isEmpty, "\(result)")
                }
                #expect(try HeraldFixtures.fingerprint(database) == before)
                // Turns are per tenant: another tenant's apply goes ahead.
                try herald.succeed(["apply", "-f", "-"], stdin: Self.file(["g2"], tenant: "globex"))
                #expect(try Self.active(database, tenant: "globex") == ["g2"])
            }
            #expect(try Self.active(database) == ["a1", "a2"])
        }
    }

    @Test func applyWithWaitPlansAgainstWhatTheRunningOneWrote() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            try herald.succeed(["apply", "-f", "-"], stdin: Self.file(["a1", "a2"]))
            let finished = Mutex<CommandResult?>(nil)
            let done = DispatchSemaphore(value: 0)
            try Self.holdingTurn(database, of: "acme") { tx in
                // What the running apply writes: a1 renamed, a2 archived.
                try tx.execute("UPDATE campaigns SET name = 'Renamed meanwhile' WHERE key = 'a1'")
                try tx.execute("UPDATE campaigns SET status = 'archived' WHERE key = 'a2'")
                DispatchQueue.global().async {
                    let result = try? herald.run(["apply", "-f", "-", "--wait"], stdin: Self.file(["a1", "b1"]))
                    finished.withLock { $0 = result }
                    done.signal()
                }
                // It waits for the turn, not for anything else.
                let watcher = try Connection(configuration: database)
                var waiting = false
                for _ in 0..<600 where !waiting {
                    waiting = try watcher.query(
                        """
                        SELECT 1 FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE '%tenant_locks%' AND pid <> pg_backend_pid()
                        """
                    ).count > 0
                    if !waiting { usleep(50_000) }
                }
                #expect(waiting, "the second apply never waited for the turn")
                #expect(finished.withLock { $0 } == nil, "the second apply did not wait")
            }
            done.wait()
            let result = try #require(finished.withLock { $0 })
            #expect(result.status == 0, "\(result)")
            // Planned after the first committed: a1's name is put back, a2 (archived by the
            // first) is left archived, b1 is created.
            #expect(result.stdout.contains("~ campaign acme/weather/a1: name"), "\(result)")
            #expect(!result.stdout.contains("a2"), "\(result)")
            #expect(result.stdout.contains("+ campaign acme/weather/b1"), "\(result)")
            #expect(try Self.active(database) == ["a1", "b1"])
        }
    }

    @Test func appliesRunAtOnceLeaveExactlyOneFilesCampaignsActive() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            // Also for a tenant the files create: its creators take turns too.
            let sets = [["x1", "x2"], ["y1", "y2"], ["z1", "z2"]]
            for round in 1...2 {
                let results = Mutex<[Int: CommandResult]>([:])
                DispatchQueue.concurrentPerform(iterations: sets.count) { index in
                    let result = try? herald.run(["apply", "-f", "-", "--wait"], stdin: Self.file(sets[index], name: "Round \(round)"))
                    results.withLock { $0[index] = result }
                }
                let statuses = results.withLock { $0.mapValues(\.status) }
                #expect(statuses == [0: 0, 1: 0, 2: 0], "round \(round): \(results.withLock { $0 })")
                let active = try Self.active(database)
                #expect(sets.contains { Set($0) == active }, "round \(round): \(active)")
            }
        }
    }

    /// kill -9 after an apply wrote everything, before it committed: nothing of it stays,
    /// and the tenant's turn is free again for the next apply.
    @Test func anApplyKilledBeforeItsCommitLeavesNothingAndFreesTheTurn() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = HeraldCLI(database: database)
            try herald.succeed(["apply", "-f", "-"], stdin: Self.file(["a1", "a2"]))
            let before = try HeraldFixtures.fingerprint(database)
            let killed = try herald.crashing(at: ApplyCrashPoint.written).run(["apply", "-f", "-"], stdin: Self.file(["b1", "b2"], name: "Changed"))
            #expect(killed.killedBy == SIGKILL, "\(killed)")
            #expect(try HeraldFixtures.fingerprint(database) == before)
            let again = try herald.run(["apply", "-f", "-", "--wait"], stdin: Self.file(["b1", "b2"], name: "Changed"))
            #expect(again.status == 0, "\(again)")
            #expect(try Self.active(database) == ["b1", "b2"])
        }
    }
}

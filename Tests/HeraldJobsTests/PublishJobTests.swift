import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
@testable import HeraldStore
import HeraldSite
import HeraldTestSupport
import PostgresClient
import Testing

@Suite struct PublishJobTests {
    @Test func fullThenNothingChangedThenOneChange() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            var phases: [String] = []
            let job = PublishJob(database: database, out: out, phaseTimes: { phase, seconds in
                phases.append(phase)
                #expect(seconds >= 0)
            })

            let first = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            let site = try JobFixtures.files(out)
            #expect(first.runID != nil)
            #expect(first.apps == 1)
            #expect(!first.outcome.written.isEmpty)
            #expect(Set(first.outcome.written) == Set(site.keys))
            #expect(first.outcome.unchanged == 0 && first.outcome.removed.isEmpty)
            #expect(site["acme/weather/de/notifications.plist"].map { String(decoding: $0, as: UTF8.self).contains("Willkommen") } == true)
            #expect(phases.first == "lock")
            #expect(phases.contains("snapshot (full)"))
            #expect(phases.last == "record run")

            // Nothing changed in the database: the incremental run compiles nothing and writes nothing.
            phases = []
            let second = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            #expect(second.outcome.written.isEmpty)
            #expect(second.outcome.removed.isEmpty)
            #expect(second.outcome.unchanged == site.count)
            #expect(second.apps == 0)
            #expect(phases.contains("snapshot (0 changed app(s))"))
            // ... and is counted on the run whose files are in place, not recorded as a run of its own.
            #expect(second.repeated && second.runID == first.runID)
            #expect(try JobFixtures.files(out) == site)

            // One German title: that one file, through an incremental run of that one app.
            try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle("Hallo"), to: database)
            let third = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            #expect(third.outcome.written == ["acme/weather/de/notifications.plist"])
            #expect(third.outcome.unchanged == site.count - 1)
            #expect(third.apps == 1)
            let after = try JobFixtures.files(out)
            #expect(after.count == site.count)
            #expect(after["acme/weather/de/notifications.plist"].map { String(decoding: $0, as: UTF8.self).contains("Hallo") } == true)

            // Every run that changed something recorded, typed, by the session's actor; whole-site
            // runs keep their snapshot; the run with nothing to change is a count on the first.
            let runs = try JobFixtures.history(database)
            #expect(runs.map(\.id) == [first.runID, third.runID].compactMap { $0 })
            #expect(runs.allSatisfy { $0.outcome == .succeeded && $0.scope == .site && $0.actor == JobFixtures.actor })
            #expect(runs.allSatisfy { $0.sourceSnapshot != nil })
            #expect(runs.map(\.filesWritten) == [site.count, 1])
            #expect(runs.map(\.repeats) == [1, 0])
            #expect(runs[0].lastRepeatedAt != nil && runs[1].lastRepeatedAt == nil)
        }
    }

    /// Pruning keeps what it is told to keep, always a folder's newest run, and every content a
    /// kept run's rollback needs; the rest of the contents go.
    @Test func pruningDropsOldRunsAndTheContentsOnlyTheyNeeded() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            var ids: [Int64] = []
            for title in ["Eins", "Zwei", "Drei"] {
                try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle(title), to: database)
                ids += [try #require(try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false).runID)]
            }
            let blobCount = { () throws -> Int in
                try Connection(configuration: database.configuration).query("SELECT count(*)::int AS n FROM publish_blobs")[0].decode("n")
            }
            let blobsBefore = try blobCount()
            // Keep none: the folder's newest run stays all the same (the next publish starts from it).
            let pruned = try job.pruneHistory(keepNewest: 0, before: nil)
            #expect(pruned.runs == 2)
            #expect(pruned.contents > 0 && pruned.contents < blobsBefore)
            #expect(try JobFixtures.history(database).map(\.id) == [ids[2]])
            #expect(try blobCount() == blobsBefore - pruned.contents)
            // What is kept still restores, byte for byte; what went says so.
            let site = try JobFixtures.files(out)
            try FileManager.default.removeItem(at: out)
            _ = try job.rollback(to: ids[2])
            #expect(try JobFixtures.files(out) == site)
            #expect(throws: (any Error).self) { try job.rollback(to: ids[0]) }
            // Nothing older than a day ago: nothing to do.
            #expect(try job.pruneHistory(keepNewest: nil, before: Date(timeIntervalSinceNow: -86_400)).runs == 0)
        }
    }

    /// A --full run does not store again what the history keeps, on the word of the folder's
    /// manifest only when a kept run left exactly that manifest (its digest computed from the
    /// file, not read from its header). A manifest edited to list contents the history does
    /// not have, its header still naming a kept run, proves nothing: every run still restores.
    @Test func aFullRunTrustsOnlyAManifestTheHistoryKeeps() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            let path = "acme/weather/de/notifications.plist"
            func publish(dryRun: Bool = false) throws -> PublishJob.Result {
                try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: dryRun, full: true)
            }
            var runs: [(id: Int64, files: [String: Data])] = []
            runs.append((try #require(try publish().runID), try JobFixtures.files(out)))

            // The history keeps Herald's manifest for Herald's runs only.
            let digest = try #require(SiteWriter(root: out).readManifest().archiveDigest)
            let acme = try database.asOperator(readOnly: true) { try $0.tenants.find(try Slug("acme")).id }
            let kept = try database.asOperator(readOnly: true) { session in
                [
                    try session.publishRuns.keepsManifest(digest), try session.publishRuns.keepsManifest(digest, tenantFolder: acme),
                    try session.publishRuns.keepsManifest(String(repeating: "0", count: 64)),
                ]
            }
            #expect(kept == [true, false, false])

            // Over a kept manifest: the one changed file is written (and stored).
            try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle("Hallo"), to: database)
            let second = try publish()
            #expect(second.outcome.written == [path])
            runs.append((try #require(second.runID), try JobFixtures.files(out)))

            // The manifest edited to list the file's next content; its header is untouched.
            try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle("Servus"), to: database)
            let next = try #require(try publish(dryRun: true).changes.first { $0.path == path }?.after)
            let manifestURL = out.appendingPathComponent(SiteManifest.fileName)
            let listed = try #require(SiteWriter(root: out).readManifest().files[path])
            let text = try String(contentsOf: manifestURL, encoding: .utf8)
            let edited = text.replacingOccurrences(of: "\(listed) \(path)", with: "\(SHA256.hex(next)) \(path)")
            #expect(edited != text)
            try edited.write(to: manifestURL, atomically: false, encoding: .utf8)
            let third = try publish()
            #expect(third.outcome.written == [path])
            runs.append((try #require(third.runID), try JobFixtures.files(out)))

            // Every run restores, byte for byte, into an empty folder: its contents were kept.
            for run in runs {
                try FileManager.default.removeItem(at: out)
                _ = try job.rollback(to: run.id)
                #expect(try JobFixtures.files(out) == run.files)
            }
        }
    }

    /// Herald's runs over a folder and a tenant operator's runs over the tenant's own folder in
    /// it are recorded under the same root, but they are two folders: pruning keeps the newest
    /// run of each, whichever is newer, and the contents both need.
    @Test func pruningKeepsTheNewestRunOfEachFolderUnderOneRoot() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            let siteRun = try #require(try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false).runID)
            let site = try JobFixtures.files(out)
            // A later run of tenant acme's own folder, recorded as a tenant operator's publish records it.
            let acme = try Slug("acme")
            let tenantRun = try database.asOperator { session in
                let tenant = try session.tenants.find(acme).id
                let id = try session.publishRuns.start(
                    actor: "acme-team", outDir: out.path, publishAt: JobFixtures.june2026, scope: .tenant(acme), tenantFolder: tenant)
                try session.publishRuns.finish(id, outcome: .succeeded, written: 0, unchanged: 0, removed: 0, manifestDigest: nil, message: nil)
                return id
            }
            #expect(tenantRun > siteRun)
            let pruned = try job.pruneHistory(keepNewest: 0, before: nil)
            #expect(pruned.runs == 0 && pruned.contents == 0)
            #expect(Set(try JobFixtures.history(database).map(\.id)) == [siteRun, tenantRun])
            try FileManager.default.removeItem(at: out)
            _ = try job.rollback(to: siteRun)
            #expect(try JobFixtures.files(out) == site)
        }
    }

    /// A tenant's own folder's contents are collected too, all but what its kept runs need;
    /// while the tenant's own publish runs (its lock held), its contents are left alone.
    @Test func pruningCollectsATenantsOwnContentsButWhatItsKeptRunsNeed() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let folder = out.appendingPathComponent("acme")
            let acme = try Slug("acme")
            let role = "acme_team_\(UInt32.random(in: 0...UInt32.max))"
            _ = try database.asOperator { try $0.operatorAccess.grant(role: role, tenant: acme, password: nil) }
            defer { _ = try? database.asOperator { try $0.operatorAccess.revoke(role: role, tenant: acme) } }
            let stored = try Connection(configuration: database.configuration)
            let name: String = try stored.query("SELECT current_database() AS n")[0].decode("n")
            let team = try HeraldDatabase(configuration: try PostgresTestServer.shared().configuration(database: name, user: role), actor: role)
            let teamJob = PublishJob(database: team, out: out)
            var runs: [(id: Int64, files: [String: Data])] = []
            for title in ["Eins", "Zwei", "Drei"] {
                try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle(title), to: database)
                runs.append((try #require(try teamJob.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false).runID), try JobFixtures.files(folder)))
            }
            let contents = { () throws -> Int in try stored.query("SELECT count(*)::int AS n FROM tenant_publish_blobs")[0].decode("n") }
            let before = try contents()
            let job = PublishJob(database: database, out: out)
            // The tenant's publish running: its old runs go, its contents stay.
            let whileRunning = try team.withTenantPublishLocks([acme], busy: .refuse) { _ in try job.pruneHistory(keepNewest: 0, before: nil) }
            #expect(whileRunning.runs == 2 && whileRunning.contents == 0 && whileRunning.tenantsLeftOut == [acme])
            #expect(try contents() == before)
            let pruned = try job.pruneHistory(keepNewest: 0, before: nil)
            #expect(pruned.runs == 0 && pruned.contents > 0 && pruned.tenantsLeftOut.isEmpty)
            #expect(try contents() == before - pruned.contents)
            // The kept run still restores, byte for byte; a pruned one says it cannot.
            try FileManager.default.removeItem(at: folder)
            _ = try teamJob.rollback(to: runs[2].id)
            #expect(try JobFixtures.files(folder) == runs[2].files)
            #expect(throws: (any Error).self) { try teamJob.rollback(to: runs[0].id) }
        }
    }

    @Test func rollbackPutsTheSiteBackAsANewRun() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            let first = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            let original = try JobFixtures.files(out)
            try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle("Hallo"), to: database)
            _ = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            #expect(try JobFixtures.files(out) != original)

            let firstID = try #require(first.runID)
            let rolled = try job.rollback(to: firstID)
            #expect(rolled.outcome.written == ["acme/weather/de/notifications.plist"])
            #expect(try JobFixtures.files(out) == original)
            let run = try database.asOperator(readOnly: true) { try $0.publishRuns.run(try #require(rolled.runID)) }
            #expect(run.outcome == .rolledBack)
            #expect(run.rollbackOf == firstID)
            #expect(run.scope == .site)
            #expect(run.actor == JobFixtures.actor)

            // A run that never finished cannot be restored; the refusal names its outcome.
            let unfinished = try database.asOperator {
                try $0.publishRuns.start(actor: "someone", outDir: out.path, publishAt: JobFixtures.june2026, scope: .site)
            }
            #expect {
                try job.rollback(to: unfinished)
            } throws: { error in
                guard case PublishJobError.runNotRestorable(let run, let outcome) = error else { return false }
                return run == unfinished && outcome == .running
            }
            #expect(performing: { try job.rollback(to: 9_999) }, throws: isStoreError(.notFound))
        }
    }

    @Test func aDryRunWritesAndRecordsNothing() throws {
        try JobFixtures.withExample { database, root in
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            let dry = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: true)
            #expect(dry.runID == nil)
            #expect(!dry.outcome.written.isEmpty)
            #expect(dry.outcome.unchanged == 0)
            #expect(try JobFixtures.files(out).isEmpty)
            #expect(try JobFixtures.history(database).isEmpty)

            let real = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            #expect(Set(real.outcome.written) == Set(dry.outcome.written))
            try JobFixtures.apply(try JobFixtures.exampleWithGermanTitle("Hallo"), to: database)
            let preview = try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: true)
            #expect(preview.outcome.written == ["acme/weather/de/notifications.plist"])
            #expect(preview.outcome.unchanged == dry.outcome.written.count - 1)
            #expect(try JobFixtures.history(database).count == 1)
        }
    }

    @Test func scopesAreRecordedAndReadBackTyped() throws {
        try JobFixtures.withExample { database, root in
            let acme = try Slug("acme")
            let weather = try Slug("weather")
            let out = root.appendingPathComponent("site")
            let job = PublishJob(database: database, out: out)
            let appRun = try job.publish(at: JobFixtures.june2026, tenant: acme, app: weather, siteBaseURL: nil, dryRun: false)
            let tenantRun = try job.publish(at: JobFixtures.june2026, tenant: acme, app: nil, siteBaseURL: nil, dryRun: false)
            #expect(appRun.outcome.written.allSatisfy { $0.hasPrefix("acme/weather/") })
            #expect(tenantRun.outcome.written.isEmpty)

            // The column keeps the text it always had; only scoped runs skip the snapshot.
            let scopes = try database.asOperator(readOnly: true) { session in
                try session.publishRuns.history(limit: 10).map { ($0.scope, $0.sourceSnapshot == nil) }
            }
            #expect(scopes.map(\.0) == [.app(tenant: acme, app: weather), .tenant(acme)])
            #expect(scopes.allSatisfy { $0.1 })
            let stored = try Connection(configuration: database.configuration)
                .query("SELECT scope FROM publish_runs ORDER BY id").map { try $0.decode("scope", as: String.self) }
            #expect(stored == ["acme/weather", "acme"])

            // Every scope the type can say, through the column and back.
            let radio = try Slug("radio")
            let all: [PublishScope] = [
                .site, .tenant(acme), .app(tenant: acme, app: weather),
                .apps([.init(tenant: acme, app: weather), .init(tenant: acme, app: radio)]),
            ]
            let ids = try database.asOperator { session in
                try all.map { try session.publishRuns.start(actor: "x", outDir: "/elsewhere", publishAt: JobFixtures.june2026, scope: $0) }
            }
            let readBack = try database.asOperator(readOnly: true) { session in try ids.map { try session.publishRuns.run($0).scope } }
            #expect(readBack == all)
            #expect(all.map(\.description) == ["", "acme", "acme/weather", "acme/weather acme/radio"])
        }
    }

    @Test func aRunningPublishRefusesOrIsWaitedFor() throws {
        try JobFixtures.withExample { database, root in
            let holder = try Connection(configuration: database.configuration)
            #expect(try holder.tryAdvisoryLock(PublishJob.lockKey))
            let job = PublishJob(database: database, out: root.appendingPathComponent("site"))
            #expect {
                try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            } throws: { error in
                guard case PublishJobError.busy = error else { return false }
                return true
            }
            #expect(try JobFixtures.history(database).isEmpty)
            try holder.advisoryUnlock(PublishJob.lockKey)
            #expect(try job.publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false).runID != nil)
        }
    }

    @Test func aSiteThatCannotBeWrittenIsRecordedAsFailed() throws {
        try JobFixtures.withExample { database, root in
            let blocker = root.appendingPathComponent("file")
            try Data("not a folder".utf8).write(to: blocker)
            let out = blocker.appendingPathComponent("site")
            #expect {
                try PublishJob(database: database, out: out)
                    .publish(at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            } throws: { error in
                guard case PublishJobError.cannotWriteSite(let at, _) = error else { return false }
                return at == out
            }
            let runs = try JobFixtures.history(database)
            #expect(runs.map(\.outcome) == [.failed])
            #expect(runs.first?.message?.isEmpty == false)
            #expect(runs.first?.manifestDigest == nil)
        }
    }
}

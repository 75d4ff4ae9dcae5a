import Foundation
import HeraldCore
import HeraldJobs
import HeraldSite
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// A long-running publisher (`publish --watch`) remembers the folder between runs (its
/// manifest, parsed, and its seal). Against a real PostgreSQL: what it remembers is used only
/// while the folder is as it left it, and a run publishes exactly the apps that changed.
@Suite struct PublishMemoryTests {
    static let at = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z, the fixture's campaigns live

    func publish(_ job: PublishJob) throws -> PublishJob.Result {
        try job.publish(at: Self.at, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
    }

    /// Pauses or resumes story c-1 of app-3.
    func setStory(_ admin: Connection, paused: Bool) throws {
        try admin.execute(
            "UPDATE campaigns SET status = $1 WHERE key = 'c-1' AND app_id = (SELECT id FROM apps WHERE slug = 'app-3')",
            [paused ? "paused" : "active"])
    }

    @Test func aRememberedFolderIsTrustedOnlyWhileItIsAsThePublisherLeftIt() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: configuration)
                try LargeSiteFixture.populate(admin, apps: 3, campaignsPerApp: 4)
                try setStory(admin, paused: true)
                let out = root.appendingPathComponent("site")
                let database = try HeraldDatabase(configuration: configuration, actor: "memory-test")
                var watcher = PublishJob(database: database, out: out)
                let memory = FolderMemory()
                watcher.memory = memory

                let first = try publish(watcher)
                #expect(!first.outcome.written.isEmpty)
                #expect(!memory.isEmpty)
                #expect(try publish(watcher).repeated)

                // One edit in app-2: exactly that app's file is written, nothing else touched.
                try admin.execute(
                    """
                    UPDATE alert_contents SET title = title || ' (edited)'
                    WHERE locale = 'de' AND campaign_id IN (SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.slug = 'app-2')
                    """)
                let edited = try publish(watcher)
                #expect(edited.apps == 1)
                #expect(edited.outcome.written == ["bench/app-2/de/notifications.plist"], "\(edited.outcome.written)")
                #expect(edited.outcome.removed.isEmpty)

                // A file deleted by hand, nothing changed in the database: the remembered state no
                // longer holds, and the run puts the file back.
                try FileManager.default.removeItem(at: out.appendingPathComponent("bench/app-1/en/control.json"))
                let repaired = try publish(watcher)
                #expect(repaired.outcome.written == ["bench/app-1/en/control.json"], "\(repaired.outcome.written)")

                // Another publisher (cron, remembering nothing) adds app-3's story c-1; then the story
                // is paused again and the watcher runs: it starts from the manifest cron left (which
                // lists the story's files), not from the one it remembers, so the files go.
                try setStory(admin, paused: false)
                let cron = try publish(PublishJob(database: try database.connectAgain(), out: out))
                let storyFiles = cron.outcome.written.filter { $0.contains("/stories/c-1") }
                #expect(storyFiles.count == 6, "\(cron.outcome.written)")  // 3 locales × (story, push)
                try setStory(admin, paused: true)
                let paused = try publish(watcher)
                #expect(paused.outcome.removed == storyFiles.sorted(), "\(paused.outcome.removed)")
                let fresh = root.appendingPathComponent("fresh")
                _ = try publish(PublishJob(database: try database.connectAgain(), out: fresh))
                #expect(try JobFixtures.files(out) == JobFixtures.files(fresh))
            }
        }
    }
}

import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PostgresServer
import Synchronization
import Testing

/// `publish --watch`'s use case against a real PostgreSQL: the watcher runs on a thread of the
/// test, and other clients (plain SQL as the superuser, Herald's own jobs) change the database.
@Suite(.serialized) struct PublishWatcherTests {
    static let storyPath = "acme/weather/en/stories/tour.json"
    static let germanAlerts = "acme/weather/de/notifications.plist"

    @Test func anEditByAnotherClientAppearsWithNoFurtherCommand() throws {
        try JobFixtures.withExampleDatabase { configuration, _, root in
            do {
                let out = root.appendingPathComponent("site")
                let watcher = try RunningWatcher(configuration, out: out)
                defer { watcher.stop() }
                try watcher.waitFor("the first publish") { FileManager.default.fileExists(atPath: out.appendingPathComponent(Self.germanAlerts).path) }
                // Plain SQL, as any client: the database itself tells the watcher.
                let edited = Date()
                try Connection(configuration: configuration).execute(
                    "UPDATE alert_contents SET title = 'Hallo von psql' WHERE locale = 'de'")
                try watcher.waitFor("the edit to be published") {
                    (try? String(contentsOf: out.appendingPathComponent(Self.germanAlerts), encoding: .utf8))?.contains("Hallo von psql") == true
                }
                #expect(Date().timeIntervalSince(edited) < 3)
                // The file is renamed into place before the run is reported.
                try watcher.waitFor("the run to be reported") { watcher.runs.count >= 2 }
                let published = watcher.runs.last
                #expect(published?.reason == .change && published?.written == [Self.germanAlerts], "\(watcher.runs)")
            }
        }
    }

    @Test func aCampaignScheduledAheadAppearsThenAndDisappearsAtItsEnd() throws {
        try JobFixtures.withExampleDatabase { configuration, _, root in
            do {
                let out = root.appendingPathComponent("site")
                let story = out.appendingPathComponent(Self.storyPath)
                let watcher = try RunningWatcher(configuration, out: out)
                defer { watcher.stop() }
                try watcher.waitFor("the first publish") { FileManager.default.fileExists(atPath: story.path) }
                // The story runs from 2 s to 4 s from now; the edit itself takes it down at once.
                let row = try Connection(configuration: configuration).query(
                    """
                    UPDATE campaigns SET starts_at = date_trunc('milliseconds', now()) + interval '2 s',
                           ends_at = date_trunc('milliseconds', now()) + interval '4 s'
                    WHERE key = 'tour' RETURNING starts_at, ends_at
                    """)[0]
                let startsAt = try row.decode("starts_at", as: Date.self)
                let endsAt = try row.decode("ends_at", as: Date.self)
                try watcher.waitFor("the story to be taken down until it starts") { !FileManager.default.fileExists(atPath: story.path) }
                try watcher.waitFor("the story to appear when it starts", seconds: 6) { FileManager.default.fileExists(atPath: story.path) }
                let appeared = Date()
                #expect(appeared >= startsAt)
                #expect(appeared.timeIntervalSince(startsAt) < 1, "appeared \(appeared.timeIntervalSince(startsAt)) s after its start")
                try watcher.waitFor("the story to go at its end", seconds: 6) { !FileManager.default.fileExists(atPath: story.path) }
                let gone = Date()
                #expect(gone >= endsAt)
                #expect(gone.timeIntervalSince(endsAt) < 1, "went \(gone.timeIntervalSince(endsAt)) s after its end")
                try watcher.waitFor("the runs to be reported") { watcher.runs.filter { $0.reason == .schedule }.count >= 2 }
                #expect(watcher.runs.map(\.reason) == [.start, .change, .schedule, .schedule], "\(watcher.runs.map(\.reason))")
            }
        }
    }

    @Test func thenGetsTheChangedPathsAndAFailureIsRetriedWithTheNextRun() throws {
        try JobFixtures.withExampleDatabase { configuration, _, root in
            do {
                let out = root.appendingPathComponent("site")
                let log = root.appendingPathComponent("then.log")
                let failing = root.appendingPathComponent("fail")
                // Appends its input to the log, then fails while the file `fail` exists.
                let command = "cat >> '\(log.path)'; echo '--' >> '\(log.path)'; test ! -e '\(failing.path)'"
                var settings = PublishWatcher.Settings()
                settings.retry = Backoff(base: .milliseconds(200), cap: .milliseconds(200))
                let watcher = try RunningWatcher(configuration, out: out, then: command, settings: settings)
                defer { watcher.stop() }
                func batches() -> [[String]] {
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    return text.components(separatedBy: "--\n").dropLast().map { $0.split(separator: "\n").map(String.init) }
                }
                try watcher.waitFor("--then after the first publish") { batches().count == 1 }
                #expect(Set(batches()[0]) == Set(try JobFixtures.files(out).keys), "every file of the first publish")

                _ = FileManager.default.createFile(atPath: failing.path, contents: nil)
                try Connection(configuration: configuration).execute("UPDATE alert_contents SET title = 'Eins' WHERE locale = 'de'")
                try watcher.waitFor("--then to fail") { batches().count >= 2 && watcher.thenFailures > 0 }
                #expect(batches()[1] == [Self.germanAlerts])
                // Retried without a new edit, with the same paths, until it succeeds.
                try? FileManager.default.removeItem(at: failing)
                try watcher.waitFor("--then to succeed again") { watcher.thenRecoveries > 0 }
                #expect(batches().last == [Self.germanAlerts])
                #expect(watcher.failures.isEmpty, "the publishes themselves succeeded: \(watcher.failures)")
            }
        }
    }

    @Test func aPostgreSQLRestartIsSurvivedAndAnEditMadeWhileDownIsPublished() throws {
        try withPrivateServer { server, configuration in
            try withTemporaryDirectory { root in
                let database = try HeraldDatabase(configuration: configuration, actor: JobFixtures.actor)
                try JobFixtures.apply(try String(contentsOf: JobFixtures.exampleURL, encoding: .utf8), to: database)
                let out = root.appendingPathComponent("site")
                let alerts = out.appendingPathComponent(Self.germanAlerts)
                var settings = PublishWatcher.Settings()
                settings.reconnect = Backoff(base: .milliseconds(100), cap: .milliseconds(400))
                let watcher = try RunningWatcher(configuration, out: out, settings: settings)
                defer { watcher.stop() }
                try watcher.waitFor("the first publish") { FileManager.default.fileExists(atPath: alerts.path) }

                try server.stop()
                try watcher.waitFor("the watcher to notice") { watcher.unavailable > 0 }
                // The edit is made while no watcher listens: single-user mode is not needed, the
                // server comes back and the edit commits before the watcher reconnects.
                try server.start()
                let editor = try Connection(configuration: configuration)
                try editor.execute("UPDATE alert_contents SET title = 'Nach dem Neustart' WHERE locale = 'de'")
                try watcher.waitFor("the edit made meanwhile to be published", seconds: 10) {
                    (try? String(contentsOf: alerts, encoding: .utf8))?.contains("Nach dem Neustart") == true
                }
                #expect(watcher.reconnects > 0)
                // And it listens again: a later edit arrives as usual.
                try editor.execute("UPDATE alert_contents SET title = 'Und danach' WHERE locale = 'de'")
                try watcher.waitFor("a later edit") { (try? String(contentsOf: alerts, encoding: .utf8))?.contains("Und danach") == true }
            }
        }
    }

    @Test func aCronPublishBesideTheWatcherNeverCorruptsTheSite() throws {
        try JobFixtures.withExampleDatabase { configuration, database, root in
            do {
                let out = root.appendingPathComponent("site")
                let watcher = try RunningWatcher(configuration, out: out)
                defer { watcher.stop() }
                try watcher.waitFor("the first publish") { FileManager.default.fileExists(atPath: out.appendingPathComponent(Self.germanAlerts).path) }
                // Edits and cron publishes together, for a while.
                let cronErrors = Mutex<[String]>([])
                let done = Atomic(false)
                let cron = Thread {
                    do {
                        let database = try HeraldDatabase(configuration: configuration, actor: "cron")
                        while !done.load(ordering: .relaxed) {
                            _ = try PublishJob(database: database, out: out, wait: true)
                                .publish(at: Date(), tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
                        }
                    } catch {
                        cronErrors.withLock { $0.append("\(error)") }
                    }
                }
                cron.start()
                let editor = try Connection(configuration: configuration)
                for round in 1...40 {
                    try editor.execute("UPDATE alert_contents SET title = $1 WHERE locale = 'de'", ["Runde \(round)"])
                    usleep(25_000)
                }
                done.store(true, ordering: .relaxed)
                try watcher.waitFor("the last edit") {
                    (try? String(contentsOf: out.appendingPathComponent(Self.germanAlerts), encoding: .utf8))?.contains("Runde 40") == true
                }
                while !cron.isFinished { usleep(10_000) }
                #expect(cronErrors.withLock { $0 }.isEmpty)
                #expect(watcher.failures.isEmpty, "\(watcher.failures)")
                // The folder is exactly what a fresh publish of the database makes.
                let fresh = root.appendingPathComponent("fresh")
                // It waits for the watcher, which may be running once more (a retry after the cron run).
                _ = try PublishJob(database: database, out: fresh, wait: true).publish(at: Date(), tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
                #expect(try JobFixtures.files(out) == JobFixtures.files(fresh))
                let hidden = try FileManager.default.subpathsOfDirectory(atPath: out.path)
                    .filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } && $0 != ".herald-manifest" && $0 != ".herald-seal" }
                #expect(hidden.isEmpty, "temporary files left: \(hidden)")
            }
        }
    }

    @Test func aTenantWatcherWakesOnlyForItsTenant() throws {
        try JobFixtures.withExampleDatabase { configuration, database, _ in
            try database.asOperator { session in _ = try session.tenants.create(slug: Slug("globex"), name: "Globex") }
            let acme = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("acme")).id }
            let globex = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("globex")).id }
            let acmeListener = try ChangeListener(database, tenantID: acme)
            let siteListener = try ChangeListener(database, tenantID: nil)
            let editor = try Connection(configuration: configuration)
            try editor.execute("INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales) VALUES ($1, 'radio', 'Radio', 'ios', 'com.globex.radio', 'en', '{en}')", [globex])
            #expect(try acmeListener.wait(timeout: .milliseconds(300), wakeDescriptor: nil) == .timedOut, "acme's watcher woke for globex")
            #expect(try siteListener.wait(timeout: .seconds(2), wakeDescriptor: nil) == .changed)
            try editor.execute("UPDATE alert_contents SET title = 'Nur acme' WHERE locale = 'de'")
            #expect(try acmeListener.wait(timeout: .seconds(2), wakeDescriptor: nil) == .changed)
            #expect(try siteListener.wait(timeout: .seconds(2), wakeDescriptor: nil) == .changed)
        }
    }

    /// Every notification `connection` receives until it has been quiet for 300 ms.
    func drain(_ connection: Connection) throws -> [PostgresClient.Notification] {
        var received: [PostgresClient.Notification] = []
        while case .notified(let more) = try connection.waitForNotifications(timeout: .milliseconds(300)) { received += more }
        return received
    }

    @Test func oneNotificationPerTransactionWhateverItChanged() throws {
        try JobFixtures.withExampleDatabase { configuration, database, _ in
            try database.asOperator { session in _ = try session.tenants.create(slug: Slug("globex"), name: "Globex") }
            let acme = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("acme")).id }
            let globex = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("globex")).id }
            let listener = try Connection(configuration: configuration)
            let channel = { (tenant: Int64?) throws -> String in
                try listener.query("SELECT herald_publish_channel_name($1::bigint) AS c", [tenant])[0].decode("c", as: String.self)
            }
            let site = try channel(nil)
            let acmeChannel = try channel(acme)
            let globexChannel = try channel(globex)
            for name in [site, acmeChannel, globexChannel] { try listener.listen(name) }
            let editor = try Connection(configuration: configuration)

            // Many rows of several tables of two tenants in one transaction: one per channel.
            try editor.execute("BEGIN")
            try editor.execute("UPDATE alert_contents SET title = title || '!'")
            try editor.execute("UPDATE campaigns SET priority = priority + 1")
            try editor.execute(
                "INSERT INTO apps (tenant_id, slug, name, platform, bundle_id, default_locale, locales) VALUES ($1, 'radio', 'Radio', 'ios', 'com.globex.radio', 'en', '{en}')",
                [globex])
            try editor.execute("COMMIT")
            let received = try drain(listener).map(\.channel).sorted()
            #expect(received == [site, acmeChannel, globexChannel].sorted(), "\(received)")

            // Nothing for a transaction rolled back.
            try editor.execute("BEGIN")
            try editor.execute("UPDATE alert_contents SET title = title || '?'")
            try editor.execute("ROLLBACK")
            #expect(try drain(listener).isEmpty)

            // A savepoint rolled back takes its notifications with it; a later change notifies again.
            try editor.execute("BEGIN")
            try editor.execute("SAVEPOINT first")
            try editor.execute("UPDATE alert_contents SET title = title || '?'")
            try editor.execute("ROLLBACK TO SAVEPOINT first")
            try editor.execute("UPDATE campaigns SET priority = priority + 1")
            try editor.execute("COMMIT")
            #expect(try drain(listener).map(\.channel).sorted() == [site, acmeChannel].sorted())
        }
    }

    @Test func aTenantOperatorMayWatchItsOwnTenantOnly() throws {
        try JobFixtures.withExampleDatabase { configuration, database, _ in
            try database.asOperator { session in _ = try session.tenants.create(slug: Slug("globex"), name: "Globex") }
            let acme = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("acme")).id }
            let globex = try database.asOperator(readOnly: true) { try $0.tenants.find(Slug("globex")).id }
            let role = "acme_team_\(UInt32.random(in: 0...UInt32.max))"
            _ = try database.asOperator { try $0.operatorAccess.grant(role: role, tenant: Slug("acme"), password: nil) }
            defer { _ = try? database.asOperator { try $0.operatorAccess.revoke(role: role, tenant: Slug("acme")) } }
            let name: String = try Connection(configuration: configuration).query("SELECT current_database() AS n")[0].decode("n")
            let team = try HeraldDatabase(configuration: try PostgresTestServer.shared().configuration(database: name, user: role), actor: role)
            for refused in [globex, nil] {
                #expect(throws: StoreError.self, "tenant \(String(describing: refused))") { try ChangeListener(team, tenantID: refused) }
            }
            let own = try ChangeListener(team, tenantID: acme)
            try Connection(configuration: configuration).execute("UPDATE alert_contents SET title = 'Team' WHERE locale = 'de'")
            #expect(try own.wait(timeout: .seconds(2), wakeDescriptor: nil) == .changed)
        }
    }

    /// A PostgreSQL of the test's own (the shared one cannot be stopped), migrated.
    func withPrivateServer(_ body: (LocalPostgresServer, ConnectionConfiguration) throws -> Void) throws {
        let directory = URL(fileURLWithPath: "/tmp/herald-watch-pg-\(UUID().uuidString.prefix(8))")
        let server = LocalPostgresServer(
            directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment))
        server.settings = ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"]
        defer {
            try? server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        try server.initializeIfNeeded()
        try server.start()
        try Connection(configuration: server.configuration(database: "postgres")).execute("CREATE DATABASE herald")
        let database = server.configuration(database: "herald")
        try Migrator().migrate(try Connection(configuration: database))
        try body(server, database)
    }
}

/// A `PublishWatcher` running on a thread of its own, and what it reported.
final class RunningWatcher: Sendable {
    private let stopper = WatchStop()
    private let events = Mutex<[PublishWatcher.Event]>([])
    private let outcome = Mutex<Result<Void, any Error>?>(nil)

    init(
        _ configuration: ConnectionConfiguration, out: URL, tenant: Slug? = nil, then: String? = nil,
        settings: PublishWatcher.Settings = PublishWatcher.Settings()
    ) throws {
        let thread = Thread { [self] in
            let watcher = PublishWatcher(
                open: { try HeraldDatabase(configuration: configuration, actor: "watcher") }, out: out, tenant: tenant, siteBaseURL: nil,
                then: then.map { ThenCommand(command: $0, out: out) }, settings: settings,
                report: { event in self.events.withLock { $0.append(event) } })
            let result = Result { try watcher.run(until: self.stopper) }
            self.outcome.withLock { $0 = result }
        }
        thread.start()
    }

    /// Stops the watcher and waits for its thread; records a failure it ended with.
    func stop() {
        stopper.request()
        let deadline = Date().addingTimeInterval(20)
        while outcome.withLock({ $0 }) == nil, Date() < deadline { usleep(10_000) }
        switch outcome.withLock({ $0 }) {
        case .failure(let error): Issue.record("the watcher failed: \(error)")
        case nil: Issue.record("the watcher did not stop within 20 s")
        case .success: break
        }
    }

    var runs: [PublishWatcher.Run] {
        events.withLock { $0.compactMap { if case .published(let run) = $0 { run } else { nil } } }
    }
    var failures: [String] {
        events.withLock { $0.compactMap { if case .runFailed(let failure, _) = $0 { failure.lines.joined(separator: " ") } else { nil } } }
    }
    var thenFailures: Int { events.withLock { $0.filter { if case .thenFailed = $0 { true } else { false } }.count } }
    var thenRecoveries: Int { events.withLock { $0.filter { if case .thenRecovered = $0 { true } else { false } }.count } }
    var unavailable: Int { events.withLock { $0.filter { if case .databaseUnavailable = $0 { true } else { false } }.count } }
    var reconnects: Int { events.withLock { $0.filter { if case .reconnected = $0 { true } else { false } }.count } }

    /// Waits until `condition` holds, failing after `seconds` (or when the watcher ended).
    func waitFor(_ what: String, seconds: Double = 5, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            if let ended = outcome.withLock({ $0 }) { throw WatchTestError(message: "the watcher ended while waiting for \(what): \(ended)") }
            usleep(5_000)
        }
        throw WatchTestError(message: "waited \(seconds) s for \(what); the watcher reported \(events.withLock { $0 })")
    }
}

struct WatchTestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

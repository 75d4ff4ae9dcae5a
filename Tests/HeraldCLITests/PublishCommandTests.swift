import Foundation
import HeraldCore
import HeraldSite
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

@Suite struct PublishCommandTests {
    /// Every file of the site, path → bytes (the manifest and nothing hidden excluded, but the
    /// seal: it names inodes and ctimes, which differ from folder to folder; FolderSealTests check it).
    func snapshot(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where path != ".herald-seal" {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// A time long past: a file that still has it was not rewritten.
    static let longAgo = Date(timeIntervalSince1970: 1_000_000_000)

    /// Sets every file's mtime (the manifest's too) to `longAgo`, so that a rewrite shows
    /// however soon it comes (no waiting for the clock to tick); the mtimes as set.
    func ageEveryFile(_ root: URL) throws -> [String: Date] {
        for path in try snapshot(root).keys {
            try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: root.appendingPathComponent(path).path)
        }
        return try mtimes(root)
    }

    func isHidden(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    func mtimes(_ root: URL) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for path in try snapshot(root).keys {
            result[path] = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.modificationDate] as? Date
        }
        return result
    }

    /// Each published file parses with Foundation's parsers (as on the device). Hidden
    /// files are not published: a killed run's temp files are swept by the next run.
    func expectEveryFileParses(_ root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        // Hidden paths (temp files, a new folder being filled) are never served: deploy/nginx.conf denies them.
        for (path, data) in try snapshot(root) where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            if path.hasSuffix(".json") {
                #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(path)", sourceLocation: sourceLocation)
            } else if path.hasSuffix(".plist") {
                #expect((try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil, "\(path)", sourceLocation: sourceLocation)
            } else {
                #expect(path.hasSuffix(".html"), "unexpected file \(path)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `publish --prune-history` needs to be told what to keep, says what went, and names a
    /// tenant whose own publish was running (its contents are left for the next prune).
    @Test func pruneHistoryNeedsWhatToKeepAndSaysWhatWent() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site").path
                let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
                try herald.succeed(["apply", "-f", example.path])
                for extra in [[], ["--full"], ["--full"]] {
                    try herald.succeed(["publish", "--out", out, "--at", "2026-06-01T00:00:00Z"] + extra)
                }
                let unsaid = try herald.run(["publish", "--prune-history"])
                #expect(unsaid.status == 64 && unsaid.stderr.contains("--keep N and/or --before TIME"), "\(unsaid)")
                #expect(try herald.run(["publish", "--keep", "1"]).status == 64)
                func pruned(_ result: CommandResult) throws -> [String: Any] {
                    (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]  // [:] fails what follows
                }
                // Three runs. Tenant acme's own publish running (its lock held): acme is named, its
                // contents left; then the rest, but the folder's newest run.
                let holder = try HeraldDatabase(configuration: database, actor: "test")
                let busy = try holder.withTenantPublishLocks([try Slug("acme")], busy: .refuse) { _ in
                    try herald.succeed(["publish", "--prune-history", "--keep", "2", "--json"])
                }
                #expect(try pruned(busy)["prunedRuns"] as? Int == 1)
                #expect(try pruned(busy)["tenantsLeftOut"] as? [String] == ["acme"])
                #expect(busy.stderr.contains("tenant acme's own publish was running"), "\(busy)")
                let free = try herald.succeed(["publish", "--prune-history", "--keep", "0", "--json"])
                #expect(try pruned(free)["prunedRuns"] as? Int == 1)
                #expect(try pruned(free)["tenantsLeftOut"] as? [String] == [])
                #expect(free.stderr.isEmpty, "\(free)")
                let text = try herald.succeed(["publish", "--prune-history", "--before", "2000-01-01T00:00:00Z"])
                #expect(text.stdout == "pruned 0 run(s) and 0 stored content(s) no kept run needs\n", "\(text)")
            }
        }
    }

    @Test func publishRepublishEditArchiveRollback() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site")
                let file = root.appendingPathComponent("campaigns.yaml")
                let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
                // A second app, so that an edit in one must leave the other alone.
                let text = try String(contentsOf: example, encoding: .utf8) + """
                      - slug: radio
                        name: Radio
                        platform: ios
                        bundleId: com.acme.radio
                        defaultLocale: en
                        locales: [en]

                    """
                try Data(text.utf8).write(to: file)
                try herald.succeed(["apply", "-f", file.path])

                let first = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"])
                #expect(first.stdout.contains("20 written, 0 unchanged, 0 removed"), "\(first)")
                try expectEveryFileParses(out)
                let bytes = try snapshot(out)
                let before = try ageEveryFile(out)
                #expect(Set(before.values) == [Self.longAgo])

                let again = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"])
                #expect(again.stdout.contains("0 written, 20 unchanged, 0 removed"), "\(again)")
                #expect(try mtimes(out) == before)
                let quiet = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--quiet"])
                #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)

                // Edit one alert's German text: only that app's German plist changes.
                try herald.succeed(["campaign", "update", "welcome", "--tenant", "acme", "--app", "weather", "--locale", "de", "--title", "Hallo!"])
                let edited = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--json"])
                let summary = try #require(try JSONSerialization.jsonObject(with: Data(edited.stdout.utf8)) as? [String: Any])
                #expect(summary["written"] as? [String] == ["acme/weather/de/notifications.plist"])
                let afterEdit = try mtimes(out)
                for (path, date) in before where path != "acme/weather/de/notifications.plist" && path != ".herald-manifest" {
                    #expect(afterEdit[path] == date, "\(path) was rewritten")
                }
                #expect(afterEdit["acme/weather/de/notifications.plist"] != Self.longAgo)

                // Archive the story: its files disappear, nothing else does.
                try herald.succeed(["campaign", "archive", "tour", "--tenant", "acme", "--app", "weather"])
                let archived = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"])
                #expect(archived.stdout.contains("4 removed"), "\(archived)")
                #expect(try snapshot(out).keys.filter { $0.contains("stories/") }.isEmpty)
                try expectEveryFileParses(out)

                // The incremental runs above left exactly what a full publish makes.
                let full = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--full", "--json"])
                let fullSummary = try #require(try JSONSerialization.jsonObject(with: Data(full.stdout.utf8)) as? [String: Any])
                #expect(fullSummary["written"] as? [String] == [])
                #expect(fullSummary["removed"] as? [String] == [])

                // A file deleted by hand comes back, though nothing changed in the database.
                try FileManager.default.removeItem(at: out.appendingPathComponent("acme/radio/en/control.json"))
                let repaired = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--json"])
                let restoredSummary = try #require(try JSONSerialization.jsonObject(with: Data(repaired.stdout.utf8)) as? [String: Any])
                #expect(restoredSummary["written"] as? [String] == ["acme/radio/en/control.json"])

                // Time passing a campaign's end is a change too: at 2027-06-01 the sale is over.
                let later = try herald.succeed(["publish", "--out", out.path, "--at", "2027-06-01T00:00:00Z", "--json"])
                let laterSummary = try #require(try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any])
                let laterWritten = (laterSummary["written"] as? [String] ?? []).filter { $0.hasSuffix("control.json") }
                #expect(laterWritten == ["acme/weather/de/control.json", "acme/weather/en/control.json", "acme/weather/pt-BR/control.json"])
                let enControl = try String(contentsOf: out.appendingPathComponent("acme/weather/en/control.json"), encoding: .utf8)
                #expect(enControl == "{}\n")
                try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"])

                // Roll back to the first run: the site is byte for byte what it was.
                let rolled = try herald.succeed(["publish", "--rollback", "1", "--out", out.path])
                #expect(rolled.stdout.contains("rolled back to run 1"), "\(rolled)")
                var restored = try snapshot(out)
                var original = bytes
                restored[".herald-manifest"] = nil
                original[".herald-manifest"] = nil
                #expect(restored == original)
                let history = try herald.succeed(["publish", "--history", "--json"]).stdout
                let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [[String: Any]])
                #expect(runs.last?["outcome"] as? String == "rolled back")
                #expect(runs.dropLast().allSatisfy { $0["outcome"] as? String == "succeeded" })
                #expect(runs.last?["rollbackOf"] as? Int == 1)
            }
        }
    }

    /// A first publish stopped (SIGKILL from inside, as `kill -9` at that instant) at each
    /// phase of the site writer where the folder is half-made (with nothing to remove,
    /// `site.removals` is `site.manifest`).
    @Test(arguments: [
        (SiteCrashPoint.markerTemp, 1), (.marker, 1), (.folderFile, 10), (.folder, 2), (.manifest, 1),
        (.markerRemoval, 1),
    ])
    func aFirstPublishStoppedAt(_ phase: SiteCrashPoint, nth: Int) throws {
        try publishStopped(at: phase, nth: nth, republish: false)
    }

    /// A republish that rewrites files in place, adds folders to existing apps and removes
    /// files, stopped at each phase.
    @Test(arguments: [
        (SiteCrashPoint.markerTemp, 1), (.marker, 1), (.tempFile, 5), (.file, 5), (.folderFile, 3), (.folder, 2),
        (.namingFiles, 1), (.removals, 1), (.manifest, 1), (.markerRemoval, 1),
    ])
    func aRepublishStoppedAt(_ phase: SiteCrashPoint, nth: Int) throws {
        try publishStopped(at: phase, nth: nth, republish: true)
    }

    /// Each module names its own crash points; a name in one of its areas that it does not
    /// know is refused when the run gets there (exit 70, the area's phases listed), never
    /// taken for a point not reached.
    @Test func aMisspeltCrashPointIsRefusedWhereItsAreaIsReached() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try LargeSiteFixture.populate(try Connection(configuration: database), apps: 1, campaignsPerApp: 1)
                var misspelt = herald
                misspelt.environment[CrashPoint.variable] = "site.markr"
                let publish = ["publish", "--at", "2026-06-01T00:00:00Z", "--out"]
                let refused = try misspelt.run(publish + [root.appendingPathComponent("a").path])
                #expect(refused.status == 70 && refused.killedBy == nil, "\(refused)")
                let phases = SiteCrashPoint.allCases.map(\.rawValue).joined(separator: ", ")
                #expect(refused.stderr.contains("HERALD_TEST_CRASH_AT=site.markr names no crash point: \(phases)"), "\(refused)")
                misspelt.environment[CrashPoint.variable] = "site.marker:0"
                let malformed = try misspelt.run(publish + [root.appendingPathComponent("b").path])
                #expect(malformed.status == 70 && malformed.stderr.contains("names no crash point"), "\(malformed)")
            }
        }
    }

    /// The run stopped at `phase` (its `nth` arrival) leaves every published file whole (as
    /// the last run left it or as this one makes it), the manifest as the last complete run
    /// left it, and its marker, so the next run sweeps up and finishes the site exactly as
    /// an uninterrupted run makes it.
    func publishStopped(at phase: SiteCrashPoint, nth: Int, republish: Bool) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                // 4 apps × 3 locales, 8 campaigns each: 72 files, one new folder per app.
                let admin = try Connection(configuration: database)
                try LargeSiteFixture.populate(admin, apps: 4, campaignsPerApp: 8)
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site")
                let publish = ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"]
                var before: [String: Data] = [:]
                if republish {
                    try herald.succeed(publish)
                    before = try snapshot(out)
                    // Every alert's text changes (plists rewritten in place), the stories stop
                    // (their files go) and a locale is added (a new folder in each app).
                    try admin.execute("UPDATE alert_contents SET title = title || ' (new)'")
                    try admin.execute("UPDATE campaigns SET status = 'paused' WHERE kind = 'story'")
                    try admin.execute("UPDATE apps SET locales = '{de,en,es,fr}'")
                }
                // What an uninterrupted run makes of the same data.
                let reference = root.appendingPathComponent("reference")
                try herald.succeed(["publish", "--out", reference.path, "--at", "2026-06-01T00:00:00Z"])
                let expected = try snapshot(reference)

                let stopped = try herald.crashing(at: phase, nth: nth).run(publish)
                #expect(stopped.killedBy == SIGKILL, "\(stopped)")
                let left = try snapshot(out)
                for (path, data) in left where !isHidden(path) {
                    #expect(data == before[path] || data == expected[path], "\(path) is neither the old file nor the new one")
                }
                try expectEveryFileParses(out)
                // Killed while writing the marker: no marker yet (its temp file is swept by the next run).
                #expect((left[".herald-writing"] != nil) == (phase != .markerTemp), "marker")
                let manifest = left[".herald-manifest"]
                #expect(manifest == (phase == .markerRemoval ? expected : before)[".herald-manifest"])

                try herald.succeed(publish)
                #expect(try snapshot(out) == expected)  // the manifest included; no temp file, marker or hidden folder left
                let final = try herald.succeed(publish)
                #expect(final.stdout.contains(" 0 written"), "\(final)")
            }
        }
    }

    /// Every view or story a published control.json or notifications.plist names (by its
    /// URL under the apps' base URL) is there, as a regular file: a device never meets a
    /// reference without its target. Returns how many references were checked.
    @discardableResult
    func expectEveryReferenceResolves(_ root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let (checked, problems) = try references(root)
        for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
        return checked
    }

    /// The references control files make to view and story files, counted, and each one
    /// without a regular file behind it (or a control file that does not parse) described.
    func references(_ root: URL) throws -> (checked: Int, problems: [String]) {
        let base = "https://static.example.com/"
        var checked = 0
        var problems: [String] = []
        func strings(_ value: Any) -> [String] {
            switch value {
            case let text as String: [text]
            case let dictionary as [String: Any]: dictionary.values.flatMap(strings)
            case let array as [Any]: array.flatMap(strings)
            default: []
            }
        }
        for (path, data) in try snapshot(root) where !isHidden(path) && (path.hasSuffix("/control.json") || path.hasSuffix("/notifications.plist")) {
            let parsed =
                path.hasSuffix(".json")
                ? try? JSONSerialization.jsonObject(with: data) : try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let parsed else {
                problems.append("\(path) does not parse")
                continue
            }
            for url in strings(parsed) where url.hasPrefix(base) {
                var info = stat()
                let target = root.appendingPathComponent(String(url.dropFirst(base.count))).path
                if lstat(target, &info) != 0 || info.st_mode & S_IFMT != S_IFREG { problems.append("\(path) names \(url), which is not there") }
                checked += 1
            }
        }
        return (checked, problems)
    }

    /// A site whose banners name view files: half the banners (c-2, c-6) have inline-HTML
    /// views at first; the republish stops those (their views go) and turns the others'
    /// views (c-3, c-7) into inline HTML (new view folders, named by rewritten control.json
    /// files), and stops the stories. Returns the publish arguments.
    func siteWithViews(_ admin: Connection, _ herald: HeraldCLI, out: URL) throws -> [String] {
        try LargeSiteFixture.populate(admin, apps: 4, campaignsPerApp: 8)
        // The views of these campaigns become inline HTML.
        func inline(_ keys: [String]) throws {
            try admin.execute(
                """
                UPDATE banner_views v SET file_url = NULL, inline_html = '<p>' || v.view_id || ' ' || v.locale || '</p>'
                FROM campaigns c WHERE c.id = v.campaign_id AND c.key = ANY($1::text[])
                """, [keys])
        }
        try inline(["c-2", "c-6"])
        let publish = ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"]
        try herald.succeed(publish)
        #expect(try expectEveryReferenceResolves(out) == 24)
        try admin.execute("UPDATE campaigns SET status = 'paused' WHERE key IN ('c-2', 'c-6') OR kind = 'story'")
        try inline(["c-3", "c-7"])
        return publish
    }

    /// A republish that adds view folders, rewrites the control files naming them and removes
    /// views no longer named, stopped at each phase: at no moment does a control.json name a
    /// view that is not there (views and new folders first, then the files naming them, then
    /// removals); the next run finishes the site.
    @Test(arguments: [
        (SiteCrashPoint.tempFile, 1), (.file, 1), (.folderFile, 1), (.folder, 1), (.folder, 4),
        (.namingFiles, 1), (.tempFile, 6), (.file, 12), (.removals, 1), (.manifest, 1), (.markerRemoval, 1),
    ])
    func aRepublishNeverNamesAMissingView(_ phase: SiteCrashPoint, nth: Int) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: database)
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site")
                let publish = try siteWithViews(admin, herald, out: out)
                let stopped = try herald.crashing(at: phase, nth: nth).run(publish)
                #expect(stopped.killedBy == SIGKILL, "\(stopped)")
                try expectEveryReferenceResolves(out)
                try expectEveryFileParses(out)
                try herald.succeed(publish)
                #expect(try expectEveryReferenceResolves(out) == 24)
                #expect(try snapshot(out).keys.filter { $0.contains("/views/c-2/") || $0.contains("/stories/") }.isEmpty)
            }
        }
    }

    /// The same republish on a disk that fills up after N writes (`HERALD_TEST_DISK_FULL_AFTER`:
    /// every write from the N+1-th fails with ENOSPC): the run fails, and no control.json names
    /// a view that was never written; once there is room, the next run finishes the site.
    @Test(arguments: [0, 1, 4, 9, 17, 25, 30, 37])
    func aRepublishOnAFullDiskNeverNamesAMissingView(_ writes: Int) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: database)
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site")
                let publish = try siteWithViews(admin, herald, out: out)
                let full = try HeraldCLI(database: database, environment: ["HERALD_TEST_DISK_FULL_AFTER": "\(writes)"]).run(publish)
                #expect(full.status != 0 && full.stderr.contains("No space left on device"), "\(full)")
                try expectEveryReferenceResolves(out)
                try expectEveryFileParses(out)
                try herald.succeed(publish)
                #expect(try expectEveryReferenceResolves(out) == 24)
            }
        }
    }

    /// A symlink put where a locale folder was: the run is refused with 73 and names the
    /// folder; nothing is written where the symlink points.
    @Test func aSymlinkBelowTheFolderRefusesTheRunWith73() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let admin = try Connection(configuration: database)
                try LargeSiteFixture.populate(admin, apps: 2, campaignsPerApp: 4)
                let herald = HeraldCLI(database: database)
                let out = root.appendingPathComponent("site")
                let publish = ["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"]
                try herald.succeed(publish)
                let victim = root.appendingPathComponent("victim")
                try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
                let locale = out.appendingPathComponent("bench/app-1/en")
                try FileManager.default.removeItem(at: locale)
                try FileManager.default.createSymbolicLink(at: locale, withDestinationURL: victim)
                try admin.execute("UPDATE alert_contents SET title = title || ' (new)'")
                let refused = try herald.run(publish)
                #expect(refused.status == 73, "\(refused)")
                #expect(refused.stderr.contains("bench/app-1/en: it is a symlink or not a folder"), "\(refused)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)
            }
        }
    }

    @Test func aSecondPublishExits75OrWaits() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database)
                try herald.succeed(["apply", "-f", "-"], stdin: CampaignFiles.twoCampaigns)
                let out = root.appendingPathComponent("site")
                // Another publish holds the lock.
                let holder = try Connection(configuration: database)
                #expect(try holder.tryAdvisoryLock(PublishRunRepository.lockKey))
                let busy = try herald.run(["publish", "--out", out.path])
                #expect(busy.status == 75, "\(busy)")
                #expect(busy.stderr.contains("another publish is running"))
                #expect(!FileManager.default.fileExists(atPath: out.path))

                // --wait blocks until the lock is released, then publishes.
                let waiting = Process()
                waiting.executableURL = try HeraldCLI.binaryURL()
                waiting.arguments = ["publish", "--out", out.path, "--wait"]
                waiting.environment = herald.environment
                waiting.standardOutput = FileHandle.nullDevice
                try waiting.run()
                // It is blocked on the publish lock (seen in pg_locks), not merely slow to start.
                let deadline = Date().addingTimeInterval(30)
                var blocked = false
                while !blocked, waiting.isRunning, Date() < deadline {
                    blocked = try holder.query(
                        """
                        SELECT count(*) > 0 AS blocked FROM pg_locks
                        WHERE locktype = 'advisory' AND NOT granted
                          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                        """)[0].decode("blocked")
                    if !blocked { usleep(10_000) }
                }
                #expect(blocked)
                #expect(waiting.isRunning)
                #expect(!FileManager.default.fileExists(atPath: out.path))
                try holder.advisoryUnlock(PublishRunRepository.lockKey)
                waiting.waitUntilExit()
                #expect(waiting.terminationStatus == 0)
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("globex/news/en/notifications.plist").path))

                // Two at once: each either publishes or exits 75, and the site is whole.
                let results = try [0, 1].map { _ -> Process in
                    let process = Process()
                    process.executableURL = try HeraldCLI.binaryURL()
                    process.arguments = ["publish", "--out", out.path]
                    process.environment = herald.environment
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    return process
                }
                for process in results { process.waitUntilExit() }
                #expect(results.allSatisfy { [0, 75].contains($0.terminationStatus) })
                #expect(results.contains { $0.terminationStatus == 0 })
                try expectEveryFileParses(out)
                #expect(try snapshot(out).keys.filter { $0.hasSuffix("control.json") }.count == 2)
            }
        }
    }
}

@Suite struct PreviewCommandTests {
    @Test func previewFromTheFolderAndInMemoryAgree() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database, environment: ["HERALD_TENANT": "acme"])
                let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
                try herald.succeed(["apply", "-f", example.path])
                let out = root.appendingPathComponent("site").path
                try herald.succeed(["publish", "--out", out, "--at", "2026-06-01T00:00:00Z"])
                let device = [
                    "preview", "--app", "weather", "--locale", "de", "--app-version", "4.0", "--build", "2.10",
                    "--os-version", "17.4", "--no-wifi", "--launches-since", "spring-sale=9", "--at", "2026-06-01T00:00:00Z", "--json",
                ]
                let fromFolder = try herald.succeed(device + ["--out", out]).stdout
                let inMemory = try herald.succeed(device).stdout
                #expect(fromFolder == inMemory)
                let result = try #require(try JSONSerialization.jsonObject(with: Data(fromFolder.utf8)) as? [String: Any])
                #expect(result["eligibleBanners"] as? [String] == [])
                #expect(result.keys.contains("nextAlert") && result["nextAlert"] is NSNull)
                #expect(result["stories"] as? [String] == ["tour"])
                let reasons = (result["notShown"] as? [[String: String]] ?? []).map { "\($0["campaign"] ?? ""): \($0["reason"] ?? "")" }
                #expect(reasons == [
                    "spring-sale: all.appVersionLessThan: build 2.10 is not below 2.4.0",
                    "welcome: app version 4.0 is above MaxVersion 3.9.9",
                ])
                let people = try herald.succeed(Array(device.dropLast()) + ["--out", out]).stdout
                #expect(people.contains("next alert        -"))
                #expect(people.contains("welcome      app version 4.0 is above MaxVersion 3.9.9"))
            }
        }
    }

    @Test func badDeviceDescriptionsAreRefused() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = HeraldCLI(database: database, environment: ["HERALD_TENANT": "globex"])
            try herald.succeed(["apply", "-f", "-"], stdin: CampaignFiles.twoCampaigns)
            let base = ["preview", "--app", "news", "--os-version", "17"]
            let badVersion = try herald.run(base + ["--locale", "en", "--app-version", " 2.0"])
            #expect(badVersion.status == 65 && badVersion.stderr.contains("\" 2.0\""))
            let noLaunch = try herald.run(base + ["--locale", "en", "--app-version", "2.0", "--launches-since", "promo=0"])
            #expect(noLaunch.status == 65 && noLaunch.stderr.contains("counts the current launch before it checks, so the count is at least 1"))
            let badScheme = try herald.run(base + ["--locale", "en", "--app-version", "2.0", "--can-open", "https,1x"])
            #expect(badScheme.status == 65 && badScheme.stderr.contains("\"1x\" is not a URL scheme"))
            let otherLocale = try herald.run(base + ["--locale", "de", "--app-version", "2.0"])
            #expect(otherLocale.status == 65 && otherLocale.stderr.contains("does not publish locale de"))
            let badCount = try herald.run(base + ["--locale", "en", "--app-version", "2.0", "--launches-since", "promo"])
            #expect(badCount.status == 65 && badCount.stderr.contains("ID=VALUE"))
        }
    }

    /// The example site as devices meet it: pre-release versions, the current launch counted,
    /// iNotify's gates and ActionURL check, and a German alert that keeps its English link.
    @Test func previewAnswersWhyDidntISeeIt() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = HeraldCLI(database: database, environment: ["HERALD_TENANT": "acme"])
                let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
                try herald.succeed(["apply", "-f", example.path])
                let out = root.appendingPathComponent("site").path
                let published = try herald.succeed(["publish", "--out", out, "--at", "2026-06-01T00:00:00Z"])
                #expect(published.stderr.contains("acme/weather/welcome [de, en, pt-BR]: ActionURL weather://tour has a custom scheme"), "\(published)")
                #expect(published.stderr.contains("acme/weather/welcome [de, pt-BR]: translated alerts show the en action button \"Take the tour\""))
                let german = try String(contentsOfFile: out + "/acme/weather/de/notifications.plist", encoding: .utf8)
                #expect(german.contains("<string>weather://tour</string>") && german.contains("<string>Take the tour</string>"))

                func preview(_ extra: [String]) throws -> [String: Any] {
                    let result = try herald.succeed(
                        ["preview", "--app", "weather", "--locale", "de", "--os-version", "17.4", "--at", "2026-06-01T00:00:00Z", "--out", out, "--json"]
                            + extra)
                    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                }
                func reasons(_ result: [String: Any]) -> [String: String] {
                    Dictionary(uniqueKeysWithValues: (result["notShown"] as? [[String: String]] ?? []).map { ($0["campaign"] ?? "", $0["reason"] ?? "") })
                }
                // Off Wi-Fi on the first launch with the banner: the counter is 1, not 5+.
                let first = try preview(["--app-version", "2.3.9", "--no-wifi"])
                #expect(first["eligibleBanners"] as? [String] == [])
                #expect(reasons(first)["spring-sale"]?.contains("lastDisplayMinimumLaunches: 1 launch since last shown (this one included), needs more than 5") == true)
                #expect(try preview(["--app-version", "2.3.9", "--no-wifi", "--launches-since", "spring-sale=6"])["eligibleBanners"] as? [String] == ["spring-sale"])
                // A pre-release build of 2.4.0 is not below 2.4.0 on the device.
                #expect(reasons(try preview(["--app-version", "2.4.0b1"]))["spring-sale"] == "all.appVersionLessThan: build 2.4.0b1 is not below 2.4.0")
                // The German alert opens weather://tour: without the app, nothing at all.
                let noApp = try preview(["--app-version", "3.0"])
                #expect(noApp["nextAlert"] is NSNull)
                #expect((noApp["alertBlocked"] as? String)?.hasPrefix("the next alert would be 2026/05/01, but its ActionURL weather://tour can't be opened") == true)
                let withApp = try preview(["--app-version", "3.0", "--can-open", "https,weather"])
                #expect(withApp["nextAlert"] as? String == "2026/05/01" && withApp["alertBlocked"] is NSNull)
                // 3.9.9-beta is above MaxVersion 3.9.9.
                #expect(reasons(try preview(["--app-version", "3.9.9-beta", "--can-open", "weather"]))["welcome"] == "app version 3.9.9-beta is above MaxVersion 3.9.9")
                // iNotify's own gates.
                let gates: [([String], String)] = [
                    (["--first-launch"], "it is the app's first launch, which iNotify only records"),
                    (["--last-checked", "2026-05-31T20:00:00Z"], "it last checked at 2026-05-31T20:00:00Z, less than 12 hours ago"),
                    (["--reminded", "2026-05-31T12:00:00Z"], "\"Remind Me Later\" was chosen at 2026-05-31T12:00:00Z, less than a day ago"),
                ]
                for (flags, words) in gates {
                    let gated = try preview(["--app-version", "3.0", "--can-open", "weather"] + flags)
                    #expect(gated["nextAlert"] is NSNull)
                    #expect((gated["alertBlocked"] as? String)?.contains(words) == true, "\(flags)")
                }
                let people = try herald.succeed(["preview", "--app", "weather", "--locale", "de", "--app-version", "3.0", "--os-version", "17", "--out", out, "--first-launch"])
                #expect(people.stdout.contains("(no alert on this launch: it is the app's first launch, which iNotify only records)"))
                let help = try herald.succeed(["preview", "--help"]).stdout
                #expect(help.contains("counting the current launch") && help.contains("(default 1)"))
                #expect(help.contains("--can-open") && help.contains("--first-launch") && help.contains("--last-checked") && help.contains("--reminded"))
            }
        }
    }
}

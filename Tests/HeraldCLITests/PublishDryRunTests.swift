import Foundation
import HeraldTestSupport
import Testing

/// `publish --dry-run` says what would change, file by file with a diff, and writes nothing.
@Suite struct PublishDryRunTests {
    /// The example published into `site`, then its welcome alert retitled: what the dry runs show.
    static func withPublishedThenEdited(_ body: (InProcessHerald, URL) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme", "HERALD_APP": "weather"])
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                let site = root.appendingPathComponent("site")
                try herald.succeed(["publish", "--out", site.path])
                try herald.succeed(["campaign", "update", "welcome", "--title", "Welcome back"])
                try body(herald, site)
            }
        }
    }

    @Test func dryRunShowsEachChangeAsADiffAndWritesNothing() throws {
        try Self.withPublishedThenEdited { herald, site in
            try herald.succeed(["campaign", "archive", "tour"])
            let plist = site.appendingPathComponent("acme/weather/en/notifications.plist")
            let before = try Data(contentsOf: plist)

            let dryRun = try herald.succeed(["publish", "--out", site.path, "--dry-run"]).stdout
            #expect(dryRun.contains("would write acme/weather/en/notifications.plist (changed)\n--- a/acme/weather/en/notifications.plist\n"), "\(dryRun)")
            #expect(dryRun.contains("-\t\t<string>Welcome</string>\n+\t\t<string>Welcome back</string>\n"), "\(dryRun)")
            #expect(dryRun.contains("would remove acme/weather/en/stories/tour.json (removed)"))
            #expect(dryRun.hasSuffix("to remove; nothing was written\n"))
            #expect(!dryRun.contains("written,"))
            #expect(try Data(contentsOf: plist) == before)
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("acme/weather/en/stories/tour.json").path))

            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(herald.succeed(["publish", "--out", site.path, "--dry-run", "--json"]).stdout.utf8))
                    as? [String: Any])
            let changes = try #require(json["changes"] as? [[String: Any]])
            #expect(changes.contains { $0["path"] as? String == "acme/weather/en/notifications.plist" && $0["change"] as? String == "changed" })
            #expect(changes.contains { $0["path"] as? String == "acme/weather/en/stories/tour.json" && $0["change"] as? String == "removed" })
            // What the dry run announced is what the publish then does.
            let published = try #require(
                try JSONSerialization.jsonObject(with: Data(herald.succeed(["publish", "--out", site.path, "--json"]).stdout.utf8))
                    as? [String: Any])
            #expect(Set(published["written"] as? [String] ?? []) == Set(json["written"] as? [String] ?? ["?"]))
            #expect(Set(published["removed"] as? [String] ?? []) == Set(json["removed"] as? [String] ?? ["?"]))
        }
    }
}

/// `publish --dry-run` into a folder whose manifest a real run refuses (forged: it names a path
/// Herald could not have written) refuses too, with the real run's message and exit code — not
/// a plan for a fresh folder, which no run would carry out.
@Suite struct PublishDryRunRefusalTests {
    @Test func aRefusedManifestIsRefusedByTheDryRunAsByTheRun() throws {
        try PublishDryRunTests.withPublishedThenEdited { herald, site in
            let manifest = site.appendingPathComponent(".herald-manifest")
            let forged = try String(contentsOf: manifest, encoding: .utf8) + "- acme/weather/../../../victim/precious.txt\n"
            try Data(forged.utf8).write(to: manifest)

            let dryRun = try herald.run(["publish", "--out", site.path, "--dry-run"])
            let real = try herald.run(["publish", "--out", site.path])
            // --full reads the manifest ahead, while the database is read: refused the same way.
            let full = try herald.run(["publish", "--out", site.path, "--full"])
            #expect(full.status == real.status && full.stderr == real.stderr, "\(full)")
            #expect(real.status == 73, "\(real)")
            #expect(real.stderr.contains("refusing \(site.path)/.herald-manifest: line"), "\(real)")
            #expect(dryRun.status == real.status, "\(dryRun)")
            #expect(dryRun.stderr == real.stderr, "\(dryRun)")
            #expect(!dryRun.stdout.contains("would write"), "\(dryRun)")
            #expect(try String(contentsOf: manifest, encoding: .utf8) == forged)
        }
    }
}

/// `publish --dry-run` reads what is on disk as a run does: never through a symlink below the
/// folder, so its diff cannot show a file outside it; it refuses as the run would.
@Suite struct PublishDryRunSymlinkTests {
    @Test(arguments: ["folder", "file"])
    func aDryRunNeverShowsAFileOutsideTheFolder(_ planted: String) throws {
        try PublishDryRunTests.withPublishedThenEdited { herald, site in
            let outside = site.deletingLastPathComponent().appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("SECRET outside the site\n".utf8).write(to: outside.appendingPathComponent("notifications.plist"))
            let locale = site.appendingPathComponent("acme/weather/en")
            let plist = locale.appendingPathComponent("notifications.plist")
            if planted == "folder" {
                try FileManager.default.removeItem(at: locale)
                try FileManager.default.createSymbolicLink(at: locale, withDestinationURL: outside)
            } else {
                try FileManager.default.removeItem(at: plist)
                try FileManager.default.createSymbolicLink(at: plist, withDestinationURL: outside.appendingPathComponent("notifications.plist"))
            }
            let dryRun = try herald.run(["publish", "--out", site.path, "--dry-run"])
            let real = try herald.run(["publish", "--out", site.path])
            // --full reads the manifest ahead, while the database is read: refused the same way.
            let full = try herald.run(["publish", "--out", site.path, "--full"])
            #expect(full.status == real.status && full.stderr == real.stderr, "\(full)")
            #expect(real.status == 73, "\(real)")
            #expect(dryRun.status == 73, "\(dryRun)")
            #expect(!dryRun.stdout.contains("SECRET") && !dryRun.stderr.contains("SECRET"), "\(dryRun)")
            #expect(dryRun.stderr.contains("symlink"), "\(dryRun)")
            #expect(try String(contentsOf: outside.appendingPathComponent("notifications.plist"), encoding: .utf8) == "SECRET outside the site\n")
        }
    }
}

/// `apply --dry-run` shows each changed value, old and new, as the campaigns file writes it.
@Suite struct ApplyDryRunTests {
    @Test func dryRunShowsOldAndNewValues() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                let original = try String(contentsOf: EventsCommandTests.example, encoding: .utf8)
                let edited = original.replacingOccurrences(of: "en: {title: Welcome,", with: "en: {title: Welcome back,")
                    .replacingOccurrences(of: "    name: Weather\n", with: "    name: Weather Pro\n")
                #expect(edited != original)
                let file = root.appendingPathComponent("edited.yaml")
                try Data(edited.utf8).write(to: file)
                let before = try HeraldFixtures.fingerprint(database)
                let dryRun = try herald.succeed(["apply", "-f", file.path, "--dry-run"]).stdout
                #expect(dryRun == """
                    ~ app acme/weather: name
                        -    name: Weather
                        +    name: Weather Pro
                    ~ campaign acme/weather/welcome: content.en
                        -          title: Welcome
                        +          title: Welcome back
                    dry run: 2 change(s) planned, nothing written

                    """, "\(dryRun)")
                #expect(try HeraldFixtures.fingerprint(database) == before)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(herald.succeed(["apply", "-f", file.path, "--dry-run", "--json"]).stdout.utf8))
                        as? [String: Any])
                let steps = try #require(json["steps"] as? [[String: Any]])
                #expect(steps.compactMap { $0["diff"] as? String }.joined().contains("+          title: Welcome back"))
            }
        }
    }
}

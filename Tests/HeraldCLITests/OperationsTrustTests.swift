import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// Herald run the way operators really run it (issue #23): files exported from one database
/// applied to a new one, values that would drive a terminal, folders and errors an operator
/// meets. Each case fails on the code before the issue.
@Suite struct OperationsTrustTests {
    /// A campaigns file with an active alert whose end has passed (a flash sale over).
    static let endedFile = """
        version: 1
        tenants:
        - slug: acme
          name: Acme
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.acme.weather
            defaultLocale: en
            locales: [en]
            campaigns:
            - key: flash
              kind: alert
              name: Flash sale
              status: active
              startsAt: 2020-01-01T00:00:00Z
              endsAt: 2020-01-02T00:00:00Z
              content:
                en: {title: Sale, message: Today only}

        """

    /// Disaster recovery from campaigns files: an export applies into an empty database,
    /// whatever its campaigns' ends, and exports the same bytes again.
    @Test func anExportWithAnEndedActiveCampaignAppliesIntoAnEmptyDatabase() throws {
        try withTemporaryDirectory { root in
            let file = root.appendingPathComponent("campaigns.yaml")
            try Data(Self.endedFile.utf8).write(to: file)
            let exported = try HeraldFixtures.withMigratedDatabase { database in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["apply", "-f", file.path])
                return try herald.succeed(["export", "--tenant", "acme"]).stdout
            }
            let exportFile = root.appendingPathComponent("export.yaml")
            try Data(exported.utf8).write(to: exportFile)
            try HeraldFixtures.withMigratedDatabase { database in
                let herald = InProcessHerald(database: database)
                #expect(try herald.succeed(["validate", "-f", exportFile.path]).status == 0)
                let applied = try herald.run(["apply", "-f", exportFile.path])
                #expect(applied.status == 0, "\(applied)")
                #expect(try herald.succeed(["export", "--tenant", "acme"]).stdout == exported)
                // Stored as it is: active, and ended.
                #expect(try herald.succeed(["campaign", "list", "--tenant", "acme"]).stdout.contains("ended"))
                // Making an ended campaign active by hand is still refused, with the reason.
                try herald.succeed(["campaign", "pause", "flash", "--tenant", "acme", "--app", "weather"])
                let activate = try herald.run(["campaign", "activate", "flash", "--tenant", "acme", "--app", "weather"])
                #expect(activate.status == 65 && activate.stderr.contains("it ended at 2020-01-02T00:00:00Z"), "\(activate)")
            }
        }
    }

    /// Values a tenant's operator types reach the site operator's terminal as escapes, in
    /// every command that prints them: C1 controls (CSI, OSC) and bidirectional overrides.
    @Test func valuesThatWouldDriveATerminalArePrintedAsEscapes() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            let csi = "\u{9B}31m", osc = "\u{9D}0;pwned\u{9C}", rlo = "\u{202E}exe.live\u{202C}"
            try herald.succeed(["app", "update", "weather", "--name", "Weather\(csi)", "--base-url", "https://static.example.com/w/"])
            try herald.succeed([
                "campaign", "create", "hello", "--app", "weather", "--kind", "alert", "--name", "Hello \(rlo)", "--title", "Hi\(osc)",
                "--message", "There \(csi)", "--action-url", "weather://x\(csi)", "--action-button", "Open \(rlo)",
            ])
            for arguments in [
                ["campaign", "show", "hello", "--app", "weather"], ["campaign", "show", "hello", "--app", "weather", "--json"],
                ["campaign", "list"], ["campaign", "list", "--json"], ["app", "show", "weather"], ["app", "list", "--json"],
                ["audit"], ["audit", "--json"], ["export"],
                ["campaign", "update", "hello", "--app", "weather", "--title", "Hi again\(csi)"],
            ] {
                let result = try herald.succeed(arguments)
                let raw = (result.stdout + result.stderr).unicodeScalars.filter {
                    (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                }
                #expect(raw.isEmpty, "herald \(arguments.joined(separator: " ")) printed \(raw.map { String($0.value, radix: 16) })")
            }
            // What is stored stays exact: the export applies back unchanged.
            let exported = try herald.succeed(["export"]).stdout
            let applied = try herald.run(["apply", "-f", "-"], stdin: exported)
            #expect(applied.stdout.contains("no changes"), "\(applied)")
        }
    }

    /// Folder and file problems are said in words, never as Foundation's error text.
    @Test func fileProblemsAreSaidInWords() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            let proc = try herald.run(["publish", "--out", "/proc/herald-site"])
            #expect(proc.status == 73, "\(proc)")
            #expect(!proc.stderr.contains("Error Domain") && !proc.stderr.contains("NSCocoa"), "\(proc)")
            let empty = try herald.run(["publish", "--out", ""])
            #expect(empty.status == 64 && empty.stderr.contains("--out needs a folder"), "\(empty)")
        }
        // A HERALD_HOME that cannot be written: 73, in words.
        let local = InProcessHerald(database: nil, environment: ["HERALD_HOME": "/proc/herald-home"])
        let home = try local.run(["tenant", "list"])
        #expect(home.status == 73, "\(home)")
        #expect(home.stderr.contains("HERALD_HOME") && !home.stderr.contains("Error Domain"), "\(home)")
    }

    /// Campaigns files that libyaml refuses are said without its internals, times in ISO 8601.
    @Test func campaignsFileProblemsNameNoLibraryInternals() throws {
        let herald = InProcessHerald(database: nil)
        let deep = "version: 1\ntenants: " + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "\n"
        let nested = try herald.run(["validate", "-f", "-"], stdin: deep)
        #expect(nested.status == 65 && nested.stderr.contains("nested too deeply"), "\(nested)")
        #expect(!nested.stderr.contains("yaml_"), "\(nested)")
        let backwards = Self.endedFile.replacingOccurrences(of: "endsAt: 2020-01-02T00:00:00Z", with: "endsAt: 2019-01-02T00:00:00Z")
        let order = try herald.run(["validate", "-f", "-"], stdin: backwards)
        #expect(order.stderr.contains("2019-01-02T00:00:00Z") && !order.stderr.contains("+0000"), "\(order)")
    }

    /// The smaller things an operator trips over.
    @Test func theSmallerThings() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            // One time reader everywhere: the same words for days, ages and out-of-range times.
            #expect(try herald.run(["report", "daily", "--since", "yesterday"]).status == 0)
            let ancient = try herald.run(["publish", "--out", "/tmp/herald-never", "--at", "0001-01-01T00:00:00Z"])
            #expect(ancient.status == 64 && ancient.stderr.contains("from 1970-01-01 to 9999-12-31"), "\(ancient)")
            // --limit 0 is a usage error, not "no runs yet".
            let history = try herald.run(["publish", "--history", "--limit", "0"])
            #expect(history.status == 64 && history.stderr.contains("--limit must be at least 1"), "\(history)")
            // report --json is pretty, as every --json.
            let report = try herald.succeed(["report", "campaigns", "--json"])
            #expect(report.stdout == "[]\n", "\(report)")
            // Logins take --tenant as every other command.
            let operators = try herald.succeed(["tenant", "operators", "--tenant", "acme"])
            #expect(operators.stdout.contains("no logins for acme"), "\(operators)")
            let clash = try herald.run(["tenant", "operators", "acme", "--tenant", "other"])
            #expect(clash.status == 64, "\(clash)")
        }
    }

    /// A publish of one tenant speaks of that tenant only.
    @Test func aTenantsPublishWarnsOfNoOtherTenant() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                for tenant in ["acme", "globex"] { try herald.succeed(["tenant", "create", tenant, "--name", tenant]) }
                let published = try herald.succeed(["publish", "--out", root.path, "--tenant", "acme"])
                #expect(!published.stderr.contains("own publish was running"), "\(published)")
            }
        }
    }
}

/// A folder belongs to the Herald database that published it: another database — an empty
/// one a cron job made without its environment — cannot wipe it.
@Suite struct FolderOwnershipTests {
    @Test func aPublishFromAnotherDatabaseIsRefusedAndLeavesTheSite() throws {
        try withTemporaryDirectory { root in
            let site = root.appendingPathComponent("site")
            try HeraldFixtures.withMigratedDatabase { database in
                _ = try InProcessHerald(database: database).succeed(
                    ["demo", "--yes", "--out", site.path, "--board", root.appendingPathComponent("review").path])
            }
            let before = try Self.files(site)
            #expect(before.count > 10)
            try HeraldFixtures.withMigratedDatabase { other in
                // Test databases are copies of one migrated template, so of one installation:
                // this one becomes another Herald, as a database migrated on its own is.
                try Connection(configuration: other).execute("UPDATE herald_installation SET id = gen_random_uuid()")
                let herald = InProcessHerald(database: other)
                let refused = try herald.run(["publish", "--out", site.path])
                #expect(refused.status == 73, "\(refused)")
                #expect(refused.stderr.contains("another Herald database") && refused.stderr.contains("--adopt"), "\(refused)")
                #expect(try Self.files(site) == before, "the site changed")
                let dryRun = try herald.run(["publish", "--out", site.path, "--dry-run"])
                #expect(dryRun.status == 73, "\(dryRun)")
                // On purpose: the folder becomes this (empty) database's.
                let adopted = try herald.succeed(["publish", "--out", site.path, "--adopt"])
                #expect(adopted.stdout.contains("removed"), "\(adopted)")
                #expect(try herald.succeed(["publish", "--out", site.path]).status == 0)
            }
        }
    }

    @Test func aPublishIntoABoardsFolderIsRefused() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try withTemporaryDirectory { root in
                try herald.succeed(["board", "--out", root.path])
                let before = try Self.files(root)
                let refused = try herald.run(["publish", "--out", root.path])
                #expect(refused.status == 73 && refused.stderr.contains("review board"), "\(refused)")
                #expect(try Self.files(root) == before)
            }
        }
    }

    /// No HERALD_DATABASE_URL (a crontab's environment) and no local database yet: a publish into
    /// a folder holding a site is refused before a new, empty local database is made.
    @Test func noLocalDatabaseIsMadeOnTheWayToAPublishedFolder() throws {
        try withTemporaryDirectory { root in
            let site = root.appendingPathComponent("site")
            try HeraldFixtures.withMigratedDatabase { database in
                try InProcessHerald(database: database).succeed(["tenant", "create", "acme", "--name", "Acme"])
                try InProcessHerald(database: database).succeed(["publish", "--out", site.path])
            }
            let home = root.appendingPathComponent("home")
            let cron = InProcessHerald(database: nil, environment: ["HERALD_HOME": home.path])
            let refused = try cron.run(["publish", "--out", site.path])
            #expect(refused.status == 73 && refused.stderr.contains("HERALD_DATABASE_URL"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("postgres").path))
        }
    }

    /// Under `umask 077`, what a publish writes is still readable by the static host.
    @Test func publishedFilesAreReadableWhateverTheUmask() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let site = root.appendingPathComponent("site")
                let herald = InProcessHerald(database: database)
                try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
                try herald.succeed([
                    "app", "create", "weather", "--tenant", "acme", "--name", "Weather", "--bundle-id", "com.acme.weather",
                    "--default-locale", "en",
                ])
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "umask 077 && exec \"$0\" publish --out \"$1\"", try HeraldCLI.binaryURL().path, site.path]
                process.environment = HeraldCLI(database: database).environment
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                var modes: [String: Int] = [:]
                modes["."] = (try FileManager.default.attributesOfItem(atPath: site.path)[.posixPermissions] as? Int) ?? -1
                for path in try FileManager.default.subpathsOfDirectory(atPath: site.path) where !path.hasPrefix(".") {
                    let attributes = try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(path).path)
                    modes[path] = (attributes[.posixPermissions] as? Int) ?? -1
                }
                #expect(!modes.isEmpty)
                for (path, mode) in modes {
                    let isFolder = (try? FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent(path).path)) != nil
                    #expect(mode == (isFolder ? 0o755 : 0o644), "\(path) is \(String(mode, radix: 8))")
                }
            }
        }
    }

    static func files(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

import Foundation
import HeraldStore
import HeraldTestSupport
import Testing

@Suite struct CampaignsFileCommandTests {
    func withFile<T>(_ text: String, _ body: (URL) throws -> T) throws -> T {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("campaigns.yaml")
            try Data(text.utf8).write(to: file)
            return try body(file)
        }
    }

    static let broken = """
        version: 1
        tenants:
        - slug: globex
          name: Globex
          apps:
          - slug: news
            name: News
            platform: ios
            bundleId: com.globex.news
            defaultLocale: en
            campaigns:
            - key: Hello
              kind: alert
              name: Hello
              conditions:
                any: {onWifi: true}
              content:
                en: {title: Hello, message: Welcome, actionUrl: "not a url"}

        """

    @Test func validateListsEveryProblemWithItsPathAndNeedsNoDatabase() throws {
        try withFile(Self.broken) { file in
            let result = try InProcessHerald(database: nil).run(["validate", "-f", file.path])
            #expect(result.status == 65, "\(result)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(result)")
            #expect(lines.contains { $0.contains("tenants[0].apps[0].campaigns[0].key: invalid slug \"Hello\"") })
            #expect(lines.contains { $0.contains("campaigns[0].conditions.any.onWifi: alert campaigns do not support condition") })
            #expect(lines.contains { $0.contains("campaigns[0].content.en.actionUrl: invalid link \"not a url\"") })
            #expect(result.stdout.isEmpty)
        }
        try withFile(CampaignFiles.twoCampaigns) { file in
            let result = try InProcessHerald(database: nil).run(["validate", "-f", file.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("1 tenant(s), 1 app(s), 2 campaign(s)"))
        }
    }

    @Test func applyOfABadFileWritesNothing() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            let before = try HeraldFixtures.fingerprint(database)
            try withFile(Self.broken) { file in
                let result = try herald.run(["apply", "-f", file.path])
                #expect(result.status == 65)
                #expect(result.stderr.contains("invalid slug \"Hello\""))
            }
            // Valid as a file, refused by the rules of activation half-way through: all or nothing.
            let halfGood = CampaignFiles.twoCampaigns.replacingOccurrences(of: "status: draft", with: "status: active")
                .replacingOccurrences(of: "    en:\n          entry: main", with: "    fr:\n          entry: main")
            try withFile(halfGood) { file in
                let result = try herald.run(["apply", "-f", file.path])
                #expect(result.status == 65, "\(result)")
                #expect(result.stderr.contains("cannot activate promo"), "\(result)")
            }
            #expect(try HeraldFixtures.fingerprint(database) == before)
            let missing = try herald.run(["apply", "-f", "/nonexistent/campaigns.yaml"])
            #expect(missing.status == 66)  // EX_NOINPUT, as for `events ingest`
            #expect(missing.stderr.contains("/nonexistent/campaigns.yaml"))
        }
    }

    @Test func applyReadsStandardInputAndTheBinaryCarriesItsMigrations() throws {
        try HeraldFixtures.withEmptyDatabase { database in
            let herald = HeraldCLI(database: database)
            // Run far from the source tree: the schema comes from inside the binary.
            let elsewhere = URL(fileURLWithPath: "/")
            #expect(try herald.succeed(["migrate"], in: elsewhere).stdout.contains("applied \(Migration.bundled.count) migration(s)"))
            let applied = try herald.succeed(["apply", "-f", "-", "--json"], stdin: CampaignFiles.twoCampaigns, in: elsewhere)
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(applied.stdout.utf8)) as? [String: Any])
            #expect(plan["dryRun"] as? Bool == false)
            #expect((plan["steps"] as? [[String: Any]])?.count == 4)
        }
    }
}

import Foundation
import HeraldTestSupport
import Testing

/// The newcomer's path through the real binary: tenant → app in three locales → one
/// campaign of each kind with conditions and translations → activate → list/show/export
/// → apply the export (no change) → export again (byte-identical).
@Suite struct CampaignLifecycleTests {
    @Test func wholeLifecycleThroughTheCLI() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme"])
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme Corp"])
            try herald.succeed([
                "app", "create", "weather", "--name", "Weather", "--platform", "ios",
                "--bundle-id", "com.acme.weather", "--default-locale", "en", "--locales", "en,de,pt-BR",
                "--base-url", "https://static.example.com/acme/weather",
            ])

            // Banner with two views, conditions in both groups, and a German translation.
            try herald.succeed([
                "campaign", "create", "spring-sale", "--app", "weather", "--kind", "banner", "--name", "Spring sale",
                "--view", "id=banner,file=https://cdn.example.com/banner.html,height=88,origin=top",
                "--view", "id=fullscreen,html=<html><body>Sale & more</body></html>",
                "--entry", "banner", "--all", "appVersionLessThan=2.4.0", "--all", "flagNotSet=hideSpringSale",
                "--any", "onWifi=true", "--any", "lastDisplayMinimumLaunches=5",
                "--starts", "2026-05-01T00:00:00Z", "--ends", "2027-06-01T00:00:00Z", "--priority", "10",
            ])
            try herald.succeed([
                "campaign", "update", "spring-sale", "--app", "weather", "--locale", "de",
                "--view", "id=banner,file=https://cdn.example.com/de/banner.html,height=88,origin=top",
                "--entry", "banner",
            ])

            // Alert in en, de and pt-BR with version bounds; default message key from its start.
            let alert = try herald.succeed([
                "campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "Welcome",
                "--title", "Hello & welcome", "--message", "Thanks for installing <Weather>",
                "--action-url", "weather://tour", "--action-button", "Take the tour",
                "--all", "minAppVersion=1.0", "--all", "maxAppVersion=3.9.9", "--starts", "2026-05-01",
            ])
            #expect(alert.stdout.contains("message key 2026/05/01"))
            try herald.succeed([
                "campaign", "update", "welcome", "--app", "weather", "--locale", "de",
                "--title", "Hallo", "--message", "Danke fürs Installieren",
            ])
            try herald.succeed([
                "campaign", "update", "welcome", "--app", "weather", "--locale", "pt-BR",
                "--title", "Olá", "--message", "Obrigado por instalar 🎉",
            ])

            // Story with two pages, restricted to en and de.
            try herald.succeed([
                "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour",
                "--push-title", "New", "--push-text", "See what's new",
                "--page", "image=https://cdn.example.com/1.jpg,duration=5,link=weather://p1,button_title=Go,title=Welcome,subtitle=Swipe\\, then tap",
                "--page", "image=https://cdn.example.com/2.jpg,duration=4.5",
                "--locales", "en,de",
            ])

            for key in ["spring-sale", "welcome", "tour"] {
                let result = try herald.succeed(["campaign", "activate", key, "--app", "weather"])
                #expect(result.stdout.contains("campaign \(key) is active"))
            }

            let list = try herald.succeed(["campaign", "list", "--app", "weather", "--json"])
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            #expect(listed.map { $0["key"] as? String } == ["spring-sale", "tour", "welcome"])
            #expect(listed.allSatisfy { $0["status"] as? String == "active" })
            let table = try herald.succeed(["campaign", "list"]).stdout
            #expect(table.hasPrefix("APP"))
            #expect(table.contains("spring-sale") && table.contains("banner") && table.contains("de,en"))

            let show = try herald.succeed(["campaign", "show", "spring-sale", "--app", "weather"]).stdout
            #expect(show.contains("all: appVersionLessThan = \"2.4.0\""))
            #expect(show.contains("any: onWifi = true"))
            #expect(show.contains("view fullscreen: inline html"))
            let showJSON = try herald.succeed(["campaign", "show", "welcome", "--app", "weather", "--json"]).stdout
            let welcome = try #require(try JSONSerialization.jsonObject(with: Data(showJSON.utf8)) as? [String: Any])
            #expect(welcome["messageKey"] as? String == "2026/05/01")
            #expect(welcome["contentLocales"] as? [String] == ["de", "en", "pt-BR"])

            // Campaigns as code: export → apply (no change) → export is byte-identical.
            try withTemporaryDirectory { scratch in
                let exported = try herald.succeed(["export"]).stdout
                #expect(exported.contains("key: spring-sale"))
                #expect(exported.contains("messageKey: 2026/05/01"))
                let file = scratch.appendingPathComponent("campaigns.yaml")
                try Data(exported.utf8).write(to: file)
                let before = try HeraldFixtures.fingerprint(database)
                let applied = try herald.succeed(["apply", "-f", file.path])
                #expect(applied.stdout.contains("no changes"))
                #expect(try HeraldFixtures.fingerprint(database) == before)
                #expect(try herald.succeed(["export"]).stdout == exported)
            }

            // The audit log names the actor.
            let audit = try herald.succeed(["audit", "--json"]).stdout
            #expect(audit.contains("\"actor\" : \"cli-test\""))
        }
    }

    @Test func applyCreatesUpdatesAndArchivesFromAFile() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            try withTemporaryDirectory { scratch in
                let file = scratch.appendingPathComponent("campaigns.yaml")
                try Data(CampaignFiles.twoCampaigns.utf8).write(to: file)

                let dryRun = try herald.succeed(["apply", "-f", file.path, "--dry-run"])
                #expect(dryRun.stdout.contains("+ tenant globex"))
                #expect(dryRun.stdout.contains("+ campaign globex/news/hello"))
                let tenantsAfterDryRun = try herald.succeed(["tenant", "list", "--json"]).stdout
                #expect((try JSONSerialization.jsonObject(with: Data(tenantsAfterDryRun.utf8)) as? [Any])?.isEmpty == true)

                let first = try herald.succeed(["apply", "-f", file.path])
                #expect(first.stdout.contains("+ campaign globex/news/hello"))
                #expect(first.stdout.contains("+ campaign globex/news/promo"))
                let again = try herald.succeed(["apply", "-f", file.path])
                #expect(again.stdout.contains("no changes"))

                // Drop one campaign and rename the other: one update, one archive.
                try Data(CampaignFiles.oneCampaignRenamed.utf8).write(to: file)
                let second = try herald.succeed(["apply", "-f", file.path])
                #expect(second.stdout.contains("~ campaign globex/news/hello"))
                #expect(second.stdout.contains("archive campaign globex/news/promo"))
                let list = try herald.succeed(["campaign", "list", "--tenant", "globex", "--json"]).stdout
                let campaigns = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
                #expect(campaigns.first { $0["key"] as? String == "promo" }?["status"] as? String == "archived")
                #expect(campaigns.first { $0["key"] as? String == "hello" }?["name"] as? String == "Hello again")
            }
        }
    }
}

enum CampaignFiles {
    static let twoCampaigns = """
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
            locales: [en, fr]
            campaigns:
            - key: hello
              kind: alert
              name: Hello
              status: active
              messageKey: 2026/01/01
              content:
                en: {title: Hello, message: Welcome}
                fr: {title: Bonjour, message: Bienvenue}
            - key: promo
              kind: banner
              name: Promo
              status: draft
              conditions:
                all: {onWifi: true}
              content:
                en:
                  entry: main
                  views:
                  - {id: main, file: "https://cdn.example.com/promo.html", height: 60}

        """

    /// The same file with `promo` dropped and `hello` renamed.
    static let oneCampaignRenamed = String(twoCampaigns[..<twoCampaigns.range(of: "    - key: promo")!.lowerBound])
        .replacingOccurrences(of: "name: Hello\n", with: "name: Hello again\n")
}

@Suite struct AuditActorTests {
    /// Without HERALD_ACTOR (and even without $USER) the audit log names the OS user.
    @Test func actorDefaultsToTheOSUser() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            var herald = InProcessHerald(database: database)
            herald.environment["HERALD_ACTOR"] = nil
            herald.environment["USER"] = nil
            herald.environment["LOGNAME"] = nil
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            let audit = try herald.succeed(["audit", "--tenant", "acme", "--json"]).stdout
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.utf8)) as? [[String: Any]])
            let osUser = try #require(getpwuid(geteuid())?.pointee.pw_name.map { String(cString: $0) })
            #expect(entries.map { $0["actor"] as? String } == [osUser])
            #expect(entries.first?["entityId"] as? String == "acme")
        }
    }
}

import Foundation
import HeraldTestSupport
import Testing

/// `campaign update` keeps what it was not told to change, and says what it changed.
@Suite struct CampaignUpdateTests {
    func withBanner(_ body: (InProcessHerald) throws -> Void) throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try herald.succeed([
                "campaign", "create", "sale", "--app", "weather", "--kind", "banner", "--name", "Sale",
                "--view", "id=banner,file=https://cdn.example.com/b.html,height=88,origin=top",
                "--view", "id=full,html=<p>Sale</p>", "--entry", "banner",
            ])
            try body(herald)
        }
    }

    func views(_ herald: InProcessHerald, locale: String = "en") throws -> [[String: Any]] {
        let shown = try herald.succeed(["campaign", "show", "sale", "--app", "weather", "--json"]).stdout
        let campaign = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let content = try #require(campaign["content"] as? [String: [String: Any]])
        return try #require(content[locale]?["views"] as? [[String: Any]])
    }

    @Test func aViewReplacesTheViewWithItsIdAndKeepsTheOthers() throws {
        try withBanner { herald in
            let added = try herald.succeed(["campaign", "update", "sale", "--app", "weather", "--view", "id=extra,file=https://cdn.example.com/x.html"])
            #expect(try views(herald).map { $0["id"] as? String } == ["banner", "full", "extra"])
            #expect(
                added.stdout == """
                    updated sale: 2 change(s)
                      [en] views: [banner, full] → [banner, full, extra]
                      [en] views.extra.file: (none) → "https://cdn.example.com/x.html"

                    """)
            let replaced = try herald.succeed(["campaign", "update", "sale", "--app", "weather", "--view", "id=banner,file=https://cdn.example.com/b2.html"])
            let after = try views(herald)
            #expect(after.map { $0["id"] as? String } == ["banner", "full", "extra"])
            #expect(after[0]["file"] as? String == "https://cdn.example.com/b2.html" && after[0]["height"] == nil)
            #expect(replaced.stdout.contains(#"[en] views.banner.file: "https://cdn.example.com/b.html" → "https://cdn.example.com/b2.html""#))
            #expect(replaced.stdout.contains("[en] views.banner.height: 88 → (none)"))
            #expect(replaced.stdout.contains(#"[en] views.banner.origin: "top" → (none)"#))
        }
    }

    @Test func removeViewRemovesOneAndNeverTheEntrySilently() throws {
        try withBanner { herald in
            let removed = try herald.succeed(["campaign", "update", "sale", "--app", "weather", "--remove-view", "full"])
            #expect(try views(herald).map { $0["id"] as? String } == ["banner"])
            #expect(removed.stdout.contains(#"[en] views.full.html: "<p>Sale</p>" → (none)"#))

            let entry = try herald.run(["campaign", "update", "sale", "--app", "weather", "--remove-view", "banner"])
            #expect(entry.status == 65)
            #expect(entry.stderr.contains("view banner is the entry"), "\(entry)")
            let missing = try herald.run(["campaign", "update", "sale", "--app", "weather", "--remove-view", "nope"])
            #expect(missing.status == 65)
            #expect(missing.stderr.contains("there is no view nope to remove (views: banner)"), "\(missing)")
            let twice = try herald.run([
                "campaign", "update", "sale", "--app", "weather", "--view", "id=x,html=<p>1</p>", "--view", "id=x,html=<p>2</p>",
            ])
            #expect(twice.status == 65)
            #expect(twice.stderr.contains("--view id=x is given twice"), "\(twice)")
            #expect(try views(herald).map { $0["id"] as? String } == ["banner"])
        }
    }

    @Test func everyUpdatePrintsOldAndNewInTextAndJSON() throws {
        try withBanner { herald in
            let text = try herald.succeed([
                "campaign", "update", "sale", "--app", "weather", "--name", "Big sale", "--priority", "3",
                "--starts", "2026-05-01", "--locale", "de", "--view", "id=banner,html=<p>Angebot</p>",
            ])
            #expect(
                text.stdout == """
                    updated sale: 6 change(s)
                      name: "Sale" → "Big sale"
                      startsAt: (none) → 2026-05-01T00:00:00Z
                      priority: 0 → 3
                      [de] entry: (none) → "banner"
                      [de] views: (none) → [banner]
                      [de] views.banner.html: (none) → "<p>Angebot</p>"

                    """)
            let json = try herald.succeed(["campaign", "update", "sale", "--app", "weather", "--priority", "4", "--clear", "starts", "--json"])
            let campaign = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(campaign["priority"] as? Int == 4)
            let changes = try #require(campaign["changes"] as? [[String: Any]])
            #expect(changes.count == 2)
            #expect(changes[0]["field"] as? String == "startsAt" && changes[0]["old"] as? String == "2026-05-01T00:00:00Z")
            #expect(changes[0]["new"] is NSNull && changes[0]["locale"] == nil)
            #expect(changes[1]["field"] as? String == "priority" && changes[1]["old"] as? Int == 3 && changes[1]["new"] as? Int == 4)
            let none = try herald.succeed(["campaign", "update", "sale", "--app", "weather", "--priority", "4"])
            #expect(none.stdout == "no change\n")
            let conditions = try herald.succeed(["campaign", "condition", "add", "sale", "--app", "weather", "--all", "flagNotSet=seen"])
            #expect(conditions.stdout.contains(#"conditions.all.flagNotSet: (none) → "seen""#), "\(conditions)")
        }
    }

    @Test func pageReplacesThePageListAndSaysSo() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme"])
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            try herald.succeed(["app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather", "--default-locale", "en"])
            try herald.succeed([
                "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "New",
                "--page", "image=https://cdn.example.com/1.jpg,title=One", "--page", "image=https://cdn.example.com/2.jpg,title=Two",
            ])
            let result = try herald.succeed(["campaign", "update", "tour", "--app", "weather", "--page", "image=https://cdn.example.com/1.jpg,title=Uno"])
            #expect(
                result.stdout == """
                    updated tour: 3 change(s)
                      [en] pages[1].title: "One" → "Uno"
                      [en] pages[2].image: "https://cdn.example.com/2.jpg" → (none)
                      [en] pages[2].title: "Two" → (none)

                    """)
            let help = try herald.run(["campaign", "update", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("--page replaces the whole page list"), "\(help)")
            #expect(help.contains("On update, the pages given replace the locale's whole page list"), "\(help)")
        }
    }

    /// PostgreSQL text cannot hold NUL: libpq would cut the HTML there without a word.
    @Test func aNULInInlineHTMLIsRefusedNotCut() throws {
        try withBanner { herald in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nul-\(UUID().uuidString).html")
            try Data("<p>before\u{0}after</p>".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try herald.run(["campaign", "update", "sale", "--app", "weather", "--view", "id=full,html=@\(file.path)"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("view full HTML contains a NUL character (U+0000) at character 10"), "\(result)")
            #expect(try views(herald)[1]["html"] as? String == "<p>Sale</p>")
        }
    }
}

import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// Stories as Pushwoosh's player plays them, through the commands: `--page` and campaigns files
/// refuse what the player would change, saying what it does; pages stored before those rules
/// are named by `validate` and `publish` and never rewritten; `preview` plays pages as the
/// player does.
@Suite struct StoryPlayerCommandTests {
    static let image = "https://cdn.example.com/1.jpg"

    static func createTour(_ herald: InProcessHerald, pages: [String]) throws -> CommandResult {
        try herald.run(
            ["campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "See what's new"]
                + pages.flatMap { ["--page", $0] })
    }

    @Test func pageFlagsThePlayerWouldChangeAreRefused() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            for (page, says) in [
                ("image=\(Self.image),duration=60", "duration 60 s is longer than Pushwoosh's player plays a page: it cuts every page to 30 s"),
                ("image=\(Self.image),duration=30.5", "duration 30.5 s is longer than Pushwoosh's player plays a page"),
                ("image=\(Self.image),button_title=Buy", "button title \"Buy\" without a link would never show"),
                ("image=\(Self.image),link=weather://sale", "link \"weather://sale\" without a button title could never be opened"),
                ("image=https://cdn.example.com/ü.jpg", "drops a page whose image it cannot read"),
            ] {
                let result = try Self.createTour(herald, pages: [page])
                #expect(result.status == 65, "\(page): \(result)")
                #expect(result.stderr.contains(says), "\(page): \(result)")
            }
            // Which of several pages, by its place.
            let second = try Self.createTour(herald, pages: ["image=\(Self.image)", "image=\(Self.image),duration=45"])
            #expect(second.status == 65 && second.stderr.contains("--page 2: duration 45 s is longer"), "\(second)")
            #expect(try herald.run(["campaign", "show", "tour", "--app", "weather"]).status != 0)

            try herald.succeed(["campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "New", "--page", "image=\(Self.image),duration=30"])
            let update = try herald.run(["campaign", "update", "tour", "--app", "weather", "--page", "image=\(Self.image),link=weather://sale"])
            #expect(update.status == 65 && update.stderr.contains("without a button title could never be opened"), "\(update)")
        }
    }

    static let file = """
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
            campaigns:
            - key: tour
              kind: story
              name: Tour
              content:
                en:
                  pushText: New
                  pages:
                  - {image: "https://cdn.example.com/1.jpg", duration: 60, link: "weather://sale"}

        """

    @Test func validateAndApplyRefuseAFileAlike() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let path = root.appendingPathComponent("campaigns.yaml")
                try Self.file.write(to: path, atomically: true, encoding: .utf8)
                let herald = InProcessHerald(database: database)
                for command in [["validate", "-f", path.path], ["apply", "-f", path.path]] {
                    let result = try herald.run(command)
                    #expect(result.status == 65, "\(command): \(result)")
                    let output = result.stdout + result.stderr
                    #expect(output.contains("content en: page 1: duration 60 s is longer than Pushwoosh's player plays a page"), "\(result)")
                    #expect(output.contains("content en: page 1: link \"weather://sale\" without a button title could never be opened"), "\(result)")
                }
                #expect(try herald.run(["tenant", "list", "--json"]).stdout.contains("acme") == false)
            }
        }
    }

    /// A page stored before the rules (written here straight into the table): publish warns per
    /// page and publishes it as stored, preview plays it as the player does, validate names it
    /// in an export, the campaign can still be renamed and paused, and activating it is refused
    /// until the page is fixed.
    @Test func storedPagesThePlayerWouldChangeAreNamedNeverRewritten() throws {
        try InProcessHerald.withAcmeWeather { herald, database in
            try withTemporaryDirectory { root in
                try herald.succeed([
                    "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "New",
                    "--page", "image=\(Self.image),duration=5,link=weather://radar,button_title=Open",
                    "--page", "image=https://cdn.example.com/2.jpg,title=Alerts",
                ])
                try herald.succeed(["campaign", "activate", "tour", "--app", "weather"])
                let superuser = try Connection(configuration: database)
                try superuser.execute("UPDATE story_pages SET duration = 60, link = NULL WHERE position = 0")
                try superuser.execute("UPDATE story_pages SET link = 'weather://alerts' WHERE position = 1")

                let site = root.appendingPathComponent("site").path
                let publish = try herald.succeed(["publish", "--out", site])
                for warning in [
                    "herald: warning: acme/weather/tour [en] page 1: duration 60 s is longer than Pushwoosh's player plays a page",
                    "(or split the page in two); also, button title \"Open\" without a link would never show",
                    "herald: warning: acme/weather/tour [en] page 2: link \"weather://alerts\" without a button title could never be opened",
                    "(`herald campaign update tour --app weather --locale en --page …` with every page, in order)",
                ] {
                    #expect(publish.stderr.contains(warning), "missing \(warning)\n\(publish)")
                }
                // One warning per page, naming everything the player changes in it.
                #expect(publish.stderr.components(separatedBy: "herald: warning: acme/weather/tour [en] page").count - 1 == 2, "\(publish)")
                // Published as stored: the warning is the only change.
                let block = try String(contentsOfFile: site + "/acme/weather/en/stories/tour.json", encoding: .utf8)
                #expect(block.contains("\"duration\": 60") && block.contains("\"button_title\": \"Open\""), "\(block)")

                let preview = try herald.succeed([
                    "preview", "--app", "weather", "--locale", "en", "--app-version", "1.0", "--os-version", "17.4", "--out", site,
                ])
                for line in [
                    "story tour  2 pages, 35 s when nobody taps, then it stops",
                    "page 1  ▣□  30 s  https://cdn.example.com/1.jpg",
                    "(the file says 60 s: the player cuts it to 30 s)",
                    "(button \"Open\" has no link: the player never shows it)",
                    "page 2  ■▣  5 s (the player's default)  https://cdn.example.com/2.jpg",
                    "title \"Alerts\"",
                    "(link \"weather://alerts\" has no button title: no one can open it)",
                ] {
                    #expect(preview.stdout.contains(line), "missing \(line)\n\(preview)")
                }
                #expect(!preview.stdout.contains("button \"Open\" opens"), "\(preview)")

                let export = root.appendingPathComponent("export.yaml")
                try herald.succeed(["export", "-o", export.path])
                let validate = try herald.run(["validate", "-f", export.path])
                #expect(validate.status == 65, "\(validate)")
                #expect((validate.stdout + validate.stderr).contains("content en: page 1: duration 60 s is longer"), "\(validate)")

                // The rest of the campaign stays editable; the pages stay as they are.
                try herald.succeed(["campaign", "update", "tour", "--app", "weather", "--name", "Product tour", "--push-text", "Newer"])
                try herald.succeed(["campaign", "pause", "tour", "--app", "weather"])
                let stored: Double = try superuser.query("SELECT duration::float8 AS d FROM story_pages WHERE position = 0")[0].decode("d")
                #expect(stored == 60)
                let activate = try herald.run(["campaign", "activate", "tour", "--app", "weather"])
                #expect(activate.status == 65, "\(activate)")
                #expect(activate.stderr.contains("cannot activate tour: its en page 1 would not play as written: duration 60 s"), "\(activate)")

                try herald.succeed([
                    "campaign", "update", "tour", "--app", "weather",
                    "--page", "image=\(Self.image),duration=30,link=weather://radar,button_title=Open",
                    "--page", "image=https://cdn.example.com/2.jpg,title=Alerts",
                ])
                try herald.succeed(["campaign", "activate", "tour", "--app", "weather"])
                let again = try herald.succeed(["publish", "--out", site])
                #expect(!again.stderr.contains("acme/weather/tour [en] page"), "\(again)")
            }
        }
    }

    @Test func previewPlaysTheStoryAsThePlayerDoes() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try herald.succeed([
                "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "New",
                "--page", "image=\(Self.image),duration=4.5,link=weather://radar,button_title=Open radar,title=Radar,subtitle=Live rain map",
                "--page", "image=https://cdn.example.com/2.jpg",
            ])
            try herald.succeed(["campaign", "activate", "tour", "--app", "weather"])
            let device = ["preview", "--app", "weather", "--locale", "de", "--app-version", "1.0", "--os-version", "17.4"]
            let text = try herald.succeed(device).stdout
            for line in [
                "stories           tour",
                "  story tour  2 pages, 9.5 s when nobody taps, then it stops",
                "    page 1  ▣□  4.5 s  https://cdn.example.com/1.jpg",
                "    page 1  ▣□  4.5 s  https://cdn.example.com/1.jpg\n                title \"Radar\" · subtitle \"Live rain map\" · button \"Open radar\" opens weather://radar",
                "    page 2  ■▣  5 s (the player's default)  https://cdn.example.com/2.jpg",
            ] {
                #expect(text.contains(line), "missing \(line)\n\(text)")
            }
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(try herald.succeed(device + ["--json"]).stdout.utf8)) as? [String: Any])
            let stories = try #require(json["storyPlayback"] as? [[String: Any]])
            #expect(stories.count == 1 && stories[0]["campaign"] as? String == "tour" && stories[0]["seconds"] as? Double == 9.5)
            let pages = try #require(stories[0]["pages"] as? [[String: Any]])
            #expect(pages.count == 2)
            #expect(pages[0]["seconds"] as? Double == 4.5 && pages[0]["title"] as? String == "Radar")
            #expect((pages[0]["button"] as? [String: String]) == ["title": "Open radar", "link": "weather://radar"])
            #expect(pages[1]["seconds"] as? Double == 5 && pages[1]["defaultDuration"] as? Bool == true)
            #expect(pages[1]["button"] == nil && pages[1]["title"] == nil && (pages[1]["notes"] as? [String]) == [])
        }
    }
}

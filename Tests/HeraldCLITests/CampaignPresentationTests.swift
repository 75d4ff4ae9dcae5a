import Foundation
import HeraldTestSupport
import Testing

/// What `campaign list` and `campaign show` tell an operator: the state devices see, every
/// locale's content and where each locale falls back; clearing fields; archived campaigns.
@Suite struct CampaignPresentationTests {
    /// Tenant acme, app weather (en default, de, pt-BR), and `body` with a runner for acme.
    func withWeatherApp(_ body: (InProcessHerald) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme", "HERALD_APP": "weather"])
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            try herald.succeed([
                "app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather",
                "--default-locale", "en", "--locales", "en,de,pt-BR",
            ])
            try body(herald)
        }
    }

    func json(_ result: CommandResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test func listShowsWhatDevicesSeeNow() throws {
        try withWeatherApp { herald in
            let alert = ["--kind", "alert", "--name", "A", "--title", "T", "--message", "M"]
            try herald.succeed(["campaign", "create", "now"] + alert)
            try herald.succeed(["campaign", "create", "later"] + alert + ["--starts", "2099-01-01"])
            try herald.succeed(["campaign", "create", "gone"] + alert + ["--starts", "2020-01-01"])
            try herald.succeed(["campaign", "create", "sketch"] + alert)
            for key in ["now", "later", "gone"] { try herald.succeed(["campaign", "activate", key]) }
            // Activation refuses a schedule that has ended; one can end while active.
            try herald.succeed(["campaign", "update", "gone", "--ends", "2020-02-01"])
            let rows = try #require(try json(herald.succeed(["campaign", "list", "--json"])) as? [[String: Any]])
            let states = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                (row["key"] as? String).map { ($0, row["state"] as? String ?? "?") }
            })
            #expect(states == ["now": "live", "later": "scheduled", "gone": "ended", "sketch": "draft"])
            let table = try herald.succeed(["campaign", "list"]).stdout
            #expect(table.contains("STATE"))
            let laterLine = try #require(table.split(separator: "\n").first { $0.contains("later") })
            #expect(laterLine.contains("scheduled"))
        }
    }

    @Test func showGivesEveryLocalesContentAndItsFallback() throws {
        try withWeatherApp { herald in
            try herald.succeed([
                "campaign", "create", "tour", "--kind", "story", "--name", "Tour", "--locales", "en,de",
                "--push-title", "New", "--push-text", "See what's new",
                "--page", "image=https://cdn.example.com/1.jpg,duration=5,link=weather://radar,button_title=Open,title=Radar,subtitle=Live",
            ])
            try herald.succeed(["campaign", "create", "hello", "--kind", "alert", "--name", "Hello", "--title", "Hi", "--message", "Welcome"])
            try herald.succeed(["campaign", "update", "hello", "--locale", "de", "--title", "Hallo", "--message", "Willkommen"])

            let hello = try #require(try json(herald.succeed(["campaign", "show", "hello", "--json"])) as? [String: Any])
            let content = try #require(hello["content"] as? [String: [String: Any]])
            #expect(content["en"]?["title"] as? String == "Hi")
            #expect(content["de"]?["message"] as? String == "Willkommen")
            let fallback = try #require(hello["localeContent"] as? [String: Any])
            #expect(fallback["en"] as? String == "en")
            #expect(fallback["de"] as? String == "de")
            #expect(fallback["pt-BR"] as? String == "en")

            let tour = try #require(try json(herald.succeed(["campaign", "show", "tour", "--json"])) as? [String: Any])
            let story = try #require((tour["content"] as? [String: [String: Any]])?["en"])
            #expect(story["pushTitle"] as? String == "New")
            let page = try #require((story["pages"] as? [[String: Any]])?.first)
            #expect(page["buttonTitle"] as? String == "Open")
            #expect(page["subtitle"] as? String == "Live")
            #expect(page["duration"] as? Double == 5)
            // Restricted to en and de: pt-BR devices get nothing, and the JSON says so with null.
            let tourFallback = try #require(tour["localeContent"] as? [String: Any])
            #expect(tourFallback["pt-BR"] is NSNull)

            let text = try herald.succeed(["campaign", "show", "tour"]).stdout
            #expect(text.contains("duration 5 s"))
            #expect(text.contains("link weather://radar"))
            #expect(text.contains("button \"Open\""))
            #expect(text.contains("subtitle \"Live\""))
            #expect(text.contains("pt-BR: nothing (the campaign is not for this locale)"))
            let helloText = try herald.succeed(["campaign", "show", "hello"]).stdout
            #expect(helloText.contains("pt-BR: the en content (falls back pt-BR → pt → en)"), "\(helloText)")
            #expect(helloText.contains("de: its own content"))
        }
    }

    @Test func optionalFieldsCanBeCleared() throws {
        try withWeatherApp { herald in
            try herald.succeed([
                "campaign", "create", "hello", "--kind", "alert", "--name", "Hello", "--title", "Hi", "--message", "Welcome",
                "--action-url", "weather://tour", "--action-button", "Take the tour", "--starts", "2026-01-01",
            ])
            func alert() throws -> [String: Any] {
                let shown = try #require(try json(herald.succeed(["campaign", "show", "hello", "--json"])) as? [String: Any])
                return try #require((shown["content"] as? [String: [String: Any]])?["en"])
            }
            #expect(try alert()["actionUrl"] as? String == "weather://tour")
            try herald.succeed(["campaign", "update", "hello", "--clear", "action-button"])
            #expect(try alert()["actionButton"] == nil)
            #expect(try alert()["actionUrl"] as? String == "weather://tour")
            try herald.succeed(["campaign", "update", "hello", "--action-url", ""])
            #expect(try alert()["actionUrl"] == nil)
            #expect(try alert()["title"] as? String == "Hi")
            try herald.succeed(["campaign", "update", "hello", "--clear", "starts"])
            let shown = try #require(try json(herald.succeed(["campaign", "show", "hello", "--json"])) as? [String: Any])
            #expect(shown["startsAt"] == nil)
            let wrongKind = try herald.run(["campaign", "update", "hello", "--clear", "push-title"])
            #expect(wrongKind.status == 64)
            #expect(wrongKind.stderr.contains("--clear push-title is for story campaigns, not alert"), "\(wrongKind)")
            #expect(try herald.run(["campaign", "update", "hello", "--clear", "title"]).status == 64)
        }
    }

    @Test func reactivatingAnArchivedCampaignNeedsForceAndSaysWhatDevicesDo() throws {
        try withWeatherApp { herald in
            try herald.succeed([
                "campaign", "create", "hello", "--kind", "alert", "--name", "Hello", "--title", "Hi", "--message", "Welcome",
                "--message-key", "2026/05/01",
            ])
            try herald.succeed(["campaign", "activate", "hello"])
            let archived = try #require(try json(herald.succeed(["campaign", "archive", "hello", "--json"])) as? [String: Any])
            #expect(archived["status"] as? String == "archived")
            let refused = try herald.run(["campaign", "activate", "hello"])
            #expect(refused.status == 64, "\(refused)")
            #expect(refused.stderr.contains("message key 2026/05/01 never show it again"), "\(refused)")
            #expect(refused.stderr.contains("--force"))
            #expect(try herald.succeed(["campaign", "show", "hello"]).stdout.contains("status       archived"))
            let forced = try herald.succeed(["campaign", "activate", "hello", "--force"])
            #expect(forced.stdout == "campaign hello is active\n")
            // Pausing and activating again needs nothing more.
            try herald.succeed(["campaign", "pause", "hello"])
            try herald.succeed(["campaign", "activate", "hello"])
        }
    }
}

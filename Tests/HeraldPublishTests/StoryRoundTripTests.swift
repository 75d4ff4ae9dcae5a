import Foundation
import HeraldCore
import HeraldTestSupport
import PropertyBased
import Testing

@testable import HeraldPublish

/// Every story Herald accepts plays on a device exactly as it was written: published, carried
/// to the device in each way a push can carry it, and read by StoryPlayerModel (the player's
/// rules, written apart from Herald's), each page comes back unchanged. And every page Herald
/// refuses for the player's sake is one the player would indeed change.
@Suite struct StoryRoundTripTests {
    /// A page as someone might write it: text that Herald's URL types may or may not take.
    struct Draft: Sendable, CustomStringConvertible {
        var image: String
        var duration: Double?
        var link: String?
        var buttonTitle: String?
        var title: String?
        var subtitle: String?

        var description: String {
            "image=\(image) duration=\(duration.map { "\($0)" } ?? "-") link=\(link ?? "-") button_title=\(buttonTitle.map { $0.debugDescription } ?? "-") "
                + "title=\(title.map { $0.debugDescription } ?? "-") subtitle=\(subtitle.map { $0.debugDescription } ?? "-")"
        }

        /// The page, when Herald's URL types take its image and link.
        var page: StoryPage? {
            guard let image = try? HTTPURL(image) else { return nil }
            var page = StoryPage(image: image, duration: duration, buttonTitle: buttonTitle, title: title, subtitle: subtitle)
            if let link {
                guard let url = try? LinkURL(link) else { return nil }
                page.link = url
            }
            return page
        }
    }

    // Each field is drawn from values the player reads as written (most of the time) and from
    // values it would change, so that many stories are accepted and every rule is met often.
    static let goodImages = [
        "https://cdn.example.com/1.jpg", "http://cdn.example.com/2.jpg?w=300&h=450", "https://cdn.example.com/a%20b.jpg",
        "https://[2001:db8::1]:8443/3.jpg", "HTTPS://CDN.example.com/~me/(1).jpg",
    ]
    static let badImages = [
        "https://cdn.example.com/ü.jpg", "https://cdn.example.com/{id}.jpg", "https://cdn.example.com/a.jpg#x#y",
        "https://cdn.example.com/100%.jpg", "https://cdn.example.com/[1].jpg", "https://cdn.example.com/a|b.jpg",
        "https://[x]/1.jpg", "https://cdn.example.com/a\\b.jpg",
    ]
    static let goodDurations: [Double?] = [nil, 0.001, 1, 4.5, 5, 29.999, 30]
    static let badDurations: [Double?] = [0, -1, -0.0, 30.000001, 30.5, 60, 99_999, .infinity, -.infinity, .nan]
    static let goodLinks: [String?] = [nil, "weather://sale", "https://example.com/a?b=c&d=e#f", "mailto:a@example.com", "tel:+49-30-1234"]
    static let badLinks: [String?] = ["weather://x|y", "weather://über", "weather://a#b#c", "weather://%zz", "weather://[x]/p", "weather://h/[x]"]
    static let goodTexts: [String?] = [nil, "Open", "Buy now & save <50%>", "Zwei\nZeilen", "مرحبا 🎉"]
    static let badTexts: [String?] = ["", "\u{00A0}", " "]

    static func field<T: Sendable>(_ good: [T], _ bad: [T]) -> Generator<T, AnySequence<(index: Int, value: Any)>> {
        Gen.frequency((weight: 6, gen: Gen.element(of: good).map { $0! }), (weight: 1, gen: Gen.element(of: bad).map { $0! }))
    }

    static let durations = Gen.frequency(
        (weight: 3, gen: field(goodDurations, badDurations)),
        (weight: 1, gen: Gen.frequency(
            (weight: 6, gen: Gen.double(in: 0.01...30).map { Optional($0) }), (weight: 1, gen: Gen.double(in: -5...60).map { Optional($0) }))))

    static let drafts = zip(
        field(goodImages, badImages), durations, field(goodLinks, badLinks), field(goodTexts, badTexts), field(goodTexts, badTexts),
        field(goodTexts, badTexts)
    ).map { image, duration, link, label, title, subtitle in
        // A link and a button title mostly come together, as an author writes them; now and
        // then one comes without the other.
        let buttonTitle = link == nil ? (label == "Open" ? label : nil) : label == "Zwei\nZeilen" ? nil : label ?? "Open"
        return Draft(image: image, duration: duration, link: link, buttonTitle: buttonTitle, title: title, subtitle: subtitle)
    }

    /// The story published for `pages`, in the three ways a device can get it: the published
    /// block at the root, and createMessage's `data` (the push request) arriving in `u` as an
    /// object or as a JSON string.
    static func payloads(_ pages: [StoryPage]) throws -> [(String, [String: Any])] {
        let en = try LocaleTag("en")
        let story = CampaignSpec(
            key: try Slug("tour"), kind: .story, name: "Tour", status: .active,
            content: [en: .story(StoryContent(pushText: "See what's new", pages: pages))])
        let app = AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.acme.weather", defaultLocale: en, locales: [en],
            campaigns: [story])
        let site = SiteCompiler().compile([TenantSpec(slug: try Slug("acme"), name: "Acme", apps: [app])], at: PublishFixture.at)
        func file(_ name: String) throws -> [String: Any] {
            let bytes = try #require(site.files.first { $0.path.description == "acme/weather/en/stories/\(name)" }?.bytes)
            return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        }
        let data = try #require(try file("tour.push.json")["data"] as? [String: Any])
        let dataText = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
        return [
            ("the published block", try file("tour.json")),
            ("createMessage data in u", ["aps": ["alert": "See what's new", "category": "PW_STORIES"], "u": data]),
            ("createMessage data in u as a JSON string", ["aps": ["mutable-content": 1], "u": dataText]),
            ("createMessage data in userdata", ["userdata": dataText]),
        ]
    }

    /// What the author meant: the page as written, with the player's default for a duration not
    /// given, and a button wherever a link or a button title is written (a link is there to be opened).
    static func asWritten(_ page: StoryPage) -> StoryPlayerModel.Page {
        StoryPlayerModel.Page(
            image: page.image.rawValue, seconds: page.duration ?? 5, title: page.title, subtitle: page.subtitle,
            button: page.link == nil && page.buttonTitle == nil ? nil : (page.buttonTitle ?? "", page.link?.rawValue ?? ""))
    }

    @Test func everyStoryHeraldAcceptsPlaysAsWritten() async throws {
        var accepted = 0
        await propertyCheck(count: 1500, input: Self.drafts.array(of: 1...3)) { drafts in
            let pages = drafts.compactMap(\.page)
            guard pages.count == drafts.count,
                CampaignContent.story(StoryContent(pushText: "See what's new", pages: pages)).problems().isEmpty
            else { return }
            accepted += 1
            // The fields Herald accepts are those it would also take with the player's rules left out.
            #expect(pages.allSatisfy { $0.problems(playerRules: false).isEmpty })
            for (way, payload) in try Self.payloads(pages) {
                let played = StoryPlayerModel.play(payload)
                #expect(played == pages.map(Self.asWritten), "\(way): \(drafts)")
            }
        }
        // Enough of the drawn stories are accepted for the check to mean something.
        #expect(accepted > 100, "only \(accepted) stories accepted")
    }

    /// A page refused only for the player's sake is one the player would play otherwise.
    @Test func everyPageRefusedForThePlayerWouldPlayDifferently() async throws {
        var refused = 0
        await propertyCheck(count: 1500, input: Self.drafts) { draft in
            // Durations finer than a millisecond are refused because the reader *may* read them
            // off (durationsAreExactToTheMillisecond), not because it always does.
            guard let page = draft.page, page.problems(playerRules: false).isEmpty,
                page.playerChanges().contains(where: { if case .durationTooPrecise = $0 { false } else { true } })
            else { return }
            refused += 1
            for (way, payload) in try Self.payloads([page]) {
                #expect(StoryPlayerModel.play(payload) != [Self.asWritten(page)], "\(way): \(draft)")
            }
        }
        #expect(refused > 100, "only \(refused) pages refused for the player")
    }

    /// Herald's own reading of published blocks (what `herald preview` plays) agrees with the
    /// model on every story, accepted or not: stored pages Herald would refuse today are drawn as
    /// the device draws them.
    @Test func previewPlaysPublishedStoriesAsTheModelDoes() async throws {
        await propertyCheck(count: 1000, input: Self.drafts.array(of: 1...3)) { drafts in
            let pages = drafts.compactMap(\.page)
            guard !pages.isEmpty else { return }
            for (way, payload) in try Self.payloads(pages) {
                let herald = StoryPayloadReader.play(campaign: "tour", payload: payload).pages.map { page in
                    StoryPlayerModel.Page(
                        image: page.image, seconds: page.seconds, title: page.title, subtitle: page.subtitle,
                        button: page.button.map { ($0.title, $0.link) })
                }
                #expect(herald == StoryPlayerModel.play(payload), "\(way): \(drafts)")
            }
            // And the board, which draws from the stored pages, plays the same.
            let board = pages.compactMap { page -> StoryPlayerModel.Page? in
                guard case .page(let played) = page.played else { return nil }
                return StoryPlayerModel.Page(
                    image: played.image, seconds: played.seconds, title: played.title, subtitle: played.subtitle,
                    button: played.button.map { ($0.title, $0.link) })
            }
            let exact = pages.allSatisfy { !$0.playerChanges().contains(.durationTooPrecise($0.duration ?? 0)) }
            if exact { #expect(board == StoryPlayerModel.play(try Self.payloads(pages)[0].1), "\(drafts)") }
        }
    }

    /// Why durations are refused past the millisecond: Foundation's JSONSerialization reads
    /// every millisecond from 0.001 to 30 s back exactly, but not every finer number.
    @Test func durationsAreExactToTheMillisecond() throws {
        func readBack(_ seconds: Double) throws -> Double {
            let text = "{\"duration\": \(NumberText.format(seconds))}"
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return try #require(object["duration"] as? NSNumber).doubleValue
        }
        for milliseconds in 1...30_000 {
            let seconds = Double(milliseconds) / 1000
            #expect(try readBack(seconds) == seconds, "\(seconds)")
            #expect(StoryPage(image: try HTTPURL("https://cdn.example.com/1.jpg"), duration: seconds).playerChanges().isEmpty)
        }
        var generator = SplitMix(seed: 28)
        let offs = try (0..<2000).map { _ in Double.random(in: 0.01...30, using: &generator) }.filter { try readBack($0) != $0 }
        #expect(!offs.isEmpty, "Foundation read every drawn duration back exactly")
    }
}

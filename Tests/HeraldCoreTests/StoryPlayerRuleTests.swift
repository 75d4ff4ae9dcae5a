import Foundation
import Testing

@testable import HeraldCore

/// Pushwoosh's player rules at input: a page it would play otherwise than written is refused
/// with what the player does, the same from `--page` and from a campaigns file; pages already
/// stored keep their campaign editable; and the page as played (preview, board) is what the
/// player shows.
@Suite struct StoryPlayerRuleTests {
    static let image = "https://cdn.example.com/1.jpg"

    /// The message a `--page` flag is refused with; nil when it is taken.
    static func refusal(_ spec: String) -> String? {
        do {
            _ = try StoryPage.parse(keyValues: KeyValueList.parse(spec))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func durationsAreCutAtThirtySeconds() throws {
        for spec in ["image=\(Self.image),duration=60", "image=\(Self.image),duration=30.5", "image=\(Self.image),duration=30.0001"] {
            let message = try #require(Self.refusal(spec), "\(spec) was taken")
            #expect(message.contains("it cuts every page to 30 s (StoryPage.maxDuration)"), "\(message)")
            #expect(message.contains("give a duration of at most 30 seconds"), "\(message)")
        }
        #expect(Self.refusal("image=\(Self.image),duration=60")?.hasPrefix("duration 60 s is longer than Pushwoosh's player plays a page") == true)
        for spec in ["image=\(Self.image),duration=30", "image=\(Self.image),duration=29.999", "image=\(Self.image),duration=0.001", "image=\(Self.image)"] {
            #expect(Self.refusal(spec) == nil, "\(spec)")
        }
    }

    @Test func zeroNegativeAndEndlessDurationsWouldPlayFiveSeconds() throws {
        let zero = try #require(Self.refusal("image=\(Self.image),duration=0"))
        #expect(zero.contains("duration 0 s would play for 5 s") && zero.contains("(StoryPage.init)"), "\(zero)")
        let image = try HTTPURL(Self.image)
        for duration in [0, -1, -0.0, Double.infinity, -Double.infinity, Double.nan] {
            let changes = StoryPage(image: image, duration: duration).playerChanges()
            #expect(changes.count == 1, "\(duration)")
            guard case .durationDefaulted? = changes.first else {
                Issue.record("\(duration): \(changes)")
                continue
            }
        }
    }

    @Test func durationsFinerThanAMillisecondAreRefused() throws {
        let message = try #require(Self.refusal("image=\(Self.image),duration=4.0001"))
        #expect(message.contains("more than three decimals") && message.contains("give it to the millisecond (4)"), "\(message)")
        #expect(Self.refusal("image=\(Self.image),duration=4.001") == nil)
    }

    @Test func aButtonTitleWithoutALinkIsRefused() throws {
        let message = try #require(Self.refusal("image=\(Self.image),button_title=Buy"))
        #expect(message.hasPrefix("button title \"Buy\" without a link would never show"), "\(message)")
        #expect(message.contains("updateActionButton(title: page.link != nil ? page.buttonTitle : nil)"), "\(message)")
        #expect(message.hasSuffix("add the link the button opens, or remove the button title"), "\(message)")
    }

    @Test func aLinkWithoutAButtonTitleIsRefused() throws {
        let message = try #require(Self.refusal("image=\(Self.image),link=weather://sale"))
        #expect(message.hasPrefix("link \"weather://sale\" without a button title could never be opened"), "\(message)")
        #expect(message.contains("tap zones for previous and next page"), "\(message)")
        #expect(Self.refusal("image=\(Self.image),link=weather://sale,button_title=Buy") == nil)
    }

    @Test(arguments: [
        ("image=https://cdn.example.com/ü.jpg", "image \"https://cdn.example.com/ü.jpg\" has \"ü\" (U+00FC)", "ü\" (U+00FC) is %C3%BC"),
        ("image=https://cdn.example.com/a|b.jpg", "has \"|\" (U+007C)", "is %7C"),
        ("image=https://cdn.example.com/{id}.jpg", "has \"{\" (U+007B)", "is %7B"),
        ("image=https://cdn.example.com/100%.jpg", "has a % not followed by two hex digits", "write a % itself as %25"),
        ("image=https://cdn.example.com/a.jpg#x#y", "has a second #", "as %23"),
        ("image=https://cdn.example.com/[1].jpg", "has \"[\" (U+005B)", "is %5B"),
        ("image=https://[x]/1.jpg", "has \"[\" (U+005B)", "is %5B"),
        (#"image=https://cdn.example.com/a\\b.jpg"#, #"has "\" (U+005C)"#, "is %5C"),
        ("image=\(StoryPlayerRuleTests.image),link=weather://über,button_title=Go", "link \"weather://über\" has \"ü\"", "is %C3%BC"),
        ("image=\(StoryPlayerRuleTests.image),link=weather://a#b#c,button_title=Go", "has a second #", "so its button never shows"),
    ])
    func urlsFoundationCannotReadAreRefused(_ spec: String, _ what: String, _ fix: String) throws {
        let message = try #require(Self.refusal(spec), "\(spec) was taken")
        #expect(message.contains(what) && message.contains(fix), "\(message)")
        #expect(message.contains("Foundation's URL(string:)") && message.contains("StoryPayloadParser.page(from:)"), "\(message)")
    }

    @Test func urlsEveryDeviceReadsAreTaken() {
        for url in [
            "https://cdn.example.com/a%20b.jpg?w=300&h=450", "https://[2001:db8::1]:8443/3.jpg", "HTTPS://CDN.example.com/~me/(1).jpg",
            "https://user@[::1]/a.jpg", "https://cdn.example.com/a.jpg#frag?x=/y",
        ] {
            #expect(URLText.problem(url) == nil, "\(url)")
        }
        for link in ["weather://sale", "mailto:a@example.com", "tel:+49-30-1234", "https://example.com/a?b=c&d=e#f"] {
            #expect(URLText.problem(link) == nil, "\(link)")
        }
        #expect(URLText.problem("cdn.example.com/1.jpg")?.description == "has no scheme")
        #expect(URLText.problem("1http://x")?.description == "has no scheme")
    }

    /// A campaigns file (validate, apply) is refused with the same words, at the page's campaign.
    @Test func aCampaignsFileIsRefusedAlike() throws {
        let file = """
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
                      - {image: "https://cdn.example.com/1.jpg", duration: 60}
                      - {image: "https://cdn.example.com/2.jpg", buttonTitle: Buy}
                      - {image: "https://cdn.example.com/3.jpg", link: "weather://sale"}
                      - {image: "https://cdn.example.com/4.jpg", duration: 4.5, link: "weather://sale", buttonTitle: Buy}

            """
        guard case .failure(let errors) = CampaignsDocument.parse(file, fileName: "campaigns.yaml") else {
            Issue.record("the file was taken")
            return
        }
        let lines = errors.errors.map(\.description)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("campaigns.yaml: tenants[0].apps[0].campaigns[0]: content en: page 1: duration 60 s is longer") }, "\(lines)")
        #expect(lines.contains { $0.contains("content en: page 2: button title \"Buy\" without a link would never show") }, "\(lines)")
        #expect(lines.contains { $0.contains("content en: page 3: link \"weather://sale\" without a button title could never be opened") }, "\(lines)")
    }

    /// The same file in the canonical form (what `herald export` writes) goes the same way.
    @Test func anExportedFileWithAStoredPageTheRulesRefuseIsNamed() throws {
        let en = try LocaleTag("en")
        let story = CampaignSpec(
            key: try Slug("tour"), kind: .story, name: "Tour",
            content: [en: .story(StoryContent(pushText: "New", pages: [StoryPage(image: try HTTPURL(Self.image), duration: 45)]))])
        let app = AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.acme.weather", defaultLocale: en, locales: [en],
            campaigns: [story])
        let text = CampaignsDocument(tenants: [TenantSpec(slug: try Slug("acme"), name: "Acme", apps: [app])]).yaml()
        guard case .failure(let errors) = CampaignsDocument.parse(text, fileName: "export.yaml") else {
            Issue.record("the export was taken")
            return
        }
        let lines = errors.errors.map(\.description)
        #expect(lines.count == 1, "\(lines)")
        #expect(
            lines.first?.hasPrefix(
                "export.yaml: tenants[0].apps[0].campaigns[0]: content en: page 1: \(StoryPlayerChange.durationCut(45).message) (line ") == true,
            "\(lines)")
    }

    /// Pages the database holds already are not input: their campaign can still be changed,
    /// paused and archived. New or changed pages, and activation, meet the rules.
    @Test func storedPagesKeepTheirCampaignEditableButNotActivatable() throws {
        let en = try LocaleTag("en")
        let legacy = StoryPage(image: try HTTPURL(Self.image), duration: 60, buttonTitle: "Buy")
        var stored = CampaignSpec(
            key: try Slug("tour"), kind: .story, name: "Tour", status: .active,
            content: [en: .story(StoryContent(pushText: "New", pages: [legacy]))])
        #expect(stored.problems().count == 2)
        #expect(stored.problems(stored: stored).isEmpty)

        var renamed = stored
        renamed.name = "Product tour"
        renamed.status = .paused
        renamed.content[en] = .story(StoryContent(pushTitle: "Hi", pushText: "Newer", pages: [legacy]))
        #expect(renamed.problems(stored: stored).isEmpty)

        var added = stored
        added.content[en] = .story(
            StoryContent(pushText: "New", pages: [legacy, StoryPage(image: try HTTPURL(Self.image), duration: 31)]))
        #expect(added.problems(stored: stored).map(\.message) == ["content en: page 2: \(StoryPlayerChange.durationCut(31).message)"])

        let app = AppSpec(slug: try Slug("weather"), name: "W", platform: .ios, bundleID: "com.acme.weather", defaultLocale: en, locales: [en])
        let readiness = PublishReadiness.problems(campaign: stored, app: app, now: Date())
        #expect(readiness.count == 2, "\(readiness)")
        #expect(readiness.first?.hasPrefix("its en page 1 would not play as written: duration 60 s is longer") == true, "\(readiness)")
        stored.content[en] = .story(StoryContent(pushText: "New", pages: [StoryPage(image: try HTTPURL(Self.image), duration: 30)]))
        #expect(PublishReadiness.problems(campaign: stored, app: app, now: Date()).isEmpty)
    }

    @Test func aPageIsPlayedAsThePlayerShowsIt() throws {
        let image = try HTTPURL(Self.image)
        let written = StoryPage(
            image: image, duration: 4.5, link: try LinkURL("weather://radar"), buttonTitle: "Open", title: "Radar", subtitle: "Live")
        #expect(
            written.played
                == .page(
                    PlayedStoryPage(
                        image: Self.image, seconds: 4.5, title: "Radar", subtitle: "Live",
                        button: .init(title: "Open", link: "weather://radar"))))
        #expect(StoryPage(image: image).played == .page(PlayedStoryPage(image: Self.image, seconds: 5, usesDefaultDuration: true)))
        // Stored before the rules: played as the player plays it, with what it changed.
        let stored = StoryPage(image: image, duration: 60, buttonTitle: "Buy", title: "")
        #expect(
            stored.played
                == .page(PlayedStoryPage(image: Self.image, seconds: 30, changes: [.durationCut(60), .buttonWithoutLink("Buy")])))
        let unreadable = StoryPage(image: try HTTPURL("https://cdn.example.com/ü.jpg"))
        guard case .dropped(.imageNotAURL) = unreadable.played else {
            Issue.record("\(unreadable.played)")
            return
        }
        let deadLink = StoryPage(image: image, link: try LinkURL("weather://a|b"), buttonTitle: "Go")
        guard case .page(let page) = deadLink.played, page.button == nil, case .linkNotAURL? = page.changes.first else {
            Issue.record("\(deadLink.played)")
            return
        }
    }
}

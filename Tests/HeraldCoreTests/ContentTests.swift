import Foundation
import Testing

@testable import HeraldCore

@Suite struct KeyValueListTests {
    @Test func escapesAndQuotes() throws {
        let pairs = try KeyValueList.parse(#"image=https://x.example/1.jpg,title=Hello\, world,subtitle="a, b",button_title=back\\slash"#)
        #expect(pairs.map(\.key) == ["image", "title", "subtitle", "button_title"])
        #expect(pairs.map(\.value) == ["https://x.example/1.jpg", "Hello, world", "a, b", "back\\slash"])
    }

    @Test func pagesAndViewsFromFlags() throws {
        let page = try StoryPage.parse(keyValues: KeyValueList.parse("image=https://x.example/1.jpg,duration=4.5,link=app://p,title=Hi"))
        #expect(page == StoryPage(image: try HTTPURL("https://x.example/1.jpg"), duration: 4.5, link: try LinkURL("app://p"), title: "Hi"))
        let view = try BannerView.parse(keyValues: KeyValueList.parse("id=main,html=@main.html,height=60,origin=top")) { path in
            "<p>from \(path)</p>"
        }
        #expect(view == BannerView(id: try Slug("main"), source: .html("<p>from main.html</p>"), height: 60, origin: .top))
    }

    @Test func unknownRepeatedAndMissingKeysAreRefused() throws {
        let unknown = #expect(throws: ValidationError.self) { try StoryPage.parse(keyValues: KeyValueList.parse("image=https://x.example/a,colour=red")) }
        #expect(unknown?.message.contains("button_title") == true)
        #expect(throws: ValidationError.self) { try StoryPage.parse(keyValues: KeyValueList.parse("image=https://x.example/a,image=https://x.example/b")) }
        #expect(throws: ValidationError.self) { try StoryPage.parse(keyValues: KeyValueList.parse("title=No image")) }
        #expect(throws: ValidationError.self) { try StoryPage.parse(keyValues: KeyValueList.parse("image=https://x.example/a,duration=0")) }
        #expect(throws: (any Error).self) { try BannerView.parse(keyValues: KeyValueList.parse("id=v,file=https://x.example/a,html=<p/>")) { $0 } }
        #expect(throws: (any Error).self) { try BannerView.parse(keyValues: KeyValueList.parse("id=v,file=https://x.example/a,origin=left")) { $0 } }
        #expect(throws: ValidationError.self) { try KeyValueList.parse("title=\"unterminated") }
    }
}

@Suite struct SpecRulesTests {
    func app() throws -> AppSpec {
        AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.acme.weather",
            defaultLocale: try LocaleTag("en"), locales: [try LocaleTag("en"), try LocaleTag("de")])
    }

    func banner(entry: String = "main") throws -> CampaignSpec {
        CampaignSpec(
            key: try Slug("sale"), kind: .banner, name: "Sale",
            content: [
                try LocaleTag("en"): .banner(
                    BannerContent(entry: try Slug(entry), views: [BannerView(id: try Slug("main"), source: .html("<p/>"))]))
            ])
    }

    @Test func bannerEntryMustNameAView() throws {
        #expect(try banner().problems().isEmpty)
        let problems = try banner(entry: "missing").problems()
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("never show") == true)
    }

    @Test func contentMustMatchTheKindAndTimesMustBeOrdered() throws {
        var spec = try banner()
        spec.content[try LocaleTag("de")] = .alert(AlertContent(title: "x", message: "y"))
        spec.startsAt = Date(timeIntervalSince1970: 100)
        spec.endsAt = Date(timeIntervalSince1970: 100)
        spec.messageKey = try MessageKey("2026/01/01")
        let messages = spec.problems().map(\.message)
        #expect(messages.contains { $0.contains("alert content") })
        #expect(messages.contains { $0.contains("end after it starts") })
        #expect(messages.contains { $0.contains("only alert campaigns have a message key") })
    }

    @Test func readinessExplainsWhyACampaignCannotBePublished() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(PublishReadiness.problems(campaign: try banner(), app: try app(), now: now).isEmpty)
        var noDefault = try banner()
        noDefault.content = [try LocaleTag("de"): noDefault.content[try LocaleTag("en")]!]
        #expect(PublishReadiness.problems(campaign: noDefault, app: try app(), now: now).first?.contains("default locale en") == true)
        // Restricted to de only: content in de is enough.
        noDefault.locales = [try LocaleTag("de")]
        #expect(PublishReadiness.problems(campaign: noDefault, app: try app(), now: now).isEmpty)
        var ended = try banner()
        ended.endsAt = Date(timeIntervalSince1970: 999_999)
        #expect(PublishReadiness.problems(campaign: ended, app: try app(), now: now).first?.contains("in the past") == true)
        var foreign = try banner()
        foreign.locales = [try LocaleTag("fr")]
        #expect(PublishReadiness.problems(campaign: foreign, app: try app(), now: now).contains { $0.contains("fr") })
    }
}

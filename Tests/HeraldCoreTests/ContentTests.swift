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
        let page = try StoryPage.parse(keyValues: KeyValueList.parse("image=https://x.example/1.jpg,duration=4.5,link=app://p,button_title=Go,title=Hi"))
        #expect(
            page == StoryPage(image: try HTTPURL("https://x.example/1.jpg"), duration: 4.5, link: try LinkURL("app://p"), buttonTitle: "Go", title: "Hi"))
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

    /// A URL is not a language: a translation without its own ActionURL takes its fallback's;
    /// the button label falls back the same way.
    @Test func translationsInheritTheActionURLAndFallBackForTheButton() throws {
        let (en, de, pt, ptBR) = (try LocaleTag("en"), try LocaleTag("de"), try LocaleTag("pt"), try LocaleTag("pt-BR"))
        let tour = try LinkURL("weather://tour")
        let content: [LocaleTag: CampaignContent] = [
            en: .alert(AlertContent(title: "Welcome", message: "Hi", actionURL: tour, actionButton: "Take the tour")),
            de: .alert(AlertContent(title: "Willkommen", message: "Hallo")),
            pt: .alert(AlertContent(title: "Bem-vindo", message: "Olá", actionButton: "Fazer o tour")),
        ]
        let german = try #require(ResolvedAlert.resolve(content, for: de, defaultLocale: en))
        #expect(german.alert == AlertContent(title: "Willkommen", message: "Hallo", actionURL: tour, actionButton: "Take the tour"))
        #expect(german.contentLocale == de && german.actionURLLocale == en && german.actionButtonLocale == en)
        let brazil = try #require(ResolvedAlert.resolve(content, for: ptBR, defaultLocale: en))
        #expect(brazil.alert == AlertContent(title: "Bem-vindo", message: "Olá", actionURL: tour, actionButton: "Fazer o tour"))
        #expect(brazil.contentLocale == pt && brazil.actionButtonLocale == pt)
        // Without any URL there is no button at all (iNotify would ignore it).
        let plain: [LocaleTag: CampaignContent] = [en: .alert(AlertContent(title: "a", message: "b"))]
        #expect(ResolvedAlert.resolve(plain, for: de, defaultLocale: en)?.alert == AlertContent(title: "a", message: "b"))
    }

    @Test func aButtonNeedsAURLThatReachesIt() throws {
        let (en, de) = (try LocaleTag("en"), try LocaleTag("de"))
        var alert = CampaignSpec(
            key: try Slug("welcome"), kind: .alert, name: "Welcome",
            content: [
                en: .alert(AlertContent(title: "Welcome", message: "Hi", actionURL: try LinkURL("weather://tour"))),
                de: .alert(AlertContent(title: "Willkommen", message: "Hallo", actionButton: "Zur Tour")),
            ])
        #expect(alert.problems().isEmpty && alert.problems(defaultLocale: en).isEmpty)
        alert.content[en] = .alert(AlertContent(title: "Welcome", message: "Hi"))
        let problems = alert.problems(defaultLocale: en).map(\.message)
        #expect(problems == ["content de: an action button needs an action URL, in de or the default locale en (the client ignores the button otherwise)"])
    }

    @Test func messageKeysThatDifferOnlyInCaseAreRefusedPerApp() throws {
        var app = try app()
        func alert(_ key: String, _ messageKey: String) throws -> CampaignSpec {
            CampaignSpec(key: try Slug(key), kind: .alert, name: key, messageKey: try MessageKey(messageKey))
        }
        app.campaigns = [try alert("a", "promoA"), try alert("b", "PROMOA"), try alert("c", "promoB")]
        let problems = app.problems().map(\.message)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("promoA (campaign a) and PROMOA (campaign b) differ only in case") == true)
    }
}

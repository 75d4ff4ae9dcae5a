import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import Testing

/// Every card shows what devices read: for every campaign and locale of a varied fixture
/// (fallbacks, inherited ActionURL and ActionButton, inline and linked views, stories whose
/// player drops or shortens pages, restrictions), the card's visible text is compared with the
/// files publish writes and with what `herald preview` plays from them.
@Suite struct CardsMatchPublishedFilesTests {
    static let tenants: [TenantSpec] = [
        TenantSpec(slug: BoardFixture.slug("demo"), name: "Demo Weather Co", apps: [BoardFixture.weather, news]), BoardFixture.hostile,
    ]

    /// An app of six locales where every field falls back somewhere else.
    static var news: AppSpec {
        let l = BoardFixture.locale
        let promo = CampaignSpec(
            key: BoardFixture.slug("promo"), kind: .alert, name: "Promo", status: .active, messageKey: try? MessageKey("2026/05/20"),
            content: [
                l("en"): .alert(AlertContent(title: "Big news", message: "Read it first", actionURL: try? LinkURL("news://today"), actionButton: "Read Now")),
                l("de"): .alert(AlertContent(title: "Große Neuigkeiten", message: "Zuerst lesen")),
                l("fr"): .alert(AlertContent(title: "Grande nouvelle", message: "Lisez-la", actionURL: try? LinkURL("https://news.example.com/fr"))),
                l("pt"): .alert(AlertContent(title: "Novidade", message: "Leia primeiro", actionButton: "Ler")),
            ])
        let quiet = CampaignSpec(
            key: BoardFixture.slug("quiet"), kind: .alert, name: "Quiet", status: .active, locales: [l("de"), l("en")],
            messageKey: try? MessageKey("2026/05/01"),
            content: [l("en"): .alert(AlertContent(title: "Quiet hours", message: "No alerts at night"))])
        let banner = CampaignSpec(
            key: BoardFixture.slug("front-page"), kind: .banner, name: "Front page", status: .draft, priority: 3,
            content: [
                l("en"): .banner(
                    BannerContent(
                        entry: BoardFixture.slug("top"),
                        views: [
                            BannerView(id: BoardFixture.slug("top"), source: .file(BoardFixture.url("https://static.example.com/news/top.html")), height: 120, origin: .top),
                            BannerView(id: BoardFixture.slug("more"), source: .html("<p>More &amp; more</p>")),
                        ])),
                l("pt"): .banner(BannerContent(entry: BoardFixture.slug("top"), views: [BannerView(id: BoardFixture.slug("top"), source: .html("<p>Manchete</p>"), height: 64)])),
            ])
        let story = CampaignSpec(
            key: BoardFixture.slug("weekly"), kind: .story, name: "Weekly", status: .paused,
            content: [
                l("en"): .story(
                    StoryContent(
                        pushTitle: "This week", pushText: "Five stories",
                        pages: [
                            StoryPage(image: BoardFixture.url("https://cdn.example.com/w1.jpg"), duration: 60, link: try? LinkURL("news://1"), buttonTitle: "Open", title: "One", subtitle: "First"),
                            StoryPage(image: BoardFixture.url("https://cdn.example.com/ü.jpg"), title: "Dropped on old iOS"),
                            StoryPage(image: BoardFixture.url("https://cdn.example.com/w3.jpg"), buttonTitle: "No link", title: "Three"),
                        ])),
                l("fr"): .story(StoryContent(pushText: "Cinq histoires", pages: [StoryPage(image: BoardFixture.url("https://cdn.example.com/f1.jpg"), subtitle: "Premier")])),
            ])
        return AppSpec(
            slug: BoardFixture.slug("news"), name: "News", platform: .ios, bundleID: "com.example.news", defaultLocale: l("en"),
            locales: [l("de"), l("en"), l("es-MX"), l("fr"), l("pt"), l("pt-BR")], baseURL: BoardFixture.url("https://static.example.com/news"),
            campaigns: [promo, quiet, banner, story])
    }

    /// The same campaigns, each made live now, so publish writes every one of them: the
    /// board draws drafts and scheduled campaigns as they will be published.
    static var live: [TenantSpec] {
        tenants.map { tenant in
            var tenant = tenant
            tenant.apps = tenant.apps.map { app in
                var app = app
                app.campaigns = app.campaigns.map { campaign in
                    var campaign = campaign
                    (campaign.status, campaign.startsAt, campaign.endsAt) = (.active, nil, nil)
                    return campaign
                }
                return app
            }
            return tenant
        }
    }

    @Test func everyCardShowsTheTextOfThePublishedFiles() throws {
        let input = BoardInput(tenants: Self.tenants, at: BoardFixture.at, atIsExplicit: true, since: "2026-05-28", until: "2026-05-28")
        let pages = Dictionary(uniqueKeysWithValues: Board.render(input).map { ($0.path.description, String(decoding: $0.bytes, as: UTF8.self)) })
        let site = SiteCompiler().compile(Self.live, at: BoardFixture.at)
        #expect(site.errors.isEmpty)
        let published = Dictionary(site.files.map { ($0.path.description, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var compared = (alerts: 0, inherited: 0, banners: 0, stories: 0, locals: 0, none: 0)
        for tenant in Self.tenants {
            for app in tenant.apps {
                for campaign in app.campaigns {
                    let page = try #require(pages[Board.campaignPath(tenant: tenant.slug, app: app.slug, campaign: campaign.key)])
                    for locale in app.locales {
                        let card = try #require(Self.card(page, locale: locale), "\(campaign.key): no \(locale) card")
                        let folder = SitePath.localeFolder(tenant: tenant.slug, app: app.slug, locale: locale).joined(separator: "/")
                        let context = "\(tenant.slug)/\(app.slug)/\(campaign.key) [\(locale)]"
                        switch campaign.kind {
                        case .local:
                            let plist = try #require(published["\(folder)/local-notifications.plist"])
                            let entries = try #require(
                                try PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [[String: Any]])
                            guard let entry = entries.first(where: { ($0["userInfo"] as? [String: String])?["key"] == campaign.key.rawValue }) else {
                                compared.none += 1
                                continue
                            }
                            #expect(Self.definition(card, "Body") == entry["alertBody"] as? String, "\(context)")
                            compared.locals += 1
                        case .alert:
                            let plist = try #require(published["\(folder)/notifications.plist"])
                            let alerts = try #require(
                                try PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [String: [String: String]])
                            let messageKey = try #require(campaign.messageKey)
                            guard let entry = alerts[messageKey.rawValue] else {
                                #expect(Self.texts(card, "alert-title").isEmpty, "\(context): a card for an alert publish leaves out")
                                compared.none += 1
                                continue
                            }
                            #expect(Self.texts(card, "alert-title") == [entry["Title"]], "\(context)")
                            #expect(Self.texts(card, "alert-message") == [entry["Message"]], "\(context)")
                            let buttons = entry["ActionURL"] == nil ? ["OK"] : [entry["ActionButton"] ?? "More Info", "Remind Me Later", "Ignore"]
                            #expect(Self.texts(card, "alert-button") == buttons, "\(context)")
                            let shownURL = Self.definition(card, "Action URL")
                            #expect(shownURL?.hasPrefix(entry["ActionURL"] ?? "\u{0}") ?? (entry["ActionURL"] == nil), "\(context): \(shownURL ?? "no URL")")
                            compared.alerts += 1
                            if entry["ActionURL"] != nil, campaign.content[locale].flatMap({ if case .alert(let a) = $0 { a.actionURL } else { nil } }) == nil {
                                compared.inherited += 1
                            }
                        case .banner:
                            let control = try #require(published["\(folder)/control.json"])
                            let banners = try #require(try JSONSerialization.jsonObject(with: Data(control)) as? [String: Any])
                            guard let banner = banners[campaign.key.rawValue] as? [String: Any], let views = banner["views"] as? [String: [String: Any]] else {
                                #expect(!card.contains(#"<div class="view "#), "\(context): a card for a banner publish leaves out")
                                compared.none += 1
                                continue
                            }
                            #expect(card.components(separatedBy: #"<div class="view "#).count - 1 == views.count, "\(context)")
                            #expect(card.contains("Entry view <code>\(banner["entry"] as? String ?? "?")</code>"), "\(context)")
                            for (id, view) in views {
                                let file = try #require(view["file"] as? String)
                                if let height = view["height"] as? Double {
                                    #expect(card.contains("\(Self.number(height)) pt high, from the \(view["origin"] as? String == "top" ? "top" : "bottom")"), "\(context) \(id)")
                                }
                                let inline = SitePath.viewFile(
                                    tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key, view: BoardFixture.slug(id))
                                if let bytes = published[inline.description] {
                                    // An inline view: the frame holds the published page's bytes.
                                    #expect(file.hasSuffix(inline.segments.dropFirst(2).joined(separator: "/")), "\(context) \(id)")
                                    #expect(Self.frames(card).contains(String(decoding: bytes, as: UTF8.self)), "\(context) \(id)")
                                } else {
                                    #expect(card.contains("<code>\(Self.escape(file))</code>"), "\(context) \(id): \(file)")
                                }
                            }
                            compared.banners += 1
                        case .story:
                            let path = SitePath.storyFile(tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key)
                            guard let block = published[path.description] else {
                                #expect(!card.contains(#"class="push""#), "\(context): a card for a story publish leaves out")
                                compared.none += 1
                                continue
                            }
                            // What `herald preview` plays from the published block.
                            let played = StoryPayloadReader.play(campaign: campaign.key.rawValue, file: block)
                            #expect(Self.texts(card, "story-title") == played.pages.compactMap(\.title), "\(context)")
                            #expect(Self.texts(card, "story-subtitle") == played.pages.compactMap(\.subtitle), "\(context)")
                            #expect(Self.texts(card, "story-button") == played.pages.compactMap(\.button?.title), "\(context)")
                            #expect(card.components(separatedBy: #"<div class="story" "#).count - 1 == played.pages.count, "\(context)")
                            let pushPath = SitePath.storyFile(tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key, push: true)
                            let pushFile = try #require(published[pushPath.description])
                            let push = try #require(try JSONSerialization.jsonObject(with: Data(pushFile)) as? [String: Any])
                            #expect(Self.texts(card, "push-text") == [push["content"] as? String], "\(context)")
                            #expect(Self.texts(card, "push-title") == [push["ios_title"] as? String].compactMap { $0 }, "\(context)")
                            compared.stories += 1
                        }
                    }
                }
            }
        }
        // The fixture reaches every case it is made for.
        #expect(compared.alerts >= 10 && compared.inherited >= 4 && compared.banners >= 8 && compared.stories >= 6 && compared.none >= 4)
    }

    /// The demo's translated alert: German and Brazilian devices get the English action.
    @Test func aTranslatedAlertShowsTheInheritedAction() throws {
        let page = String(decoding: try #require(Board.render(BoardFixture.input()).first { $0.path.description == "board/demo/weather/welcome.html" }).bytes, as: UTF8.self)
        for locale in ["de", "pt-BR"] {
            let card = try #require(Self.card(page, locale: BoardFixture.locale(locale)))
            #expect(Self.texts(card, "alert-button") == ["Take the tour", "Remind Me Later", "Ignore"])
            #expect(Self.definition(card, "Action URL") == "weather://tour (from the en content)")
            #expect(card.contains("Like publish, it takes its action URL from the en content and its action button from the en content."))
        }
    }

    // MARK: Reading a card

    static func card(_ page: String, locale: LocaleTag) -> String? {
        guard let start = page.range(of: #"<article class="card" id="card-\#(locale)""#),
            let end = page.range(of: "</article>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.lowerBound..<end.upperBound])
    }

    /// The texts of the elements of one class, in order, unescaped.
    static func texts(_ html: String, _ className: String) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"<(p|span) class="\#(className)(?: [a-z]+)?">(.*?)</\1>"#, options: [.dotMatchesLineSeparators])
        let range = NSRange(html.startIndex..., in: html)
        return (pattern?.matches(in: html, range: range) ?? []).compactMap { match in
            Range(match.range(at: 2), in: html).map { unescape(String(html[$0])) }
        }
    }

    /// The card's own words for a term of its copy list.
    static func definition(_ html: String, _ term: String) -> String? {
        guard let start = html.range(of: "<dt>\(term)</dt><dd>"), let end = html.range(of: "</dd>", range: start.upperBound..<html.endIndex) else { return nil }
        return unescape(String(html[start.upperBound..<end.lowerBound]))
    }

    /// The documents of the card's frames, without the policy the board puts first.
    static func frames(_ html: String) -> [String] {
        html.components(separatedBy: #"srcdoc=""#).dropFirst().compactMap { rest in
            rest.split(separator: "\"", maxSplits: 1).first.map { unescape(String($0)) }
        }.map { $0.replacingOccurrences(of: #"^<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression) }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

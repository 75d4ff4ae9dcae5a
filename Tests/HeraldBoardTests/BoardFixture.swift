import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish

/// A board's input made by hand: the demo's app (a banner with two views, an alert in three
/// languages, a story in two), campaigns in every state, delivery counts, publish runs, and
/// a tenant whose every text tries to break out of its place in the page.
enum BoardFixture {
    static let at = Date(timeIntervalSince1970: 1_779_962_400)  // 2026-05-28T10:00:00Z

    static func locale(_ tag: String) -> LocaleTag {
        (try? LocaleTag(tag)) ?? LocaleTag.english
    }

    static func slug(_ text: String) -> Slug {
        (try? Slug(text)) ?? Slug.fallback
    }

    static func url(_ text: String) -> HTTPURL {
        (try? HTTPURL(text)) ?? HTTPURL.fallback
    }

    static func conditions(_ list: [(ConditionGroup, String, CampaignKind)]) -> ConditionSet {
        var set = ConditionSet()
        for (group, assignment, kind) in list {
            if let condition = try? Condition.parse(group: group, assignment: assignment, kind: kind) { set.set(condition) }
        }
        return set
    }

    static var weather: AppSpec {
        let banner = CampaignSpec(
            key: slug("spring-sale"), kind: .banner, name: "Spring sale", status: .active, priority: 10,
            conditions: conditions([
                (.all, "appVersionLessThan=3.0", .banner), (.all, "flagNotSet=hideSpringSale", .banner),
                (.any, "onWifi=true", .banner), (.any, "lastDisplayMinimumLaunches=3", .banner),
            ]),
            content: [
                locale("en"): .banner(
                    BannerContent(
                        entry: slug("banner"),
                        views: [
                            BannerView(id: slug("banner"), source: .file(url("https://static.example.com/demo/weather/en/banner.html")), height: 88, origin: .top),
                            BannerView(id: slug("details"), source: .html("<html><body><h1>Spring sale</h1><p>20% off Weather Pro</p></body></html>")),
                        ])),
                locale("de"): .banner(
                    BannerContent(
                        entry: slug("banner"),
                        views: [
                            BannerView(id: slug("banner"), source: .html("<html><body style=\"margin:0;font:16px sans-serif;background:#ffe9a8\"><p>Frühlingsangebot: 20 % auf Weather Pro</p></body></html>"), height: 88, origin: .bottom),
                            BannerView(id: slug("details"), source: .html("<html><body><h1>Frühlingsangebot</h1></body></html>")),
                        ])),
            ])
        let alert = CampaignSpec(
            key: slug("welcome"), kind: .alert, name: "Welcome", status: .active, startsAt: at.addingTimeInterval(-3 * 86_400),
            conditions: conditions([(.all, "minAppVersion=2.0", .alert)]), messageKey: try? MessageKey("2026/05/25"),
            content: [
                locale("en"): .alert(AlertContent(title: "Welcome", message: "Thanks for installing Weather & friends", actionURL: try? LinkURL("weather://tour"), actionButton: "Take the tour")),
                locale("de"): .alert(AlertContent(title: "Willkommen", message: "Danke fürs Installieren")),
                locale("pt-BR"): .alert(AlertContent(title: "Bem-vindo", message: "Obrigado por instalar")),
            ])
        let story = CampaignSpec(
            key: slug("tour"), kind: .story, name: "Product tour", status: .active, locales: [locale("de"), locale("en")],
            content: [
                locale("en"): .story(
                    StoryContent(
                        pushTitle: "New in Weather", pushText: "See what's new",
                        pages: [
                            StoryPage(image: url("https://cdn.example.com/demo/tour-1.jpg"), duration: 5, link: try? LinkURL("weather://radar"), buttonTitle: "Open radar", title: "Radar", subtitle: "Live rain map"),
                            StoryPage(image: url("https://cdn.example.com/demo/tour-2.jpg"), duration: 4.5, title: "Alerts"),
                        ])),
                locale("de"): .story(StoryContent(pushText: "Was ist neu", pages: [StoryPage(image: url("https://cdn.example.com/demo/tour-1-de.jpg"), title: "Radar")])),
            ])
        let scheduled = CampaignSpec(
            key: slug("summer"), kind: .alert, name: "Summer", status: .active, startsAt: at.addingTimeInterval(3 * 86_400 + 3_600),
            endsAt: at.addingTimeInterval(40 * 86_400), messageKey: try? MessageKey("2026/05/31"),
            content: [locale("en"): .alert(AlertContent(title: "Summer is here", message: "Hot days ahead."))])
        let ended = CampaignSpec(
            key: slug("winter"), kind: .banner, name: "Winter", status: .active, startsAt: at.addingTimeInterval(-20 * 86_400),
            endsAt: at.addingTimeInterval(-2 * 86_400 - 60),
            content: [locale("en"): .banner(BannerContent(entry: slug("b"), views: [BannerView(id: slug("b"), source: .html("<p>Winter</p>"), height: 60)]))])
        let draft = CampaignSpec(
            key: slug("draft-one"), kind: .story, name: "Next idea", status: .draft,
            content: [locale("en"): .story(StoryContent(pushText: "Coming soon", pages: [StoryPage(image: url("http://cdn.example.com/x.jpg"))]))])
        let paused = CampaignSpec(
            key: slug("paused-one"), kind: .alert, name: "On hold", status: .paused, messageKey: try? MessageKey("2026/04/01"),
            content: [locale("en"): .alert(AlertContent(title: "Hold", message: "Paused for now."))])
        let archived = CampaignSpec(
            key: slug("old-one"), kind: .alert, name: "Old news", status: .archived, messageKey: try? MessageKey("2025/01/01"),
            content: [locale("en"): .alert(AlertContent(title: "Old", message: "Long gone."))])
        return AppSpec(
            slug: slug("weather"), name: "Weather", platform: .ios, bundleID: "com.example.weather", defaultLocale: locale("en"),
            locales: [locale("de"), locale("en"), locale("pt-BR")], baseURL: url("https://static.example.com/demo/weather"),
            campaigns: [banner, alert, story, scheduled, ended, draft, paused, archived])
    }

    /// Every text a `<script>`, quotes or markup: none of it may act.
    static let evil = #"<script>window.__pwned = 1</script>"' & <b>bold</b> <img src=x onerror="window.__pwned=2">"#

    static var hostile: TenantSpec {
        let alert = CampaignSpec(
            key: slug("xss"), kind: .alert, name: evil, status: .active, messageKey: try? MessageKey("2026/05/01"),
            content: [locale("en"): .alert(AlertContent(title: evil, message: evil, actionURL: try? LinkURL("javascript:window.__pwned=3"), actionButton: evil))])
        let banner = CampaignSpec(
            key: slug("xss-banner"), kind: .banner, name: evil, status: .active,
            content: [locale("en"): .banner(BannerContent(entry: slug("v"), views: [BannerView(id: slug("v"), source: .html(#"</iframe><script>parent.__pwned=4</script>""#), height: 120, origin: .top)]))])
        let app = AppSpec(
            slug: slug("evil-app"), name: evil, platform: .ios, bundleID: "com.evil.app", defaultLocale: locale("en"), locales: [locale("en")],
            baseURL: url("https://static.example.com/evil"), campaigns: [alert, banner])
        return TenantSpec(slug: slug("mallory"), name: evil, apps: [app])
    }

    static var daily: [DailyCount] {
        var counts: [DailyCount] = []
        for offset in 0..<10 {
            let day = String(Timestamp.format(at.addingTimeInterval(-Double(offset) * 86_400)).prefix(10))
            for (campaign, base) in [("spring-sale", 40), ("welcome", 25), ("tour", 12)] {
                let impressions = base + (offset * 7) % 13
                counts.append(DailyCount(tenant: "demo", app: "weather", campaign: campaign, day: day, event: "delivered", events: impressions + 5))
                counts.append(DailyCount(tenant: "demo", app: "weather", campaign: campaign, day: day, event: "impression", events: impressions))
                counts.append(DailyCount(tenant: "demo", app: "weather", campaign: campaign, day: day, event: "click", events: impressions / (3 + offset % 3)))
                counts.append(DailyCount(tenant: "demo", app: "weather", campaign: campaign, day: day, event: "dismiss", events: impressions / 4))
            }
        }
        return counts
    }

    static var runs: [BoardRun] {
        [
            BoardRun(
                id: 1, startedAt: at.addingTimeInterval(-7_200), finishedAt: at.addingTimeInterval(-7_199), actor: "cron",
                outDir: "/srv/herald", outcome: "succeeded", scope: "", publishAt: at.addingTimeInterval(-7_200), rollbackOf: nil,
                written: 2, unchanged: 0, removed: 0, message: nil,
                changes: [FileChange(path: "demo/weather/en/control.json", kind: .added), FileChange(path: "mallory/evil-app/en/control.json", kind: .added)]),
            BoardRun(
                id: 2, startedAt: at.addingTimeInterval(-3_600), finishedAt: at.addingTimeInterval(-3_599), actor: evil,
                outDir: "/srv/herald", outcome: "succeeded", scope: "", publishAt: at.addingTimeInterval(-3_600), rollbackOf: nil,
                written: 1, unchanged: 1, removed: 0, message: nil, changes: [FileChange(path: "mallory/evil-app/en/control.json", kind: .changed)]),
        ]
    }

    static func input(tenants: [TenantSpec]? = nil) -> BoardInput {
        BoardInput(
            tenants: tenants ?? [TenantSpec(slug: slug("demo"), name: "Demo Weather Co", apps: [weather]), hostile], at: at, atIsExplicit: true,
            daily: daily, since: "2026-04-29", until: "2026-05-28", runs: runs)
    }
}

extension LocaleTag {
    fileprivate static var english: LocaleTag { try! LocaleTag("en") }  // a constant that is valid
}

extension Slug {
    fileprivate static var fallback: Slug { try! Slug("invalid") }  // a constant that is valid
}

extension HTTPURL {
    fileprivate static var fallback: HTTPURL { try! HTTPURL("https://invalid.example") }  // a constant that is valid
}

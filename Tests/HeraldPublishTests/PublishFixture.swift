import Foundation
import HeraldCore

/// A small site with every condition type and value type, awkward text, fallbacks, a locale
/// restriction, and campaigns that must not appear (paused, future, ended).
enum PublishFixture {
    static let at = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z
    static let may = Date(timeIntervalSince1970: 1_777_593_600)  // 2026-05-01T00:00:00Z
    static let july = Date(timeIntervalSince1970: 1_782_864_000)  // 2026-07-01T00:00:00Z

    static func tenants() throws -> [TenantSpec] {
        let en = try LocaleTag("en")
        let de = try LocaleTag("de")
        var bannerConditions = ConditionSet()
        for (group, assignment) in [
            (ConditionGroup.all, "appVersionLessThan=2.4.0"), (.all, "iOSVersionLessThan=17.0.1"), (.all, "flagNotSet=hideSale"),
            (.all, "neverDisplayed=true"), (.any, "onWifi=true"), (.any, "lastDisplayMinimumLaunches=5"),
            (.any, "lastDisplayMinimumSeconds=86400"),
        ] {
            bannerConditions.set(try Condition.parse(group: group, assignment: assignment, kind: .banner))
        }
        let sale = CampaignSpec(
            key: try Slug("sale"), kind: .banner, name: "Sale", status: .active, startsAt: may, endsAt: july,
            conditions: bannerConditions,
            content: [
                en: .banner(
                    BannerContent(
                        entry: try Slug("banner"),
                        views: [
                            BannerView(id: try Slug("banner"), source: .file(try HTTPURL("https://cdn.example.com/sale.html")), height: 88.5, origin: .top),
                            BannerView(id: try Slug("full"), source: .html("<h1>Sale & more</h1>\n")),
                        ]))
            ])
        var alertConditions = ConditionSet()
        alertConditions.set(try Condition.parse(group: .all, assignment: "minAppVersion=1.0", kind: .alert))
        alertConditions.set(try Condition.parse(group: .all, assignment: "maxAppVersion=3.9.9", kind: .alert))
        let welcome = CampaignSpec(
            key: try Slug("welcome"), kind: .alert, name: "Welcome", status: .active, startsAt: may,
            conditions: alertConditions, messageKey: try MessageKey("2026/05/01"),
            content: [
                en: .alert(
                    AlertContent(
                        title: "Tom & Jerry <\"quoted\"> 'single'", message: "مرحبا 🎉",
                        actionURL: try LinkURL("weather://tour?x=1&y=2"), actionButton: "Go")),
                de: .alert(AlertContent(title: "Hallo", message: "Willkommen")),
            ])
        let tour = CampaignSpec(
            key: try Slug("tour"), kind: .story, name: "Tour", status: .active, locales: [en, de],
            content: [
                en: .story(
                    StoryContent(
                        pushTitle: "New", pushText: "See what's new",
                        pages: [
                            StoryPage(
                                image: try HTTPURL("https://cdn.example.com/1.jpg"), duration: 5, link: try LinkURL("weather://radar"),
                                buttonTitle: "Open", title: "Radar", subtitle: "Live"),
                            StoryPage(image: try HTTPURL("https://cdn.example.com/2.jpg"), duration: 4.5),
                        ]))
            ])
        var paused = tour
        paused.key = try Slug("paused")
        paused.status = .paused
        var future = welcome
        future.key = try Slug("future")
        future.startsAt = july
        future.messageKey = try MessageKey("2026/07/01")
        var ended = welcome
        ended.key = try Slug("ended")
        ended.startsAt = nil
        ended.endsAt = may
        ended.messageKey = try MessageKey("2026/04/01")
        let weather = AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.acme.weather", defaultLocale: en,
            locales: [en, de, try LocaleTag("pt-BR")], baseURL: try HTTPURL("https://static.example.com/acme/weather"),
            campaigns: [sale, welcome, tour, paused, future, ended])
        let empty = AppSpec(
            slug: try Slug("radio"), name: "Radio", platform: .macos, bundleID: "com.acme.radio", defaultLocale: en, locales: [en])
        return [TenantSpec(slug: try Slug("acme"), name: "Acme", apps: [weather, empty])]
    }

    static func golden(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }
}

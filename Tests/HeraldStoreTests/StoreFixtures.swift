import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient

/// Specs used across store tests, written out by hand.
enum StoreFixtures {
    static func app(_ slug: String, locales: [String] = ["de", "en", "pt-BR"]) throws -> AppSpec {
        AppSpec(
            slug: try Slug(slug), name: slug.capitalized, platform: .ios, bundleID: "com.example.\(slug)",
            defaultLocale: try LocaleTag("en"), locales: try locales.map { try LocaleTag($0) },
            baseURL: try HTTPURL("https://static.example.com/\(slug)"), campaigns: [])
    }

    static func banner(_ key: String) throws -> CampaignSpec {
        var conditions = ConditionSet()
        conditions.set(try Condition.parse(group: .all, assignment: "appVersionLessThan=2.4.0", kind: .banner))
        conditions.set(try Condition.parse(group: .any, assignment: "onWifi=true", kind: .banner))
        conditions.set(try Condition.parse(group: .any, assignment: "lastDisplayMinimumLaunches=5", kind: .banner))
        let views = [
            BannerView(id: try Slug("banner"), source: .file(try HTTPURL("https://cdn.example.com/b.html")), height: 88.5, origin: .top),
            BannerView(id: try Slug("full"), source: .html("<p>Hi & bye</p>"), height: nil, origin: nil),
        ]
        return CampaignSpec(
            key: try Slug(key), kind: .banner, name: "Banner \(key)", status: .draft,
            startsAt: Date(timeIntervalSince1970: 1_777_593_600), endsAt: nil, priority: 3, locales: nil,
            conditions: conditions, messageKey: nil,
            content: [
                try LocaleTag("en"): .banner(BannerContent(entry: try Slug("banner"), views: views)),
                try LocaleTag("de"): .banner(BannerContent(entry: try Slug("full"), views: [views[1]])),
            ])
    }

    static func alert(_ key: String, messageKey: String? = nil, startsAt: Date? = nil) throws -> CampaignSpec {
        var conditions = ConditionSet()
        conditions.set(try Condition.parse(group: .all, assignment: "minAppVersion=1.2", kind: .alert))
        return CampaignSpec(
            key: try Slug(key), kind: .alert, name: "Alert \(key)", status: .draft,
            startsAt: startsAt, endsAt: nil, priority: 0, locales: nil, conditions: conditions,
            messageKey: try messageKey.map { try MessageKey($0) },
            content: [
                try LocaleTag("en"): .alert(
                    AlertContent(title: "Hello <you>", message: "Welcome & enjoy", actionURL: try LinkURL("app://x"), actionButton: "Go")),
                try LocaleTag("pt-BR"): .alert(AlertContent(title: "Olá", message: "Bem-vindo 🎉", actionURL: nil, actionButton: nil)),
            ])
    }

    /// A local campaign with every field of its notification, words in two locales.
    static func local(_ key: String) throws -> CampaignSpec {
        CampaignSpec(
            key: try Slug(key), kind: .local, name: "Local \(key)", status: .draft,
            content: [
                try LocaleTag("en"): .local(LocalContent(body: "Rain <soon> & wind.", action: "See Radar")),
                try LocaleTag("de"): .local(LocalContent(body: "Regen 🌧 bald.")),
            ],
            localNotification: LocalNotification(
                fireDate: try FireDate("2030-12-24T09:00:30"), repeatInterval: .week, badge: 0, sound: try SoundName("Bell.aiff"),
                launchImage: try BundleFileName("Launch@2x.png"), userInfo: ["screen": "radar", "a.b-c_d": "x=1&y=\"2\""]))
    }

    static func story(_ key: String) throws -> CampaignSpec {
        CampaignSpec(
            key: try Slug(key), kind: .story, name: "Story \(key)", status: .draft,
            startsAt: nil, endsAt: Date(timeIntervalSince1970: 4_102_444_800), priority: 1,
            locales: [try LocaleTag("en")], conditions: ConditionSet(), messageKey: nil,
            content: [
                try LocaleTag("en"): .story(
                    StoryContent(
                        pushTitle: "New", pushText: "See what's new",
                        pages: [
                            StoryPage(
                                image: try HTTPURL("https://cdn.example.com/1.jpg"), duration: 5, link: try LinkURL("app://p1"),
                                buttonTitle: "Go", title: "Welcome", subtitle: "Swipe"),
                            StoryPage(
                                image: try HTTPURL("https://cdn.example.com/2.jpg"), duration: 2.25, link: nil,
                                buttonTitle: nil, title: nil, subtitle: nil),
                        ]))
            ])
    }

    struct Seeded {
        let acme: TenantRecord
        let globex: TenantRecord
        let acmeApp: AppRecord
        let globexApp: AppRecord
        let acmeCampaigns: [CampaignRecord]
    }

    /// Two tenants, each with one app and one campaign of each kind.
    static func seedTwoTenants(_ database: HeraldDatabase) throws -> Seeded {
        let (acme, globex) = try database.asOperator {
            (try $0.tenants.create(slug: try Slug("acme"), name: "Acme"),
             try $0.tenants.create(slug: try Slug("globex"), name: "Globex"))
        }
        func fill(_ tenant: Slug, app: String) throws -> (AppRecord, [CampaignRecord]) {
            try database.inTenant(tenant) { session in
                let app = try session.apps.create(try StoreFixtures.app(app))
                let campaigns = try [banner("spring"), alert("hello"), story("tour")].map {
                    try session.campaigns.create($0, in: app)
                }
                return (app, campaigns)
            }
        }
        let (acmeApp, acmeCampaigns) = try fill(acme.slug, app: "weather")
        let (globexApp, _) = try fill(globex.slug, app: "news")
        return Seeded(acme: acme, globex: globex, acmeApp: acmeApp, globexApp: globexApp, acmeCampaigns: acmeCampaigns)
    }
}

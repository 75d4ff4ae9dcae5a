import Foundation
import HeraldCore
import Testing

@testable import HeraldPublish

/// `local-notifications.plist` and `.json`: UILocalNotification's keys exactly, byte for byte
/// (golden files a person can check against docs/published-files.md), in every locale with
/// fallback, and empty once nothing is live so that devices cancel.
@Suite struct LocalNotificationFileTests {
    static func app(_ campaigns: [CampaignSpec]) throws -> [TenantSpec] {
        let en = try LocaleTag("en")
        let app = AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.acme.weather", defaultLocale: en,
            locales: [try LocaleTag("de"), en], campaigns: campaigns)
        return [TenantSpec(slug: try Slug("acme"), name: "Acme", apps: [app])]
    }

    static func campaigns() throws -> [CampaignSpec] {
        let en = try LocaleTag("en")
        let de = try LocaleTag("de")
        let storm = CampaignSpec(
            key: try Slug("storm-check"), kind: .local, name: "Storm check", status: .active,
            content: [
                en: .local(LocalContent(body: "A storm & its \"rain\" <soon>.", action: "See Forecast")),
                de: .local(LocalContent(body: "Ein Sturm zieht auf.", action: "Ansehen")),
            ],
            localNotification: LocalNotification(
                fireDate: try FireDate("2026-12-24T09:00"), repeatInterval: .day, badge: 2, sound: try SoundName("Chime.caf"),
                launchImage: try BundleFileName("Storm.png"), userInfo: ["screen": "radar"]))
        let launch = CampaignSpec(
            key: try Slug("launch"), kind: .local, name: "Launch", status: .active,
            content: [en: .local(LocalContent(body: "The new radar is here."))],
            localNotification: LocalNotification(fireDate: try FireDate("2026-12-20T09:00:00+01:00"), hasAction: false))
        return [storm, launch]
    }

    static func files(_ campaigns: [CampaignSpec]) throws -> [String: String] {
        let compiled = SiteCompiler().compile(try app(campaigns), at: PublishFixture.at)
        #expect(compiled.errors.isEmpty)
        return Dictionary(uniqueKeysWithValues: compiled.files.map { ($0.path.description, String(decoding: $0.bytes, as: UTF8.self)) })
    }

    @Test func goldenFilesWithUILocalNotificationsKeys() throws {
        let files = try Self.files(try Self.campaigns())
        #expect(files["acme/weather/en/local-notifications.plist"] == (try PublishFixture.golden("en-local-notifications.plist")))
        #expect(files["acme/weather/en/local-notifications.json"] == (try PublishFixture.golden("en-local-notifications.json")))
        // The same input, the same bytes.
        #expect(try Self.files(try Self.campaigns().reversed()) == files)
    }

    @Test func everyLocaleGetsItsWordsOrTheFallbacks() throws {
        let files = try Self.files(try Self.campaigns())
        let data = try #require(files["acme/weather/de/local-notifications.plist"]).data(using: .utf8) ?? Data()
        let entries = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
        #expect(entries.map { $0["alertBody"] as? String } == ["The new radar is here.", "Ein Sturm zieht auf."])
        #expect(entries.map { $0["alertAction"] as? String } == [nil, "Ansehen"])
        #expect(entries.map { ($0["userInfo"] as? [String: String])?["key"] } == ["launch", "storm-check"])
    }

    @Test func filesOnlyOnceTheAppHasALocalCampaignAndEmptyWhenNoneIsLive() throws {
        #expect(try Self.files([]).keys.contains { $0.contains("local-notifications") } == false)
        var paused = try Self.campaigns()
        for index in paused.indices { paused[index].status = .paused }
        // The snapshot lists active campaigns only, and says whether the app has local ones.
        var tenants = try Self.app([])
        tenants[0].apps[0].publishesLocalNotifications = true
        let compiled = SiteCompiler().compile(tenants, at: PublishFixture.at)
        let files = Dictionary(uniqueKeysWithValues: compiled.files.map { ($0.path.description, String(decoding: $0.bytes, as: UTF8.self)) })
        #expect(files["acme/weather/en/local-notifications.json"] == "[]\n" || files["acme/weather/en/local-notifications.json"] == "[]")
        #expect(files["acme/weather/de/local-notifications.plist"]?.contains("<array/>") == true)
        // Paused campaigns in the app (as a board compiles them): not in the file, and the file is there.
        let board = try Self.files(paused)
        #expect(board["acme/weather/en/local-notifications.plist"]?.contains("<array/>") == true)
    }
}

import Foundation
import HeraldCore
import HeraldTestSupport
import Testing

@testable import HeraldPublish

/// `herald preview` against the clients' rules as ClientModel runs them, for random sites and
/// random devices: the banners that can be shown and the alert shown must be the same.
@Suite struct ClientFidelityTests {
    static let at = PublishFixture.at
    static let sinceReference = Int(at.timeIntervalSinceReferenceDate)
    static let versions = [
        "1.0", "2.4", "2.4.0", "2.9", "2.9.9", "2.9.9-beta", "2.10", "2.10b1", "2.10.1", "3.0 (12)", "9.3.1", "10.0", "2.04",
    ]
    static let messageKeys = ["2026/11/23", "2026/11/23-2", "2026/11/23-10", "2026/11/23-b10", "2026/11/24", "promo", "Promo-b", "a_b", "A:c"]
    static let urls: [String?] = [nil, nil, "https://x.example/a", "http://x.example/b", "weather://tour", "mailto:a@example.com", "Weather://x"]
    static let schemes = ["http", "https", "weather", "mailto"]

    struct Scenario {
        var app: AppSpec
        var device: ClientModel.Device
    }

    static func pick<T>(_ values: [T], _ rng: inout SplitMix) -> T {
        values[Int.random(in: 0..<values.count, using: &rng)]
    }

    static func bannerConditions(_ rng: inout SplitMix) throws -> ConditionSet {
        var set = ConditionSet()
        let values: [(ConditionType, [String])] = [
            (.onWifi, ["true", "false"]), (.neverDisplayed, ["true", "false"]),
            (.lastDisplayMinimumSeconds, ["0", "60", "86400", String(sinceReference - 1), String(sinceReference), "900000000"]),
            (.lastDisplayMinimumLaunches, ["0", "1", "2", "5"]), (.flagNotSet, ["hide", "other"]),
            (.iOSVersionLessThan, versions), (.appVersionLessThan, versions),
        ]
        for (type, choices) in values where Int.random(in: 0..<3, using: &rng) == 0 {
            let group: ConditionGroup = Bool.random(using: &rng) ? .all : .any
            set.set(try Condition.parse(group: group, assignment: "\(type.rawValue)=\(pick(choices, &rng))", kind: .banner))
        }
        return set
    }

    static func randomScenario(_ rng: inout SplitMix, priorities: Bool) throws -> Scenario {
        let (en, de) = (try LocaleTag("en"), try LocaleTag("de"))
        var campaigns: [CampaignSpec] = []
        for index in 0..<Int.random(in: 0...4, using: &rng) {
            let view = BannerView(id: try Slug("v"), source: .file(try HTTPURL("https://x.example/\(index).html")))
            campaigns.append(
                CampaignSpec(
                    key: try Slug("b\(index)"), kind: .banner, name: "B", status: .active,
                    priority: priorities ? Int.random(in: 0...2, using: &rng) : 0, conditions: try bannerConditions(&rng),
                    content: [en: .banner(BannerContent(entry: try Slug("v"), views: [view]))]))
        }
        var keys = messageKeys.shuffled(using: &rng)
        for index in 0..<Int.random(in: 0...4, using: &rng) {
            var conditions = ConditionSet()
            let (low, high) = (pick(versions, &rng), pick(versions, &rng))
            if Bool.random(using: &rng) { conditions.set(try Condition.parse(group: .all, assignment: "minAppVersion=\(low)", kind: .alert)) }
            if Bool.random(using: &rng), NumericSearch.compare(high, low) >= 0 {
                conditions.set(try Condition.parse(group: .all, assignment: "maxAppVersion=\(high)", kind: .alert))
            }
            let url = try pick(urls, &rng).map { try LinkURL($0) }
            var content: [LocaleTag: CampaignContent] = [
                en: .alert(AlertContent(title: "T", message: "M", actionURL: url, actionButton: url != nil && Bool.random(using: &rng) ? "Go" : nil))
            ]
            if Bool.random(using: &rng) { content[de] = .alert(AlertContent(title: "D", message: "N")) }
            campaigns.append(
                CampaignSpec(
                    key: try Slug("a\(index)"), kind: .alert, name: "A", status: .active, conditions: conditions,
                    messageKey: try MessageKey(keys.removeFirst()), content: content))
        }
        let app = AppSpec(
            slug: try Slug("app"), name: "App", platform: .ios, bundleID: "com.a.b", defaultLocale: en, locales: [en, de],
            campaigns: campaigns)

        var device = ClientModel.Device(
            build: pick(versions, &rng), shortVersion: pick(versions, &rng), systemVersion: pick(versions, &rng),
            wifi: Bool.random(using: &rng))
        for campaign in campaigns where campaign.kind == .banner {
            var record = ClientModel.NotableRecord()
            if Bool.random(using: &rng) {
                record.displayed = true
                record.lastDisplay = at.addingTimeInterval(-Double(pick([0, 59, 60, 61, 86_400, 86_401, 400_000], &rng)))
            }
            record.launches = Int.random(in: 0...6, using: &rng)
            if Int.random(in: 0..<4, using: &rng) == 0 { record.flags = ["hide"] }
            device.notable[campaign.key.rawValue] = record
        }
        device.ignored = Int.random(in: 0..<10, using: &rng) == 0 ? nil : []
        for campaign in campaigns where campaign.kind == .alert && Int.random(in: 0..<4, using: &rng) == 0 {
            if let key = campaign.messageKey?.rawValue {
                if Bool.random(using: &rng) { device.viewed.append(key) } else { device.ignored?.append(key) }
            }
        }
        if Bool.random(using: &rng) { device.lastChecked = at.addingTimeInterval(-Double(pick([0, 43_199, 43_200, 90_000], &rng))) }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            device.lastReminded = at.addingTimeInterval(-Double(pick([100, 86_399, 86_400, 200_000], &rng)))
        }
        device.openableSchemes = Set(schemes.filter { _ in Bool.random(using: &rng) })
        return Scenario(app: app, device: device)
    }

    /// The device as `herald preview` takes it.
    static func deviceState(_ device: ClientModel.Device) -> DeviceState {
        var state = DeviceState(appVersion: device.shortVersion, build: device.build, osVersion: device.systemVersion, wifi: device.wifi)
        for (id, record) in device.notable {
            state.launchesSince[id] = record.launches + 1  // this launch counts
            if record.displayed { state.displayed.insert(id) }
            if let last = record.lastDisplay { state.secondsSince[id] = Int(at.timeIntervalSince(last)) }
            state.flags[id] = record.flags
        }
        state.seen = Set((device.ignored ?? []) + device.viewed)
        state.canOpen = device.openableSchemes
        state.firstLaunch = device.ignored == nil
        state.lastChecked = device.lastChecked
        state.lastReminded = device.lastReminded
        return state
    }

    static func files(_ app: AppSpec, locale: String) throws -> (control: [UInt8], plist: [UInt8]) {
        let site = SiteCompiler().compile([TenantSpec(slug: try Slug("t"), name: "T", apps: [app])], at: at)
        func file(_ name: String) -> [UInt8] { site.files.first { $0.path.description == "t/app/\(locale)/\(name)" }?.bytes ?? [] }
        return (file("control.json"), file("notifications.plist"))
    }

    @Test func previewDecidesAsTheClientsDoOnRandomDevices() throws {
        var shown = (banners: 0, alerts: 0, blocked: 0)
        for seed in 0..<500 {
            var rng = SplitMix(seed: UInt64(seed))
            let scenario = try Self.randomScenario(&rng, priorities: false)
            let locale = Bool.random(using: &rng) ? "en" : "de"
            let (control, plist) = try Self.files(scenario.app, locale: locale)
            let preview = DevicePreview.evaluate(
                control: control, notifications: plist, storyKeys: [], app: scenario.app, locale: try LocaleTag(locale), at: Self.at,
                device: Self.deviceState(scenario.device))
            var device = scenario.device
            let banners = ClientModel.notableLaunch(Data(control), device: &device, now: Self.at)
            let alert = ClientModel.iNotifyLaunch(Data(plist), device: &device, now: Self.at)
            #expect(Set(preview.eligibleBanners) == banners, "seed \(seed): banners")
            #expect(preview.nextAlert == alert, "seed \(seed): alert (preview: \(preview.alertBlocked ?? "not blocked"))")
            shown.banners += banners.count
            shown.alerts += alert == nil ? 0 : 1
            shown.blocked += preview.alertBlocked == nil ? 0 : 1
        }
        // The cases are not all empty: banners and alerts are shown, and alerts blocked.
        #expect(shown.banners > 100 && shown.alerts > 50 && shown.blocked > 50, "\(shown)")
    }

    /// Leaving a banner out for priority never changes what a device that honoured priority
    /// would show: the highest priority among the eligible banners stays the same.
    @Test func bannersLeftOutForPriorityCostNoDeviceItsBanner() throws {
        var leftOut = 0
        for seed in 0..<500 {
            var rng = SplitMix(seed: UInt64(seed) &+ 10_000)
            let scenario = try Self.randomScenario(&rng, priorities: true)
            var everyBanner = scenario.app
            everyBanner.campaigns = everyBanner.campaigns.map { var flat = $0; flat.priority = 0; return flat }
            let trimmed = try Self.files(scenario.app, locale: "en").control
            let full = try Self.files(everyBanner, locale: "en").control
            var a = scenario.device
            var b = scenario.device
            let eligibleTrimmed = ClientModel.notableLaunch(Data(trimmed), device: &a, now: Self.at)
            let eligibleFull = ClientModel.notableLaunch(Data(full), device: &b, now: Self.at)
            let priority = Dictionary(uniqueKeysWithValues: scenario.app.campaigns.map { ($0.key.rawValue, $0.priority) })
            #expect(eligibleTrimmed.isSubset(of: eligibleFull), "seed \(seed)")
            #expect(
                eligibleTrimmed.compactMap { priority[$0] }.max() == eligibleFull.compactMap { priority[$0] }.max(),
                "seed \(seed): \(eligibleTrimmed) of \(eligibleFull)")
            leftOut += trimmed.count < full.count ? 1 : 0
        }
        #expect(leftOut > 20, "banners were left out in \(leftOut) sites only")
    }
}

import Foundation
import HeraldCore
import Testing

@testable import HeraldPublish

/// The clients' rules, applied to the files as published (the fixture site at June 1st).
@Suite struct DevicePreviewTests {
    func preview(_ locale: String = "en", at: Date = PublishFixture.at, _ configure: (inout DeviceState) -> Void = { _ in }) throws
        -> PreviewResult
    {
        let tenants = try PublishFixture.tenants()
        let app = tenants[0].apps.first { $0.slug.rawValue == "weather" }!
        let files = SiteCompiler().compile(tenants, at: at).files
        let prefix = "acme/weather/\(locale)/"
        func file(_ name: String) -> [UInt8] { files.first { $0.path.description == prefix + name }?.bytes ?? [] }
        let stories = files.map(\.path.description).filter { $0.hasPrefix(prefix + "stories/") && !$0.hasSuffix(".push.json") }
            .map { String($0.dropFirst((prefix + "stories/").count).dropLast(5)) }
        // A device that satisfies every condition of the fixture's banner unless told otherwise.
        var device = DeviceState(appVersion: "2.3.9", osVersion: "16.4", wifi: true)
        device.launchesSince["sale"] = 10
        configure(&device)
        return DevicePreview.evaluate(
            control: file("control.json"), notifications: file("notifications.plist"), storyKeys: stories, app: app,
            locale: try LocaleTag(locale), at: at, device: device)
    }

    func reason(_ result: PreviewResult, _ campaign: String) -> String? {
        result.notShown.first { $0.campaign == campaign }?.reason
    }

    @Test func aDeviceThatQualifiesSeesEverything() throws {
        let result = try preview()
        #expect(result.eligibleBanners == ["sale"])
        #expect(result.nextAlert == "2026/05/01")
        #expect(result.stories == ["tour"])
        #expect(result.notShown.map(\.campaign) == ["ended", "future", "paused"])
        #expect(reason(result, "ended") == "ended (2026-05-01T00:00:00Z)")
        #expect(reason(result, "future") == "not started (starts 2026-07-01T00:00:00Z)")
        #expect(reason(result, "paused") == "paused")
    }

    /// Each Notable condition, failing on its own, with the numeric-search edge cases.
    @Test func everyBannerConditionSaysWhyItFails() throws {
        let cases: [(String, (inout DeviceState) -> Void, String)] = [
            ("build equal to the limit", { $0.build = "2.4.0" }, "all.appVersionLessThan: build 2.4.0 is not below 2.4.0"),
            ("2.10 is above 2.4.0", { $0.build = "2.10" }, "all.appVersionLessThan: build 2.10 is not below 2.4.0"),
            ("OS at the limit", { $0.osVersion = "17.0.1" }, "all.iOSVersionLessThan: OS 17.0.1 is not below 17.0.1"),
            ("flag set", { $0.flags["sale"] = ["hideSale"] }, "all.flagNotSet: flag hideSale is set"),
            ("shown before", { $0.displayed = ["sale"] }, "all.neverDisplayed: already displayed on this device"),
            (
                "no any condition", { $0.wifi = false; $0.launchesSince["sale"] = 5; $0.secondsSince["sale"] = 86400 },
                "no `any` condition holds (lastDisplayMinimumLaunches: 5 launches since last shown, needs more than 5; lastDisplayMinimumSeconds: shown 86400 s ago, needs more than 86400; onWifi: device is off Wi-Fi, needs on)"
            ),
        ]
        for (name, configure, expected) in cases {
            let result = try preview("en", configure)
            #expect(result.eligibleBanners.isEmpty, "\(name)")
            #expect(reason(result, "sale") == expected, "\(name)")
        }
        // 2.4 sorts before 2.4.0 on the device, so a 2.4 build still qualifies; so does 2.3.10.
        #expect(try preview("en") { $0.build = "2.4" }.eligibleBanners == ["sale"])
        #expect(try preview("en") { $0.build = "2.3.10" }.eligibleBanners == ["sale"])
        // One `any` condition is enough.
        #expect(try preview("en") { $0.wifi = false; $0.secondsSince["sale"] = 86401 }.eligibleBanners == ["sale"])
    }

    @Test func alertsFollowINotify() throws {
        let tooOld = try preview("en") { $0.appVersion = "0.9" }
        #expect(tooOld.nextAlert == nil)
        #expect(reason(tooOld, "welcome") == "app version 0.9 is below MinVersion 1.0")
        #expect(try preview("en") { $0.appVersion = "1.0" }.nextAlert == "2026/05/01")  // inclusive
        #expect(try preview("en") { $0.appVersion = "3.9.9" }.nextAlert == "2026/05/01")  // inclusive
        let tooNew = try preview("en") { $0.appVersion = "3.10" }  // 3.10 > 3.9.9 numerically
        #expect(reason(tooNew, "welcome") == "app version 3.10 is above MaxVersion 3.9.9")
        let seen = try preview("en") { $0.seen = ["2026/05/01"] }
        #expect(reason(seen, "welcome") == "already seen (message key 2026/05/01)")
    }

    @Test func localesAndNewestFirst() throws {
        let portuguese = try preview("pt-BR")
        #expect(reason(portuguese, "tour") == "not in this locale (restricted to de, en)")
        #expect(portuguese.nextAlert == "2026/05/01")  // falls back to English
        // At July 1st the future alert (key 2026/07/01) sorts last: it is shown first, the other waits.
        let july = try preview(at: PublishFixture.july)
        #expect(july.nextAlert == "2026/07/01")
        #expect(reason(july, "welcome") == "iNotify shows 2026/07/01 first (it sorts after 2026/05/01)")
        #expect(reason(july, "sale") == "ended (2026-07-01T00:00:00Z)")
    }

    @Test func unknownConditionsAndMissingViewsBlockABanner() {
        let device = DeviceState(appVersion: "1", osVersion: "1", wifi: true)
        let unknown = DevicePreview.bannerFailure(
            id: "x", ["conditions": ["all": ["onWiFi": true]], "entry": "v", "views": ["v": [:]]], device: device)
        #expect(unknown == "all.onWiFi: unknown condition (the client treats it as false)")
        let noView = DevicePreview.bannerFailure(id: "x", ["conditions": [:], "entry": "v", "views": ["w": [:]]], device: device)
        #expect(noView == "entry v names no view")
    }
}

import Foundation
import HeraldCore
import Testing

@testable import HeraldPublish

/// The clients' rules, applied to the files as published (the fixture site at June 1st).
@Suite struct DevicePreviewTests {
    func preview(
        _ locale: String = "en", at: Date = PublishFixture.at, tenants: [TenantSpec]? = nil, reasonFor: String? = nil,
        _ configure: (inout DeviceState) -> Void = { _ in }
    ) throws -> PreviewResult {
        let tenants = try tenants ?? PublishFixture.tenants()
        let app = tenants[0].apps.first { $0.slug.rawValue == "weather" }!
        let files = SiteCompiler().compile(tenants, at: at).files
        let prefix = "acme/weather/\(locale)/"
        func file(_ name: String) -> [UInt8] { files.first { $0.path.description == prefix + name }?.bytes ?? [] }
        let stories = files.map(\.path.description).filter { $0.hasPrefix(prefix + "stories/") && !$0.hasSuffix(".push.json") }
            .map { String($0.dropFirst((prefix + "stories/").count).dropLast(5)) }
        // A device that satisfies every condition of the fixture's banner unless told otherwise.
        var device = DeviceState(appVersion: "2.3.9", osVersion: "16.4", wifi: true)
        device.launchesSince["sale"] = 10
        device.canOpen = ["http", "https", "weather"]  // the welcome alert opens weather://tour
        configure(&device)
        return DevicePreview.evaluate(
            control: file("control.json"), notifications: file("notifications.plist"), storyKeys: stories, app: app,
            locale: try LocaleTag(locale), at: at, device: device, reasonFor: reasonFor)
    }

    /// Asked for one campaign's reason (a board's matrix row), the preview says the same of it,
    /// and of what the device sees, as when asked for every campaign's.
    @Test func oneCampaignsReasonIsTheOneEveryReasonGives() throws {
        let devices: [(inout DeviceState) -> Void] = [
            { _ in }, { $0.build = "2.4.0" }, { $0.wifi = false; $0.launchesSince["sale"] = 1 }, { $0.firstLaunch = true },
            { $0.seen = ["2026/05/01"] }, { $0.canOpen = [] }, { $0.flags["sale"] = ["hideSale"] },
        ]
        let keys = try PublishFixture.tenants()[0].apps.first { $0.slug.rawValue == "weather" }!.campaigns.map(\.key.rawValue)
        #expect(keys.count >= 5)
        for (index, configure) in devices.enumerated() {
            for locale in ["en", "de"] {
                let every = try preview(locale, configure)
                for key in keys {
                    let one = try preview(locale, reasonFor: key, configure)
                    #expect(one.notShown == every.notShown.filter { $0.campaign == key }, "device \(index), \(locale), \(key)")
                    #expect(one.eligibleBanners == every.eligibleBanners && one.nextAlert == every.nextAlert && one.stories == every.stories)
                    #expect(one.alertBlocked == every.alertBlocked)
                }
            }
        }
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
        ]
        for (name, configure, expected) in cases {
            let result = try preview("en", configure)
            #expect(result.eligibleBanners.isEmpty, "\(name)")
            #expect(reason(result, "sale") == expected, "\(name)")
        }
        // 2.4 sorts before 2.4.0 on the device, so a 2.4 build still qualifies; so does 2.3.10.
        #expect(try preview("en") { $0.build = "2.4" }.eligibleBanners == ["sale"])
        #expect(try preview("en") { $0.build = "2.3.10" }.eligibleBanners == ["sale"])
        // One `any` condition is enough. The fixture's banner is for devices it was never shown
        // on, and there lastDisplayMinimumSeconds=86400 always holds (Notable counts from 2001).
        #expect(try preview("en") { $0.wifi = false; $0.launchesSince["sale"] = 5 }.eligibleBanners == ["sale"])
        let none = bannerFailure(["any": ["onWifi": true, "lastDisplayMinimumLaunches": 5, "lastDisplayMinimumSeconds": 86_400]]) {
            $0.wifi = false
            $0.launchesSince["x"] = 5
            $0.secondsSince["x"] = 86_400
        }
        #expect(
            none
                == "no `any` condition holds (lastDisplayMinimumLaunches: 5 launches since last shown (this one included), needs more than 5; lastDisplayMinimumSeconds: shown 86400 s ago, needs more than 86400; onWifi: device is off Wi-Fi, needs on)"
        )
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
        #expect(reason(july, "welcome") == "iNotify picks 2026/07/01 first (it sorts after 2026/05/01)")
        #expect(reason(july, "sale") == "ended (2026-07-01T00:00:00Z)")
    }

    @Test func unknownConditionsAndMissingViewsBlockABanner() {
        let device = DeviceState(appVersion: "1", osVersion: "1", wifi: true)
        let unknown = DevicePreview.bannerFailure(
            id: "x", ["conditions": ["all": ["onWiFi": true]], "entry": "v", "views": ["v": [:]]], device: device, at: PublishFixture.at)
        #expect(unknown == "all.onWiFi: unknown condition (the client treats it as false)")
        // iNotify's conditions are Herald's, but not Notable's.
        for type in ["minAppVersion", "maxAppVersion"] {
            let alertsOwn = DevicePreview.bannerFailure(
                id: "x", ["conditions": ["any": [type: "0.1"]], "entry": "v", "views": ["v": [:]]], device: device, at: PublishFixture.at)
            #expect(alertsOwn == "no `any` condition holds (\(type): unknown condition (the client treats it as false))")
        }
        let noView = DevicePreview.bannerFailure(
            id: "x", ["conditions": [:], "entry": "v", "views": ["w": [:]]], device: device, at: PublishFixture.at)
        #expect(noView == "entry v names no view")
    }

    /// A banner alone in control.json, judged for a device.
    func bannerFailure(_ conditions: [String: [String: Any]], _ configure: (inout DeviceState) -> Void = { _ in }) -> String? {
        var device = DeviceState(appVersion: "2.0", osVersion: "17.0", wifi: true)
        configure(&device)
        return DevicePreview.bannerFailure(
            id: "x", ["conditions": conditions, "entry": "v", "views": ["v": [:]]], device: device, at: PublishFixture.at)
    }

    /// 1. Notable increments the launch counter before it checks: the current launch counts.
    @Test func theCurrentLaunchCounts() {
        #expect(bannerFailure(["all": ["lastDisplayMinimumLaunches": 0]]) == nil)  // every device shows it
        #expect(
            bannerFailure(["all": ["lastDisplayMinimumLaunches": 1]])
                == "all.lastDisplayMinimumLaunches: 1 launch since last shown (this one included), needs more than 1")
        #expect(bannerFailure(["all": ["lastDisplayMinimumLaunches": 1]]) { $0.launchesSince["x"] = 2 } == nil)
    }

    /// 2. Never shown: Notable measures from 2001-01-01, so a minimum above that is never met.
    @Test func neverShownCountsFromTheReferenceDate() {
        let since2001 = Int(PublishFixture.at.timeIntervalSinceReferenceDate)  // 2026-06-01: 801,964,800 s
        #expect(since2001 == 801_964_800)
        #expect(bannerFailure(["all": ["lastDisplayMinimumSeconds": since2001 - 1]]) == nil)
        #expect(
            bannerFailure(["all": ["lastDisplayMinimumSeconds": since2001]])
                == "all.lastDisplayMinimumSeconds: never shown, so Notable measures from 2001-01-01: 801964800 s, needs more than 801964800")
        // Shown before: from the last display.
        #expect(bannerFailure(["all": ["lastDisplayMinimumSeconds": 600]]) { $0.secondsSince["x"] = 601 } == nil)
        #expect(bannerFailure(["all": ["neverDisplayed": true]]) { $0.secondsSince["x"] = 601 } == "all.neverDisplayed: already displayed on this device")
        #expect(
            bannerFailure(["all": ["lastDisplayMinimumSeconds": 600]]) { $0.displayed = ["x"] }?.contains("a time not given") == true)
    }

    /// 5. Pre-release versions, ordered as numeric search orders them.
    @Test func preReleaseVersions() throws {
        #expect(bannerFailure(["all": ["appVersionLessThan": "2.10"]]) { $0.build = "2.10b1" } == "all.appVersionLessThan: build 2.10b1 is not below 2.10")
        #expect(bannerFailure(["all": ["appVersionLessThan": "2.10"]]) { $0.build = "2.9.9-beta" } == nil)
        let beta = try preview("en") { $0.appVersion = "3.9.9-beta" }  // MaxVersion 3.9.9: above it
        #expect(beta.nextAlert == nil)
        #expect(reason(beta, "welcome") == "app version 3.9.9-beta is above MaxVersion 3.9.9")
        #expect(try preview("en") { $0.appVersion = "1.0b1" }.nextAlert == "2026/05/01")  // MinVersion 1.0: 1.0b1 is above it
    }

    /// 3. iNotify shows nothing when the next alert's ActionURL cannot be opened; it does not
    /// fall back to the next key.
    @Test func anActionURLTheDeviceCannotOpenBlocksEveryAlert() throws {
        let blocked = try preview("en") { $0.canOpen = ["http", "https"] }
        #expect(blocked.nextAlert == nil)
        #expect(
            blocked.alertBlocked
                == "the next alert would be 2026/05/01, but its ActionURL weather://tour?x=1&y=2 can't be opened on this device (no app for weather:): nothing is shown")
        #expect(reason(blocked, "welcome")?.contains("so iNotify shows no alert at all") == true)
        // In July the newer alert (2026/07/01) sorts last. When the older one has no URL, the
        // device still sees nothing: iNotify does not fall back to it.
        var tenants = try PublishFixture.tenants()
        let weather = try #require(tenants[0].apps.firstIndex { $0.slug.rawValue == "weather" })
        let welcome = try #require(tenants[0].apps[weather].campaigns.firstIndex { $0.key.rawValue == "welcome" })
        tenants[0].apps[weather].campaigns[welcome].content = [try LocaleTag("en"): .alert(AlertContent(title: "Hi", message: "No link"))]
        let july = try preview(at: PublishFixture.july, tenants: tenants) { $0.canOpen = ["https"] }
        #expect(july.nextAlert == nil)
        #expect(july.alertBlocked?.hasPrefix("the next alert would be 2026/07/01") == true)
        #expect(reason(july, "welcome") == "iNotify picks 2026/07/01 first (it sorts after 2026/05/01)")
        #expect(try preview(at: PublishFixture.july, tenants: tenants) { $0.canOpen = ["weather"] }.nextAlert == "2026/07/01")
        // The German translation has no URL of its own: it takes the English one (item 8).
        #expect(try preview("de") { $0.canOpen = ["https"] }.alertBlocked?.contains("weather://tour") == true)
    }

    /// 4. iNotify's own gates: first launch, then the remind period, else the check period.
    @Test func iNotifysGates() throws {
        let first = try preview("en") { $0.firstLaunch = true }
        #expect(first.nextAlert == nil)
        #expect(first.alertBlocked == "it is the app's first launch, which iNotify only records")
        #expect(reason(first, "welcome") == "iNotify does not check on this launch: it is the app's first launch, which iNotify only records")
        let at = PublishFixture.at
        let checked = try preview("en") { $0.lastChecked = at.addingTimeInterval(-43_199) }
        #expect(checked.nextAlert == nil)
        #expect(
            checked.alertBlocked
                == "it last checked at 2026-05-31T12:00:01Z, less than 12 hours ago; it checks again from 2026-06-01T00:00:01Z")
        #expect(try preview("en") { $0.lastChecked = at.addingTimeInterval(-43_200) }.nextAlert == "2026/05/01")
        let reminded = try preview("en") { $0.lastReminded = at.addingTimeInterval(-86_399) }
        #expect(reminded.nextAlert == nil && reminded.alertBlocked?.contains("\"Remind Me Later\" was chosen") == true)
        // A reminder a day old lets iNotify check, even within the check period.
        let both = try preview("en") {
            $0.lastReminded = at.addingTimeInterval(-86_400)
            $0.lastChecked = at.addingTimeInterval(-60)
        }
        #expect(both.nextAlert == "2026/05/01")
    }
}

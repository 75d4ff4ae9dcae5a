import Foundation
@testable import HeraldBoard
import HeraldCore
import HeraldPublish
import Testing

/// The who-sees-what matrix exercises every bound: for each condition, and for an `any` group
/// as a whole, a device just inside and one just outside, each decided by DevicePreview.
@Suite struct MatrixBoundsTests {
    static let en = BoardFixture.locale("en")

    static func app(_ campaign: CampaignSpec) -> AppSpec {
        var app = BoardFixture.weather
        app.campaigns = [campaign]
        return app
    }

    static func rows(_ campaign: CampaignSpec) -> [MatrixRow] {
        let input = BoardFixture.input(tenants: [TenantSpec(slug: BoardFixture.slug("demo"), name: "Demo", apps: [app(campaign)])])
        return Board.matrix(input, tenant: BoardFixture.slug("demo"), app: BoardFixture.slug("weather"), campaign: campaign.key)
    }

    static let banner = CampaignSpec(
        key: BoardFixture.slug("bounds"), kind: .banner, name: "Bounds", status: .active,
        conditions: BoardFixture.conditions([
            (.all, "appVersionLessThan=3.0", .banner), (.all, "iOSVersionLessThan=18.0", .banner), (.all, "flagNotSet=hide", .banner),
            (.any, "onWifi=true", .banner), (.any, "lastDisplayMinimumLaunches=3", .banner),
            (.any, "lastDisplayMinimumSeconds=3600", .banner),
        ]),
        content: [en: .banner(BannerContent(entry: BoardFixture.slug("b"), views: [BannerView(id: BoardFixture.slug("b"), source: .html("<p>x</p>"), height: 60)]))])

    func row(_ rows: [MatrixRow], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MatrixRow {
        try #require(rows.first { $0.device.label.contains(label) }, "no row \(label) in \(rows.map(\.device.label))", sourceLocation: sourceLocation)
    }

    @Test func eachConditionJustInsideAndJustOutside() throws {
        let rows = Self.rows(Self.banner)
        let baseline = rows[0]
        #expect(baseline.cells.allSatisfy { $0.shown }, "\(baseline)")
        #expect(baseline.device.label.contains("nothing seen yet") && !baseline.device.label.contains("first run"))
        #expect(baseline.device.build == "2.9" && baseline.device.osVersion == "17.9" && baseline.device.wifi && baseline.device.displayed.isEmpty)
        // `all`: the nearest value inside is the baseline's; the nearest outside fails for that condition.
        for (label, reason) in [
            ("build 3.0: just outside all.appVersionLessThan 3.0", "all.appVersionLessThan: build 3.0 is not below 3.0"),
            ("OS 18.0: just outside all.iOSVersionLessThan 18.0", "all.iOSVersionLessThan: OS 18.0 is not below 18.0"),
            ("flag hide set: just outside all.flagNotSet hide", "all.flagNotSet: flag hide is set"),
        ] {
            let outside = try row(rows, label)
            #expect(outside.cells.allSatisfy { !$0.shown && $0.verdict == reason }, "\(label): \(outside)")
        }
        #expect(baseline.device.label.contains("build 2.9: just inside all.appVersionLessThan 3.0"))
        #expect(baseline.device.label.contains("OS 17.9: just inside all.iOSVersionLessThan 18.0"))
        // `any`: each condition alone just inside shows it; all just outside (the group as a whole) does not.
        let none = try row(rows, "no `any` condition holds (the group just outside)")
        #expect(!none.device.wifi && none.device.launchesSince["bounds"] == 3 && none.device.secondsSince["bounds"] == 3_600)
        #expect(none.cells.allSatisfy { !$0.shown && $0.verdict.hasPrefix("no `any` condition holds") }, "\(none)")
        for (label, check) in [
            ("only any.onWifi true", { (device: MatrixDevice) in device.wifi && device.launchesSince["bounds"] == 3 }),
            ("only any.lastDisplayMinimumLaunches 3", { (device: MatrixDevice) in !device.wifi && device.launchesSince["bounds"] == 4 }),
            ("only any.lastDisplayMinimumSeconds 3600", { (device: MatrixDevice) in !device.wifi && device.secondsSince["bounds"] == 3_601 }),
        ] {
            let inside = try row(rows, label)
            #expect(inside.cells.allSatisfy { $0.shown }, "\(label): \(inside)")
            #expect(check(inside.device), "\(label): \(inside.device)")
        }
    }

    /// iNotify's bounds and gates, in the clients' words: the first launch is not "nothing seen yet".
    @Test func alertBoundsAndTheFirstLaunch() throws {
        let alert = CampaignSpec(
            key: BoardFixture.slug("hello"), kind: .alert, name: "Hello", status: .active,
            conditions: BoardFixture.conditions([(.all, "minAppVersion=2.0", .alert), (.all, "maxAppVersion=3.0", .alert)]),
            messageKey: try MessageKey("2026/05/01"),
            content: [Self.en: .alert(AlertContent(title: "Hello", message: "Hi"))])
        let rows = Self.rows(alert)
        #expect(rows[0].cells.allSatisfy { $0.verdict == "next alert" })
        let versions = Dictionary(rows.map { ($0.device.appVersion, $0.cells.first?.verdict ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(versions["1.9"] == "app version 1.9 is below MinVersion 2.0")
        #expect(versions["3.1"] == "app version 3.1 is above MaxVersion 3.0")
        let atMinimum = try row(rows, "just inside all.minAppVersion 2.0")
        let atMaximum = try row(rows, "just inside all.maxAppVersion 3.0")
        #expect(atMinimum.cells.allSatisfy { $0.shown } && atMaximum.cells.allSatisfy { $0.shown })
        let first = try #require(rows.first { $0.device.label.hasPrefix("the app's first launch") }, "\(rows.map(\.device.label))")
        #expect(first.device.previewArguments.contains("--first-launch"))
        #expect(first.cells.allSatisfy { !$0.shown && $0.verdict.contains("first launch, which iNotify only records") })
        #expect(!rows[0].device.firstLaunch && rows[0].device.label.contains("not the app's first launch"))
    }

    /// neverDisplayed both ways: the baseline meets `false` by having shown it before.
    @Test func neverDisplayedFalseIsMetByAShownDevice() throws {
        var campaign = Self.banner
        campaign.conditions = BoardFixture.conditions([(.all, "neverDisplayed=false", .banner)])
        let rows = Self.rows(campaign)
        #expect(rows[0].cells.allSatisfy { $0.shown } && rows[0].device.displayed == ["bounds"])
        let never = try row(rows, "never shown here: just outside all.neverDisplayed false")
        #expect(never.cells.allSatisfy { !$0.shown })
    }
}

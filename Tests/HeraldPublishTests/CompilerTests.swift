import Foundation
import HeraldCore
import Testing

@testable import HeraldPublish

@Suite struct CompilerTests {
    func site() throws -> [String: String] {
        let compiled = SiteCompiler().compile(try PublishFixture.tenants(), at: PublishFixture.at)
        #expect(compiled.errors.isEmpty)
        return Dictionary(uniqueKeysWithValues: compiled.files.map { ($0.path.description, String(decoding: $0.bytes, as: UTF8.self)) })
    }

    @Test func goldenFiles() throws {
        let files = try site()
        #expect(files["acme/weather/en/control.json"] == (try PublishFixture.golden("en-control.json")))
        #expect(files["acme/weather/en/notifications.plist"] == (try PublishFixture.golden("en-notifications.plist")))
        #expect(files["acme/weather/en/stories/tour.json"] == (try PublishFixture.golden("en-stories-tour.json")))
        #expect(files["acme/weather/en/stories/tour.push.json"] == (try PublishFixture.golden("en-stories-tour.push.json")))
        #expect(files["acme/radio/en/control.json"] == (try PublishFixture.golden("empty-control.json")))
        #expect(files["acme/radio/en/notifications.plist"] == (try PublishFixture.golden("empty-notifications.plist")))
        #expect(files["acme/weather/en/views/sale/full.html"] == "<h1>Sale & more</h1>\n")
    }

    @Test func exactlyTheExpectedFiles() throws {
        let paths = try site().keys.sorted()
        #expect(paths == [
            "acme/radio/en/control.json", "acme/radio/en/notifications.plist",
            "acme/weather/de/control.json", "acme/weather/de/notifications.plist",
            "acme/weather/de/stories/tour.json", "acme/weather/de/stories/tour.push.json",
            "acme/weather/de/views/sale/full.html",
            "acme/weather/en/control.json", "acme/weather/en/notifications.plist",
            "acme/weather/en/stories/tour.json", "acme/weather/en/stories/tour.push.json",
            "acme/weather/en/views/sale/full.html",
            "acme/weather/pt-BR/control.json", "acme/weather/pt-BR/notifications.plist",
            "acme/weather/pt-BR/views/sale/full.html",
        ])
    }

    /// Meaning, read back by parsers that are not ours (Foundation's, as on the device).
    @Test func foundationReadsWhatTheAdminMeant() throws {
        let files = try site()
        let control = try #require(
            try JSONSerialization.jsonObject(with: Data((files["acme/weather/pt-BR/control.json"] ?? "").utf8)) as? [String: Any])
        let sale = try #require(control["sale"] as? [String: Any])
        #expect(sale["entry"] as? String == "banner")
        let conditions = try #require(sale["conditions"] as? [String: [String: Any]])
        #expect(conditions["all"]?["neverDisplayed"] as? Bool == true)
        #expect(conditions["all"]?["appVersionLessThan"] as? String == "2.4.0")
        #expect(conditions["any"]?["lastDisplayMinimumSeconds"] as? Int == 86400)
        #expect(conditions["any"]?["onWifi"] as? Bool == true)
        let views = try #require(sale["views"] as? [String: [String: Any]])
        #expect(views["banner"]?["height"] as? Double == 88.5)
        // pt-BR falls back to English content, but its inline view is served from its own folder.
        #expect(views["full"]?["file"] as? String == "https://static.example.com/acme/weather/pt-BR/views/sale/full.html")

        // The German translation has no ActionURL of its own: it keeps the English one (a URL
        // is not a language) and shows the English button, which lint names.
        for (locale, title, button) in [("en", "Tom & Jerry <\"quoted\"> 'single'", "Go"), ("de", "Hallo", "Go"), ("pt-BR", "Tom & Jerry <\"quoted\"> 'single'", "Go")] {
            let data = Data((files["acme/weather/\(locale)/notifications.plist"] ?? "").utf8)
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: [String: String]])
            #expect(plist.keys.sorted() == ["2026/05/01"], "\(locale)")  // not the future, ended or paused ones
            #expect(plist["2026/05/01"]?["Title"] == title)
            #expect(plist["2026/05/01"]?["ActionButton"] == button)
            #expect(plist["2026/05/01"]?["ActionURL"] == "weather://tour?x=1&y=2")
            #expect(plist["2026/05/01"]?["MinVersion"] == "1.0")
            #expect(plist["2026/05/01"]?["MaxVersion"] == "3.9.9")
        }
        let en = Data((files["acme/weather/en/notifications.plist"] ?? "").utf8)
        let alert = try #require(try PropertyListSerialization.propertyList(from: en, format: nil) as? [String: [String: String]])
        #expect(alert["2026/05/01"]?["Message"] == "مرحبا 🎉")
        #expect(alert["2026/05/01"]?["ActionURL"] == "weather://tour?x=1&y=2")

        let push = try #require(
            try JSONSerialization.jsonObject(with: Data((files["acme/weather/de/stories/tour.push.json"] ?? "").utf8)) as? [String: Any])
        #expect(push["ios_category_custom"] as? String == "PW_STORIES")
        #expect((push["ios_root_params"] as? [String: [String: Int]])?["aps"]?["mutable-content"] == 1)
        let pages = ((push["data"] as? [String: Any])?["pw_stories"] as? [String: Any])?["pages"] as? [[String: Any]]
        #expect(pages?.map { $0["image"] as? String } == ["https://cdn.example.com/1.jpg", "https://cdn.example.com/2.jpg"])
        #expect(pages?.last?["duration"] as? Double == 4.5)
        for secret in ["application", "auth", "token"] {
            #expect(!(files["acme/weather/de/stories/tour.push.json"] ?? "").lowercased().contains(secret))
        }
        let emptyPlist = try PropertyListSerialization.propertyList(
            from: Data((files["acme/radio/en/notifications.plist"] ?? "").utf8), format: nil) as? [String: Any]
        #expect(emptyPlist?.isEmpty == true)
    }

    @Test func sameInputSameBytes() throws {
        let first = SiteCompiler().compile(try PublishFixture.tenants(), at: PublishFixture.at).files
        let second = SiteCompiler().compile(try PublishFixture.tenants(), at: PublishFixture.at).files
        #expect(first == second)
    }

    @Test func schedulesAtTheirBoundaries() throws {
        let tenants = try PublishFixture.tenants()
        func keys(at date: Date) -> [String] {
            let files = SiteCompiler().compile(tenants, at: date).files
            let plist = files.first { $0.path.description == "acme/weather/en/notifications.plist" }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            let control = files.first { $0.path.description == "acme/weather/en/control.json" }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            return ["2026/04/01", "2026/05/01", "2026/07/01"].filter { plist.contains($0) } + (control.contains("\"sale\"") ? ["sale"] : [])
        }
        #expect(keys(at: PublishFixture.may.addingTimeInterval(-1)) == ["2026/04/01"])  // `ended` ends at May 1, exclusive
        #expect(keys(at: PublishFixture.may) == ["2026/05/01", "sale"])  // starts_at is inclusive
        #expect(keys(at: PublishFixture.july.addingTimeInterval(-1)) == ["2026/05/01", "sale"])
        #expect(keys(at: PublishFixture.july) == ["2026/05/01", "2026/07/01"])  // sale ended, future started
    }

    @Test func inlineHTMLWithoutAnyBaseURLIsRefused() throws {
        var tenants = try PublishFixture.tenants()
        tenants[0].apps[1].baseURL = nil  // weather (apps sorted: radio, weather)
        tenants[0].apps[0].baseURL = nil
        let refused = SiteCompiler().compile(tenants, at: PublishFixture.at)
        #expect(refused.errors.count == 3)  // one per locale the banner reaches
        #expect(refused.errors.first?.contains("--base-url") == true)
        let withSiteURL = SiteCompiler(siteBaseURL: try HTTPURL("https://cdn.example.net/site/")).compile(tenants, at: PublishFixture.at)
        #expect(withSiteURL.errors.isEmpty)
        let control = withSiteURL.files.first { $0.path.description == "acme/weather/de/control.json" }
        let text = String(decoding: control?.bytes ?? [], as: UTF8.self)
        #expect(text.contains("https://cdn.example.net/site/acme/weather/de/views/sale/full.html"))
    }
}

@Suite struct LintTests {
    func banner(_ key: String, _ assignments: [(ConditionGroup, String)]) throws -> CampaignSpec {
        var conditions = ConditionSet()
        for (group, assignment) in assignments { conditions.set(try Condition.parse(group: group, assignment: assignment, kind: .banner)) }
        return CampaignSpec(
            key: try Slug(key), kind: .banner, name: key, status: .active, conditions: conditions,
            content: [try LocaleTag("en"): .banner(BannerContent(entry: try Slug("v"), views: [BannerView(id: try Slug("v"), source: .file(try HTTPURL("https://x.example/v.html")))]))])
    }

    func warnings(_ campaigns: [CampaignSpec]) throws -> [String] {
        let app = AppSpec(
            slug: try Slug("app"), name: "App", platform: .ios, bundleID: "com.a.b", defaultLocale: try LocaleTag("en"),
            locales: [try LocaleTag("en")], campaigns: campaigns)
        return SiteCompiler().compile([TenantSpec(slug: try Slug("t"), name: "T", apps: [app])], at: PublishFixture.at).warnings
    }

    @Test func overlappingBannersAreNamedInPairsWithWhatDevicesSee() throws {
        let overlap = try warnings([banner("a", [(.all, "appVersionLessThan=2.0")]), banner("b", [(.any, "onWifi=true")])])
        #expect(
            overlap == [
                "t/app [en]: banners a and b can qualify on the same device (a: all.appVersionLessThan=2.0; b: any.onWifi=true): "
                    + "such a device is shown one of them per launch, the first Notable meets in dictionary order, which differs between "
                    + "devices; a device where only one qualifies is shown that one"
            ])
        // Many overlapping banners: one warning naming the group, not one per pair.
        let many = try warnings((1...6).map { try banner("b\($0)", []) })
        #expect(many.count == 1)
        #expect(many.first?.contains("banners b1, b2, b3, b4 and 2 more can qualify on the same device") == true)
        let exclusive = try warnings([banner("a", [(.all, "onWifi=true")]), banner("b", [(.all, "onWifi=false")])])
        #expect(exclusive.isEmpty)
        // Exclusive through `any`: every way b qualifies is off Wi-Fi.
        #expect(try warnings([banner("a", [(.all, "onWifi=true")]), banner("b", [(.any, "onWifi=false")])]).isEmpty)
    }

    /// 10. Priority: a banner is left out where a higher one qualifies on every device it does;
    /// where Herald cannot prove that, lint says the priority is not honoured.
    @Test func priorityLeavesOutDominatedBannersAndNamesTheRest() throws {
        var high = try banner("high", [(.all, "appVersionLessThan=3.0")])
        high.priority = 2
        let low = try banner("low", [(.all, "appVersionLessThan=2.5"), (.all, "onWifi=true")])  // implies high's conditions
        let site = SiteCompiler().compile([try tenant([high, low])], at: PublishFixture.at)
        let control = String(decoding: site.files.first { $0.path.description == "t/app/en/control.json" }?.bytes ?? [], as: UTF8.self)
        #expect(control.contains("\"high\"") && !control.contains("\"low\""))
        #expect(
            site.warnings.contains(
                "t/app [en]: banner low (priority 0) is left out of control.json: every device that qualifies for it also qualifies for "
                    + "high (priority 2), which those devices are shown instead, as priority says (Notable itself would pick one in "
                    + "dictionary order)"))
        #expect(site.warnings.contains("t/app/low is active but appears in no file: a banner of higher priority is published wherever it qualifies (see above)"))
        // Not implied (low can qualify off the version bound): both stay, and lint says so.
        let loose = try banner("low", [(.any, "onWifi=true"), (.any, "appVersionLessThan=9")])
        let both = try warnings([high, loose])
        #expect(both.count == 1)
        #expect(both.first?.hasSuffix("high's higher priority (2 > 0) is not honoured there: Herald leaves low out only where every device that qualifies for it also qualifies for high") == true)
        // Equal priorities: nothing is left out.
        var equal = high
        equal.priority = 0
        #expect(try warnings([equal, low]).count == 1)
    }

    @Test func bannerConditionsThatMeanSomethingElseOnTheDevice() throws {
        let zeroAll = try warnings([banner("a", [(.all, "lastDisplayMinimumLaunches=0")])])
        #expect(zeroAll == ["t/app/a: all.lastDisplayMinimumLaunches=0 is always true on a device (Notable counts the current launch before it checks, so the count is at least 1): it restricts nothing"])
        let zeroAny = try warnings([banner("a", [(.any, "lastDisplayMinimumLaunches=0"), (.any, "onWifi=true")])])
        #expect(zeroAny.first?.hasSuffix("the whole `any` group always holds, whatever its other conditions say") == true)
        // 2026-06-01 is 801,964,800 s after 2001-01-01.
        #expect(try warnings([banner("a", [(.all, "lastDisplayMinimumSeconds=801964799")])]).isEmpty)
        let never = try warnings([banner("a", [(.all, "lastDisplayMinimumSeconds=801964800")])])
        #expect(
            never == [
                "t/app/a: all.lastDisplayMinimumSeconds=801964800 (25.4 years) is met nowhere: Notable measures a banner never shown "
                    + "from its reference date, 2001-01-01, which is 801964800 s ago, and a banner shown before from its last display, so "
                    + "no device shows this banner (before 2026-06-01T00:00:01Z, when banners never shown start to meet it)"
            ])
        let versions = try warnings([banner("a", [(.all, "appVersionLessThan=2.10b1")])])
        #expect(versions == ["t/app/a: all.appVersionLessThan=2.10b1: devices order it above 2.10 and above 2.10.1 (numeric search compares \"b\" by character code), not below 2.10 as a pre-release"])
    }

    func tenant(_ campaigns: [CampaignSpec], locales: [String] = ["en"]) throws -> TenantSpec {
        let app = AppSpec(
            slug: try Slug("app"), name: "App", platform: .ios, bundleID: "com.a.b", defaultLocale: try LocaleTag("en"),
            locales: try locales.map { try LocaleTag($0) }, campaigns: campaigns)
        return TenantSpec(slug: try Slug("t"), name: "T", apps: [app])
    }

    func alert(_ key: String, _ messageKey: String, _ start: Date = PublishFixture.may, _ content: [String: AlertContent]? = nil) throws -> CampaignSpec {
        var byLocale: [LocaleTag: CampaignContent] = [:]
        for (locale, alert) in content ?? ["en": AlertContent(title: "t", message: "m")] { byLocale[try LocaleTag(locale)] = .alert(alert) }
        return CampaignSpec(
            key: try Slug(key), kind: .alert, name: key, status: .active, startsAt: start, messageKey: try MessageKey(messageKey), content: byLocale)
    }

    @Test func alertKeysThatWouldShowTheOlderMessageFirst() throws {
        let bad = try warnings([alert("newer", "A-promo", PublishFixture.may), alert("older", "b-promo", PublishFixture.may.addingTimeInterval(-86400))])
        #expect(bad.count == 1)
        #expect(bad.first?.contains("iNotify shows the older message first") == true)
        let good = try warnings([alert("older", "2026/04/30", PublishFixture.may.addingTimeInterval(-86400)), alert("newer", "2026/05/01", PublishFixture.may)])
        #expect(good.isEmpty)
        // 6. The 10th alert of a day, keyed -10 the old way, sorts before the 2nd.
        let tenth = try warnings([alert("second", "2026/05/01-2"), alert("tenth", "2026/05/01-10")])
        #expect(
            tenth == [
                "t/app: alert second (key 2026/05/01-2) is shown before tenth (key 2026/05/01-10), although 2026/05/01-10 is numbered "
                    + "after 2026/05/01-2: iNotify sorts keys as text, where 2026/05/01-10 comes first, so the older message is shown first"
            ])
        #expect(try warnings([alert("second", "2026/05/01-2"), alert("tenth", "2026/05/01-b10")]).isEmpty)
    }

    @Test func actionURLsAndButtonsAsDevicesShowThem() throws {
        // 3. A custom scheme: devices without the app show nothing at all.
        let custom = try warnings([alert("a", "k", PublishFixture.may, ["en": AlertContent(title: "t", message: "m", actionURL: try LinkURL("weather://tour"))])])
        #expect(custom == ["t/app/a [en]: ActionURL weather://tour has a custom scheme: devices without an app for it (or whose app does not list it in LSApplicationQueriesSchemes) show no alert at all, not even the next one"])
        #expect(try warnings([alert("a", "k", PublishFixture.may, ["en": AlertContent(title: "t", message: "m", actionURL: try LinkURL("https://x.example"))])]).isEmpty)
        // 8. Translations that show the default locale's button.
        let content = [
            "en": AlertContent(title: "Welcome", message: "Hi", actionURL: try LinkURL("https://x.example/tour"), actionButton: "Take the tour"),
            "de": AlertContent(title: "Willkommen", message: "Hallo"),
            "fr": AlertContent(title: "Bienvenue", message: "Salut", actionButton: "Visiter"),
        ]
        let site = SiteCompiler().compile([try tenant([alert("welcome", "k", PublishFixture.may, content)], locales: ["en", "de", "fr", "es"])], at: PublishFixture.at)
        // (The copy lint's own warnings, about the button's case, are CopyLintTests' business.)
        #expect(site.warnings.filter { !$0.contains("title case") } == ["t/app/welcome [de]: translated alerts show the en action button \"Take the tour\"; translate it with `herald campaign update welcome --app app --locale de --action-button …`"])
        let german = String(decoding: site.files.first { $0.path.description == "t/app/de/notifications.plist" }?.bytes ?? [], as: UTF8.self)
        #expect(german.contains("<string>https://x.example/tour</string>") && german.contains("<string>Take the tour</string>"))
    }

    @Test func plainHTTPStoryImagesAndCampaignsInNoFile() throws {
        let story = CampaignSpec(
            key: try Slug("s"), kind: .story, name: "S", status: .active,
            content: [try LocaleTag("en"): .story(StoryContent(pushText: "p", pages: [StoryPage(image: try HTTPURL("http://x.example/1.jpg"))]))])
        var ended = try banner("gone", [])
        ended.endsAt = PublishFixture.may
        var elsewhere = try banner("elsewhere", [])
        elsewhere.content = [try LocaleTag("fr"): elsewhere.content[try LocaleTag("en")]!]
        elsewhere.locales = [try LocaleTag("fr")]
        let found = try warnings([story, ended, elsewhere])
        #expect(found.contains { $0.contains("image http://x.example/1.jpg is not https") })
        #expect(found.contains { $0.contains("t/app/gone is active but appears in no file: its schedule is not running") })
        #expect(found.contains { $0.contains("t/app/elsewhere is active but appears in no file: no content reaches any locale") })
    }
}

@Suite struct SHA256Tests {
    @Test func standardVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths either side of the padding boundaries; digests from Python's hashlib
    /// (`hashlib.sha256(bytes(i % 251 for i in range(n))).hexdigest()`).
    @Test func paddingBoundaries() {
        let expected: [(Int, String)] = [
            (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
            (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
            (57, "2fe741af801cc238602ac0ec6a7b0c3a8a87c7fc7d7f02a3fe03d1c12eac4d8f"),
            (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
            (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
            (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
            (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
            (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
            (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
        ]
        for (count, digest) in expected {
            #expect(SHA256.hex((0..<count).map { UInt8($0 % 251) }) == digest, "\(count) bytes")
        }
    }
}

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

        for (locale, title, button) in [("en", "Tom & Jerry <\"quoted\"> 'single'", "Go"), ("de", "Hallo", nil), ("pt-BR", "Tom & Jerry <\"quoted\"> 'single'", "Go")] {
            let data = Data((files["acme/weather/\(locale)/notifications.plist"] ?? "").utf8)
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: [String: String]])
            #expect(plist.keys.sorted() == ["2026/05/01"], "\(locale)")  // not the future, ended or paused ones
            #expect(plist["2026/05/01"]?["Title"] == title)
            #expect(plist["2026/05/01"]?["ActionButton"] == button)
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

    @Test func overlappingBannersAreNamed() throws {
        let overlap = try warnings([banner("a", [(.all, "appVersionLessThan=2.0")]), banner("b", [(.any, "onWifi=true")])])
        #expect(overlap.count == 1)
        #expect(overlap.first?.contains("[en]: banners a, b can be eligible") == true)
        #expect(overlap.first?.contains("all.appVersionLessThan=2.0") == true)
        // Many overlapping banners: one warning naming the group, not one per pair.
        let many = try warnings((1...6).map { try banner("b\($0)", []) })
        #expect(many.count == 1)
        #expect(many.first?.contains("b1, b2, b3, b4 and 2 more") == true)
        let exclusive = try warnings([banner("a", [(.all, "onWifi=true")]), banner("b", [(.all, "onWifi=false")])])
        #expect(exclusive.isEmpty)
    }

    @Test func alertKeysThatWouldShowTheOlderMessageFirst() throws {
        func alert(_ key: String, _ messageKey: String, _ start: Date) throws -> CampaignSpec {
            CampaignSpec(
                key: try Slug(key), kind: .alert, name: key, status: .active, startsAt: start, messageKey: try MessageKey(messageKey),
                content: [try LocaleTag("en"): .alert(AlertContent(title: "t", message: "m"))])
        }
        let bad = try warnings([alert("newer", "A-promo", PublishFixture.may), alert("older", "b-promo", PublishFixture.may.addingTimeInterval(-86400))])
        #expect(bad.count == 1)
        #expect(bad.first?.contains("iNotify shows the older message first") == true)
        let good = try warnings([alert("older", "2026/04/30", PublishFixture.may.addingTimeInterval(-86400)), alert("newer", "2026/05/01", PublishFixture.may)])
        #expect(good.isEmpty)
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

import Foundation
import Testing

@testable import HeraldCore

@Suite struct CampaignsDocumentTests {
    static let sample = """
        version: 1
        tenants:
        - slug: acme
          name: Acme Corp
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.acme.weather
            defaultLocale: en
            locales: [pt-br, de]
            baseUrl: https://static.example.com/acme/weather
            campaigns:
            - key: spring-sale
              kind: banner
              name: Spring sale
              status: active
              startsAt: 2026-05-01T00:00:00Z
              priority: 10
              conditions:
                all: {appVersionLessThan: "2.4.0", flagNotSet: hideSpringSale}
                any: {onWifi: true, lastDisplayMinimumLaunches: 5}
              content:
                en:
                  entry: banner
                  views:
                  - {id: banner, file: "https://cdn.example.com/b.html", height: 88, origin: top}
                  - {id: full, html: "<p>Sale & more</p>"}
            - key: welcome
              kind: alert
              name: Welcome
              messageKey: 2026/05/01
              conditions:
                all: {minAppVersion: "1.0"}
              content:
                en: {title: Hello, message: "Welcome <you>", actionUrl: "weather://tour", actionButton: Go}
            - key: tour
              kind: story
              name: Tour
              locales: [en]
              content:
                en: {pushText: New, pages: [{image: "https://cdn.example.com/1.jpg", duration: 4.5}]}

        """

    func parse(_ text: String) throws -> CampaignsDocument {
        switch CampaignsDocument.parse(text, fileName: "f.yaml") {
        case .success(let document): return document
        case .failure(let errors): throw errors
        }
    }

    @Test func readsEveryFieldOfAHandWrittenFile() throws {
        let document = try parse(Self.sample)
        let app = try #require(document.tenants.first?.apps.first)
        #expect(document.tenants.first?.name == "Acme Corp")
        #expect(app.locales.map(\.rawValue) == ["de", "en", "pt-BR"])  // default added, canonical, sorted
        #expect(app.baseURL?.rawValue == "https://static.example.com/acme/weather")
        #expect(app.campaigns.map(\.key.rawValue) == ["spring-sale", "tour", "welcome"])
        let banner = app.campaigns[0]
        #expect(banner.status == .active)
        #expect(banner.priority == 10)
        #expect(banner.startsAt == Date(timeIntervalSince1970: 1_777_593_600))
        #expect(banner.conditions.value(group: .all, type: .appVersionLessThan) == .version(try Version("2.4.0")))
        #expect(banner.conditions.value(group: .any, type: .onWifi) == .bool(true))
        #expect(banner.conditions.value(group: .any, type: .lastDisplayMinimumLaunches) == .integer(5))
        guard case .banner(let content)? = banner.content[try LocaleTag("en")] else {
            Issue.record("no banner content")
            return
        }
        #expect(content.views.map(\.height) == [88, nil])
        #expect(content.views[1].source == .html("<p>Sale & more</p>"))
        let alert = app.campaigns[2]
        #expect(alert.messageKey?.rawValue == "2026/05/01")
        #expect(alert.status == .draft)
        let story = app.campaigns[1]
        #expect(story.locales?.map(\.rawValue) == ["en"])
        guard case .story(let tour)? = story.content[try LocaleTag("en")] else {
            Issue.record("no story content")
            return
        }
        #expect(tour.pages.first?.duration == 4.5)
    }

    @Test func jsonWorksToo() throws {
        let json = """
            {"version": 1, "tenants": [{"slug": "acme", "name": "Acme", "apps": [{"slug": "w", "name": "W", "platform": "macos",
              "bundleId": "com.a.w", "defaultLocale": "en", "campaigns": [{"key": "hi", "kind": "alert", "name": "Hi",
              "content": {"en": {"title": "T", "message": "M"}}}]}]}]}
            """
        let document = try parse(json)
        #expect(document.tenants[0].apps[0].platform == .macos)
        #expect(document.tenants[0].apps[0].campaigns[0].content.count == 1)
    }

    @Test func reportsEveryProblemWithItsPath() {
        let broken = """
            version: 1
            tenants:
            - slug: Acme
              name: Acme
              apps:
              - slug: weather
                name: Weather
                platform: android
                bundleId: com.acme.weather
                defaultLocale: en
                colour: blue
                campaigns:
                - key: sale
                  kind: banner
                  name: Sale
                  conditions:
                    all: {minAppVersion: "1.0", onWifi: maybe}
                  content:
                    en:
                      entry: nope
                      views:
                      - {id: main, file: "ftp://x/y"}
                - key: hello
                  kind: alert
                  name: Hello
                  content:
                    xx-yy-zz: {title: a, message: b}
                    en: {title: a}

            """
        guard case .failure(let errors) = CampaignsDocument.parse(broken, fileName: "broken.yaml") else {
            Issue.record("a broken file parsed")
            return
        }
        let lines = errors.errors.map(\.description)
        let expected = [
            "broken.yaml: tenants[0].slug: invalid slug \"Acme\"",
            "broken.yaml: tenants[0].apps[0].platform: unknown platform \"android\"",
            "broken.yaml: tenants[0].apps[0]: unknown key \"colour\"",
            "broken.yaml: tenants[0].apps[0].campaigns[0].conditions.all.minAppVersion: banner campaigns do not support condition \"minAppVersion\"",
            "broken.yaml: tenants[0].apps[0].campaigns[0].conditions.all.onWifi: condition onWifi takes true or false",
            "broken.yaml: tenants[0].apps[0].campaigns[0].content.en.views[0].file: invalid URL \"ftp://x/y\"",
            "broken.yaml: tenants[0].apps[0].campaigns[1].content.xx-yy-zz: invalid locale \"xx-yy-zz\"",
            "broken.yaml: tenants[0].apps[0].campaigns[1].content.en: alert content is missing message",
        ]
        for prefix in expected {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "missing: \(prefix)\nin:\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.allSatisfy { $0.contains("(line ") }, "every problem points at its line")
    }

    @Test func unsupportedVersionSaysWhichAreSupported() {
        guard case .failure(let errors) = CampaignsDocument.parse("version: 7\ntenants: []\n", fileName: "f.yaml") else {
            Issue.record("version 7 parsed")
            return
        }
        #expect(errors.errors.first?.message.contains("unsupported version 7") == true)
        #expect(errors.errors.first?.message.contains("version(s) 1") == true)
    }

    @Test func yamlRoundTripsByteForByte() throws {
        let document = try parse(Self.sample)
        let yaml = document.yaml()
        let again = try parse(yaml)
        #expect(again == document)
        #expect(again.yaml() == yaml)
        #expect(yaml.contains("          appVersionLessThan: \"2.4.0\"\n"))
        #expect(yaml.contains("    locales: [de, en, pt-BR]\n"))
        #expect(yaml.contains("            height: 88\n"))
        #expect(yaml.contains("            duration: 4.5\n"))
    }

    /// Strings YAML would read as something else stay strings through yaml() and parse.
    @Test(arguments: [
        "true", "no", "on", "null", "~", "5", "2.4.0", "1e3", "0x1F", "2026-05-01", "a: b", "# not a comment", "- dash",
        " leading space", "trailing:", "quote \"inside\"", "multi\nline", "tab\there", "'single'", "{braces}", "[list]",
        "&anchor", "*alias", "!tag", "%percent", "@at", "`tick`", "|pipe", ">fold", "emoji 🎉", "مرحبا", "",
    ])
    func trickyStringsStayStrings(_ text: String) throws {
        guard !text.isEmpty else { return }  // names must not be empty; covered elsewhere
        let alert = CampaignSpec(
            key: try Slug("k"), kind: .alert, name: text, messageKey: try MessageKey("2026/01/01"),
            content: [try LocaleTag("en"): .alert(AlertContent(title: text, message: text, actionButton: nil))])
        let app = AppSpec(
            slug: try Slug("a"), name: text, platform: .ios, bundleID: "com.a.b", defaultLocale: try LocaleTag("en"),
            locales: [try LocaleTag("en")], campaigns: [alert])
        let document = CampaignsDocument(tenants: [TenantSpec(slug: try Slug("t"), name: text, apps: [app])])
        let yaml = document.yaml()
        let back = try parse(yaml)
        #expect(back == document, "\(yaml)")
        #expect(back.yaml() == yaml)
    }
}

import Foundation
import PropertyBased
import Testing

@testable import HeraldCore

/// Hostile and unusual campaigns files: repeated keys, text YAML reads differently from JSON,
/// alias bombs, huge lines. Every one is refused with its place in words, or read exactly.
@Suite struct CampaignsFileHardeningTests {
    static func campaignsFile(conditions: String) -> String {
        """
        version: 1
        tenants:
        - slug: acme
          name: Acme
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.acme.weather
            defaultLocale: en
            campaigns:
            - key: sale
              kind: banner
              name: Sale
              conditions:
        \(conditions)
              content:
                en: {entry: a, views: [{id: a, file: "https://x.example.com/a"}]}

        """
    }

    func problems(_ text: String) -> [String] {
        switch CampaignsDocument.parse(text, fileName: "f.yaml") {
        case .success: return []
        case .failure(let errors): return errors.errors.map(\.description)
        }
    }

    // MARK: Item 7: a condition type given twice in one group

    @Test(arguments: [
        "        all:\n          flagNotSet: a\n          flagNotSet: b",
        "        all: {flagNotSet: a, flagNotSet: b}",
        "        all:\n          flagNotSet: a\n          \"flagNotSet\": b",
        "        all:\n          'flagNotSet': a\n          !!str flagNotSet: b",
        "        all:\n          ? flagNotSet\n          : a\n          flagNotSet: b",
        "        all: {\"flagNotSet\": \"a\", \"flagNotSet\": \"b\", \"flagNotSet\": \"c\"}",
        "        any:\n          onWifi: true\n          onWifi: false",
    ])
    func aConditionTypeGivenTwiceInAGroupIsRefusedAtItsPath(_ conditions: String) {
        let found = problems(Self.campaignsFile(conditions: conditions))
        let group = conditions.contains("any") ? "any" : "all"
        let type = conditions.contains("onWifi") ? "onWifi" : "flagNotSet"
        #expect(
            found.contains { $0.hasPrefix("f.yaml: tenants[0].apps[0].campaigns[0].conditions.\(group): \(type) is given twice") },
            "\(found)")
        #expect(found.allSatisfy { $0.count < 300 }, "\(found)")
    }

    @Test func aConditionListThatRepeatsATypeIsRefused() {
        let found = problems(Self.campaignsFile(conditions: "        all: [{flagNotSet: a}, {flagNotSet: b}]"))
        #expect(found.contains { $0.contains("conditions.all: expected a mapping") }, "\(found)")
    }

    @Test func jsonObjectsWithARepeatedKeyAreRefusedAtTheirPath() {
        let json = """
            {"version": 1, "tenants": [{"slug": "acme", "name": "Acme", "apps": [{"slug": "weather", "name": "Weather",
             "platform": "ios", "bundleId": "com.acme.weather", "defaultLocale": "en", "campaigns": [{"key": "sale",
             "kind": "banner", "name": "Sale", "name": "Sale again",
             "conditions": {"any": {"onWifi": true}, "all": {"flagNotSet": "a", "flagNotSet": "b"}},
             "content": {"en": {"entry": "a", "views": [{"id": "a", "file": "https://x.example.com/a"}]}}}]}]}]}
            """
        let found = problems(json)
        #expect(found.contains("f.yaml: tenants[0].apps[0].campaigns[0]: name is given twice; give each key once (line 3)"), "\(found)")
        #expect(found.contains { $0.hasPrefix("f.yaml: tenants[0].apps[0].campaigns[0].conditions.all: flagNotSet is given twice") }, "\(found)")
    }

    @Test func aLocaleListedTwiceIsRefused() {
        let text = Self.campaignsFile(conditions: "        all: {flagNotSet: a}").replacingOccurrences(
            of: "defaultLocale: en\n", with: "defaultLocale: en\n    locales: [de, en, de]\n")
        #expect(problems(text).contains { $0.contains("apps[0].locales[2]: locale de is given twice") }, "\(problems(text))")
    }

    // MARK: Item 8: text that YAML and JSON read differently

    static func alertFile(title: String) -> String {
        """
        {"version": 1, "tenants": [{"slug": "acme", "name": "Acme", "apps": [{"slug": "weather", "name": "Weather",
         "platform": "ios", "bundleId": "com.acme.weather", "defaultLocale": "en", "campaigns": [{"key": "w",
         "kind": "alert", "name": "W", "messageKey": "2026/01/01", "content": {"en": {"title": \(title), "message": "m"}}}]}]}]}
        """
    }

    /// The alert title read from a JSON file that gives it as `json` (a JSON string literal).
    func title(_ json: String) throws -> String? {
        switch CampaignsDocument.parse(Self.alertFile(title: json), fileName: "f.json") {
        case .failure(let errors): throw errors
        case .success(let document):
            guard case .alert(let alert)? = document.tenants.first?.apps.first?.campaigns.first?.content.values.first else { return nil }
            return alert.title
        }
    }

    @Test func surrogatePairEscapesAsPythonWritesThemAreRead() throws {
        #expect(try title(#""Party \ud83c\udf89 \uD83D\uDE00!""#) == "Party 🎉 😀!")
        #expect(try title(#""\\ud83c stays text""#) == #"\ud83c stays text"#)
    }

    @Test func aLoneSurrogateIsRefusedInWords() {
        let found = problems(Self.alertFile(title: #""half \ud83c of it""#))
        #expect(found.count == 1)
        #expect(found.first?.contains("line 3, column") == true, "\(found)")
        #expect(found.first?.contains("\\ud83c is half of a UTF-16 surrogate pair") == true, "\(found)")
    }

    @Test func rawCharactersJSONAllowsInStringsAreReadAsThemselves() throws {
        for character in ["\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{A0}"] {
            #expect(try title("\"a\(character)b\"") == "a\(character)b", "U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16))")
        }
    }

    @Test func rawLineSeparatorsInYAMLAreRefusedNotFolded() {
        for character in ["\u{85}", "\u{2028}", "\u{2029}"] {
            let text = Self.campaignsFile(conditions: "        all: {flagNotSet: a}").replacingOccurrences(
                of: "name: Sale", with: "name: Sale\(character)more")
            let found = problems(text)
            #expect(found.count == 1 && found[0].contains("line 14, column 17: a raw U+"), "\(found)")
            #expect(found.first?.contains("which YAML reads as a line break") == true)
        }
    }

    @Test func aNULInAnyValueIsRefusedNotCut() {
        let text = Self.campaignsFile(conditions: "        all: {flagNotSet: a}").replacingOccurrences(
            of: "file: \"https://x.example.com/a\"", with: "html: \"<p>a\\0b</p>\"")
        let found = problems(text)
        #expect(found.contains { $0.contains("content.en.views[0].html: contains a NUL character (U+0000) at character 5") }, "\(found)")
        #expect(problems(Self.alertFile(title: #""a\u0000b""#)).contains { $0.contains("title: contains a NUL character") })
    }

    /// Every character the database accepts in a text field, drawn from each class that YAML
    /// or JSON treats specially, survives yaml() → parse in every text field.
    @Test func everyCharacterTheDatabaseAcceptsRoundTripsInEveryTextField() async {
        await propertyCheck(count: 300, input: Self.storedText, Self.storedText, Self.storedText) { a, b, c in
            let document = try Self.document(texts: [a, b, c])
            let yaml = document.yaml()
            switch CampaignsDocument.parse(yaml, fileName: "f.yaml") {
            case .failure(let errors):
                Issue.record("refused its own export: \(errors)\n\(yaml)")
            case .success(let back):
                #expect(back == document, "\(yaml)")
                #expect(back.yaml() == yaml)
            }
        }
    }

    // MARK: Items 13 and 14: size

    @Test func anAliasBombShapedLikeACampaignsFileIsRefusedQuickly() {
        let pages = Array(repeating: "*page", count: 999).joined(separator: ", ")
        let campaigns = Array(repeating: "*campaign", count: 999).joined(separator: ", ")
        let apps = Array(repeating: "*app", count: 999).joined(separator: ", ")
        let text = """
            version: 1
            x-page: &page {image: "https://cdn.example.com/1.jpg", title: hello}
            x-campaign: &campaign {key: c, kind: story, name: C, content: {en: {pushText: hi, pages: [\(pages)]}}}
            x-app: &app {slug: a, name: A, platform: ios, bundleId: com.a.b, defaultLocale: en, campaigns: [\(campaigns)]}
            tenants: [{slug: t, name: T, apps: [\(apps)]}]

            """
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = problems(text) }
        #expect(found.count == 1 && found[0].contains("expands to more than"), "\(found)")
        #expect(elapsed < .seconds(10))
    }

    @Test func errorsQuoteABoundedExcerptOfAHugeLine() {
        let huge = String(repeating: "A", count: 1_000_000)
        for text in [
            #"{"version": 1, "tenants": [{"slug": "acme", "name": ""# + huge + "\u{1}\"}]}",
            #"{"version": 1, "tenants": [{"slug": "acme", "name": ""# + huge + #"" "x": 1}]}"#,
            "version: 1\ntenants:\n- slug: acme\n  name: Acme\n  " + huge + ": 1\n",
            "version: 1\ntenants:\n- slug: acme\n  name: Acme\n  apps: " + huge + "\n",
            "version: 1\ntenants:\n- slug: \"" + huge + "\"\n  name: Acme\n",
        ] {
            let found = problems(text)
            #expect(!found.isEmpty)
            #expect(found.allSatisfy { $0.utf8.count < 600 }, "\(found.map { $0.prefix(600) })")
        }
    }

    @Test func aControlCharacterYAMLCannotCarryIsNamedWithItsPlace() {
        let found = problems("version: 1\ntenants:\n- slug: acme\n  name: \"a\u{7F}b\"\n")
        #expect(found == [#"f.yaml: line 4, column 11: U+007F (DEL) cannot appear in YAML or JSON text (control characters are not allowed); inside double quotes write it as \u007F; near "  name: "a‹U+007F›b"""#], "\(found)")
    }
}

extension CampaignsFileHardeningTests {
    /// Characters of every class the database's text columns accept (all but NUL, the C0
    /// controls XML cannot carry, U+FFFE and U+FFFF), weighted towards the awkward ones.
    static let storedText: Generator<String, AnySequence<Any>> = {
        let classes: [[Unicode.Scalar]] = [
            Array("abcXYZ019 .,;é".unicodeScalars),
            Array("-?:,[]{}#&*!|>'\"%@`~\\/=".unicodeScalars),  // YAML indicators, quotes, escapes
            ["\t", "\n", "\r"],
            ["\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}"],  // DEL, C1 (NEL), NBSP
            ["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{200E}", "\u{202E}", "\u{2066}"],  // separators, BOM, bidi
            ["\u{301}", "\u{E000}", "\u{E001}", Unicode.Scalar(UInt32(0xFDD0)) ?? "?", "\u{FFFD}"],  // combining, private use, noncharacters
            ["🎉", "\u{1F600}", "\u{10FFFF}", "漢", "ش"],
        ]
        let all = classes.flatMap { $0 }
        return Gen.int(in: 0...(all.count - 1)).array(of: 1...12).map { indices in
            var text = String.UnicodeScalarView()
            for index in indices { text.append(all[index]) }
            // Names must hold something visible; fields are never empty.
            return String(text) + "x"
        }
        .eraseToAny()
    }()

    /// One campaign of each kind with the texts in every text field.
    static func document(texts: [String]) throws -> CampaignsDocument {
        let (a, b, c) = (texts[0], texts[1], texts[2])
        let en = try LocaleTag("en")
        var conditions = ConditionSet()
        let flag = String(String.UnicodeScalarView(a.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })) + "f"
        conditions.set(try Condition.parse(group: .all, assignment: "flagNotSet=\(flag)", kind: .banner))
        let banner = CampaignSpec(
            key: try Slug("banner"), kind: .banner, name: a, conditions: conditions,
            content: [en: .banner(BannerContent(entry: try Slug("v"), views: [BannerView(id: try Slug("v"), source: .html(b + c))]))])
        let alert = CampaignSpec(
            key: try Slug("alert"), kind: .alert, name: b, messageKey: try MessageKey("2026/01/01"),
            content: [en: .alert(AlertContent(title: a, message: b, actionURL: try LinkURL("app://x"), actionButton: c))])
        let story = CampaignSpec(
            key: try Slug("story"), kind: .story, name: c,
            content: [
                en: .story(
                    StoryContent(
                        pushTitle: a, pushText: b,
                        pages: [
                            StoryPage(image: try HTTPURL("https://x.example.com/1.jpg"), link: try LinkURL("app://p"), buttonTitle: c, title: a, subtitle: b)
                        ]))
            ])
        let app = AppSpec(
            slug: try Slug("app"), name: c, platform: .ios, bundleID: "com.example.app", defaultLocale: en, locales: [en],
            campaigns: [banner, alert, story])
        return CampaignsDocument(tenants: [TenantSpec(slug: try Slug("tenant"), name: a, apps: [app])])
    }
}

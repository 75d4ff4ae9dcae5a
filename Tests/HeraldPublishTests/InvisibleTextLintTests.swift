import Foundation
import HeraldCore
import HeraldPublish
import Testing

/// Text that reads otherwise than it holds: bidirectional overrides, zero-width characters and
/// C1 controls in any published text are found and shown escaped (`‹U+202E›`).
@Suite struct InvisibleTextLintTests {
    static let reversed = "Sale \u{202E}evil.exe\u{202C} ok"

    static func app(_ campaigns: [CampaignSpec]) throws -> AppSpec {
        AppSpec(
            slug: try Slug("weather"), name: "Weather", platform: .ios, bundleID: "com.a.b", defaultLocale: try LocaleTag("en"),
            locales: [try LocaleTag("en")], campaigns: campaigns)
    }

    static var campaigns: [CampaignSpec] {
        get throws {
            let en = try LocaleTag("en")
            return [
                CampaignSpec(
                    key: try Slug("alert"), kind: .alert, name: "A", status: .active, messageKey: try MessageKey("2026/05/01"),
                    content: [en: .alert(AlertContent(title: reversed, message: "Line\u{0085}break", actionURL: try LinkURL("app://x"), actionButton: "Go\u{200B}"))]),
                CampaignSpec(
                    key: try Slug("banner"), kind: .banner, name: "B", status: .active,
                    content: [en: .banner(BannerContent(entry: try Slug("v"), views: [BannerView(id: try Slug("v"), source: .html("<p>Pay\u{2066}now\u{2069}</p>"))]))]),
                CampaignSpec(
                    key: try Slug("story"), kind: .story, name: "S", status: .active,
                    content: [en: .story(StoryContent(pushText: "New", pages: [StoryPage(image: try HTTPURL("https://x.example/1.jpg"), title: "Hi\u{200D}there")]))]),
                CampaignSpec(
                    key: try Slug("clean"), kind: .alert, name: "C", status: .active, messageKey: try MessageKey("2026/05/02"),
                    content: [en: .alert(AlertContent(title: "Grüße, مرحبا, こんにちは", message: "Tab\tand\nline breaks are fine"))]),
            ]
        }
    }

    @Test func everyPublishedTextIsLinted() throws {
        let findings = CopyLint.findings(tenant: try Slug("t"), app: try Self.app(Self.campaigns)).filter { $0.rule == .invisibleText }
        #expect(findings.map { "\($0.campaign) \($0.field)" } == ["alert title", "alert message", "alert action button", "banner view v", "story page 1 title"])
        let title = try #require(findings.first)
        #expect(
            title.description
                == "t/weather/alert [en] title: holds characters that are not seen but change how it reads (‹U+202E› right-to-left override, "
                + "‹U+202C› pop directional formatting): “Sale ‹U+202E›evil.exe‹U+202C› ok”; remove them, or write the text in its own direction")
        #expect(findings[1].message.contains("‹U+0085› C1 control character"))
        #expect(findings[2].message.contains("‹U+200B› zero-width space"))
        #expect(findings[3].message.contains("‹U+2066› left-to-right isolate, ‹U+2069› pop directional isolate"))
        #expect(findings[4].message.contains("‹U+200D› zero-width joiner"))
        // Publish warns of the same (its live campaigns).
        let site = SiteCompiler(siteBaseURL: try HTTPURL("https://cdn.example.com")).compile(
            [TenantSpec(slug: try Slug("t"), name: "T", apps: [try Self.app(Self.campaigns)])], at: Date())
        #expect(site.warnings.filter { $0.contains("‹U+") }.count == 5)
        // Nothing is shown of the characters themselves.
        for finding in findings {
            #expect(!finding.description.unicodeScalars.contains(where: InvisibleText.isInvisible), "\(finding)")
        }
    }
}

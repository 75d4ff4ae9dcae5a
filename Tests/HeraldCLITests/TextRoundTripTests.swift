import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Testing

/// Text the database accepts goes through apply → export → apply → export unchanged: the
/// database holds exactly what the file said, and the second export is byte-identical.
@Suite struct TextRoundTripTests {
    /// Characters of every class the database's text columns accept (all but NUL, the C0
    /// controls XML cannot carry, U+FFFE and U+FFFF), weighted towards the awkward ones.
    static let alphabet: [Unicode.Scalar] = {
        var scalars = Array("abXZ09 .,;é-?:[]{}#&*!|>'\"%@`~\\/=".unicodeScalars)
        scalars += ["\t", "\n", "\r", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}"]
        scalars += ["\u{200E}", "\u{202E}", "\u{2066}", "\u{301}", "\u{E000}", "\u{E001}", "\u{FFFD}", "🎉", "\u{10FFFF}", "漢"]
        scalars += [Unicode.Scalar(UInt32(0xFDD0)) ?? "?"]
        return scalars
    }()

    /// A small deterministic generator (SplitMix64): the same strings on every run.
    struct Random {
        var generator: SplitMix
        mutating func next(below bound: Int) -> Int { generator.int(0...(bound - 1)) }

        mutating func text(_ allowed: (Unicode.Scalar) -> Bool = { _ in true }) -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(1 + next(below: 14)) {
                let scalar = TextRoundTripTests.alphabet[next(below: TextRoundTripTests.alphabet.count)]
                if allowed(scalar) { scalars.append(scalar) }
            }
            // Required fields need something visible; starting with a mark or a separator is fine.
            return String(scalars) + "x"
        }
    }

    /// The fields of one tenant, by the column that stores them.
    struct Texts {
        var tenant, app, banner, alert, story, title, message, button, pushTitle, pushText, pageButton, pageTitle,
            pageSubtitle, html, flag: String

        init(_ random: inout Random) {
            tenant = random.text()
            app = random.text()
            banner = random.text()
            alert = random.text()
            story = random.text()
            title = random.text()
            message = random.text()
            button = random.text()
            pushTitle = random.text()
            pushText = random.text()
            pageButton = random.text()
            pageTitle = random.text()
            pageSubtitle = random.text()
            html = random.text()
            flag = random.text { $0.value >= 0x20 && $0.value != 0x7F }
        }

        /// Every awkward character in every field, once.
        init(everything: String) {
            (tenant, app, banner, alert, story, title, message, button) = (everything, everything, everything, everything, everything, everything, everything, everything)
            (pushTitle, pushText, pageButton, pageTitle, pageSubtitle, html) = (everything, everything, everything, everything, everything, everything)
            flag = String(String.UnicodeScalarView(everything.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        }

        /// The campaigns file, as JSON (Foundation's writer: control characters escaped, the rest raw).
        func json(tenantSlug: String) throws -> String {
            let en: [String: Any] = ["en": ["title": title, "message": message, "actionUrl": "app://x", "actionButton": button]]
            let campaigns: [[String: Any]] = [
                [
                    "key": "banner", "kind": "banner", "name": banner, "conditions": ["all": ["flagNotSet": flag]],
                    "content": ["en": ["entry": "v", "views": [["id": "v", "html": html]]]],
                ],
                ["key": "alert", "kind": "alert", "name": alert, "messageKey": "2026/01/01", "content": en],
                [
                    "key": "story", "kind": "story", "name": story,
                    "content": [
                        "en": [
                            "pushTitle": pushTitle, "pushText": pushText,
                            "pages": [
                                [
                                    "image": "https://cdn.example.com/1.jpg", "buttonTitle": pageButton, "link": "app://p",
                                    "title": pageTitle, "subtitle": pageSubtitle,
                                ]
                            ],
                        ]
                    ],
                ],
            ]
            let document: [String: Any] = [
                "version": 1,
                "tenants": [
                    [
                        "slug": tenantSlug, "name": tenant,
                        "apps": [
                            [
                                "slug": "app", "name": app, "platform": "ios", "bundleId": "com.example.app", "defaultLocale": "en",
                                "campaigns": campaigns,
                            ]
                        ],
                    ]
                ],
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        }

        /// What the database must hold, column by column (read by `stored`).
        var expected: [String] {
            [tenant, app, alert, banner, story, title, message, button, pushTitle, pushText, pageButton, pageTitle, pageSubtitle, html, flag]
        }
    }

    /// The stored texts of tenant `slug`, read as the superuser in `Texts.expected`'s order.
    static func stored(_ database: ConnectionConfiguration, tenant slug: String) throws -> [String] {
        let connection = try Connection(configuration: database)
        let row = try connection.query(
            """
            SELECT t.name AS tenant, a.name AS app,
                   (SELECT name FROM campaigns WHERE tenant_id = t.id AND key = 'alert') AS alert,
                   (SELECT name FROM campaigns WHERE tenant_id = t.id AND key = 'banner') AS banner,
                   (SELECT name FROM campaigns WHERE tenant_id = t.id AND key = 'story') AS story,
                   ac.title, ac.message, ac.action_button, sc.push_title, sc.push_text,
                   sp.button_title, sp.title AS page_title, sp.subtitle, bv.inline_html,
                   (SELECT value #>> '{}' FROM campaign_conditions WHERE tenant_id = t.id AND type = 'flagNotSet') AS flag
            FROM tenants t JOIN apps a ON a.tenant_id = t.id
            JOIN alert_contents ac ON ac.tenant_id = t.id
            JOIN story_contents sc ON sc.tenant_id = t.id
            JOIN story_pages sp ON sp.tenant_id = t.id
            JOIN banner_views bv ON bv.tenant_id = t.id
            WHERE t.slug = $1
            """, [slug])
        guard row.count == 1 else { return [] }
        return try [
            "tenant", "app", "alert", "banner", "story", "title", "message", "action_button", "push_title", "push_text",
            "button_title", "page_title", "subtitle", "inline_html", "flag",
        ].map { try row[0].decode($0, as: String.self) }
    }

    @Test func everyCharacterTheDatabaseAcceptsSurvivesApplyAndExport() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database)
            var random = Random(generator: SplitMix(seed: 2026))
            let everything = String(String.UnicodeScalarView(Self.alphabet)) + "x"
            let rounds = [Texts(everything: everything)] + (1...8).map { _ in Texts(&random) }
            for (index, texts) in rounds.enumerated() {
                let slug = "t\(index)"
                let applied = try herald.run(["apply", "-f", "-"], stdin: try texts.json(tenantSlug: slug))
                #expect(applied.status == 0, "\(applied)")
                #expect(try Self.stored(database, tenant: slug) == texts.expected, "round \(index)")
                let exported = try herald.succeed(["export", "--tenant", slug]).stdout
                let again = try herald.succeed(["apply", "-f", "-"], stdin: exported)
                #expect(again.stdout == "no changes\n", "round \(index): \(again)\n\(exported)")
                #expect(try herald.succeed(["export", "--tenant", slug]).stdout == exported, "round \(index)")
                #expect(try Self.stored(database, tenant: slug) == texts.expected, "round \(index)")
            }
        }
    }
}

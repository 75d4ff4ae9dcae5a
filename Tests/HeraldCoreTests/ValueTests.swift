import Foundation
import PropertyBased
import Testing

@testable import HeraldCore

@Suite struct SlugTests {
    @Test(arguments: ["a", "acme", "weather-2", "0day", String(repeating: "a", count: 63)])
    func accepts(_ raw: String) throws {
        #expect(try Slug(raw).rawValue == raw)
    }

    @Test(arguments: ["", "Acme", "-lead", "with space", "under_score", "dot.ted", "é", String(repeating: "a", count: 64)])
    func refusesWithTheValueAndTheRule(_ raw: String) {
        let error = #expect(throws: ValidationError.self) { try Slug(raw) }
        #expect(error?.message.contains("\"\(raw)\"") == true)
        #expect(error?.message.contains("lowercase letters, digits and hyphens") == true)
    }

    /// Accepts exactly `[a-z0-9][a-z0-9-]{0,62}`, checked against a regular expression.
    @Test func acceptsExactlyTheRegex() async throws {
        let regex = try NSRegularExpression(pattern: "^[a-z0-9][a-z0-9-]{0,62}$")
        await propertyCheck(count: 500, input: strings(from: "az09-_A .é", length: 0...70)) { raw in
            let matches = regex.firstMatch(in: raw, range: NSRange(raw.startIndex..., in: raw)) != nil
            #expect(Slug.isValid(raw) == matches, "\(raw)")
        }
    }
}

@Suite struct LocaleTagTests {
    @Test(arguments: [
        ("en", "en"), ("EN", "en"), ("pt-br", "pt-BR"), ("pt_BR", "pt-BR"), ("ZH-hant-tw", "zh-Hant-TW"),
        ("es-419", "es-419"), ("sr-latn", "sr-Latn"), ("fil", "fil"),
    ])
    func canonicalCase(_ raw: String, _ canonical: String) throws {
        #expect(try LocaleTag(raw).rawValue == canonical)
    }

    @Test(arguments: ["", "e", "english", "pt-", "pt-BRA", "en-US-x", "12", "de DE", "zh-Hant-TW-x"])
    func refuses(_ raw: String) {
        let error = #expect(throws: ValidationError.self) { try LocaleTag(raw) }
        #expect(error?.message.contains("BCP 47") == true)
    }

    @Test func fallbackChains() throws {
        let en = try LocaleTag("en")
        #expect(try LocaleTag("pt-BR").fallbackChain(defaultLocale: en).map(\.rawValue) == ["pt-BR", "pt", "en"])
        #expect(try LocaleTag("pt").fallbackChain(defaultLocale: en).map(\.rawValue) == ["pt", "en"])
        #expect(try LocaleTag("en-GB").fallbackChain(defaultLocale: en).map(\.rawValue) == ["en-GB", "en"])
        #expect(en.fallbackChain(defaultLocale: en).map(\.rawValue) == ["en"])
        #expect(try LocaleTag("zh-Hant-TW").language.rawValue == "zh")
    }

    /// The byte-level parser says what the plain definition says, for any text: split on `-`
    /// or `_`, language of 2–3 ASCII letters, optional script of 4, optional region of 2
    /// letters or 3 digits; nothing else (non-ASCII letters and digits included).
    @Test func agreesWithThePlainDefinition() async {
        func reference(_ raw: String) -> String? {
            let parts = String(raw.map { $0 == "_" ? "-" : $0 }).split(separator: "-", omittingEmptySubsequences: false)
            func letters(_ part: Substring) -> Bool { part.allSatisfy { $0.isASCII && $0.isLetter } }
            guard let language = parts.first, (2...3).contains(language.count), letters(language) else { return nil }
            var canonical = [language.lowercased()]
            var rest = parts.dropFirst()
            if let script = rest.first, script.count == 4, letters(script) {
                canonical.append(script.prefix(1).uppercased() + script.dropFirst().lowercased())
                rest = rest.dropFirst()
            }
            if let region = rest.first {
                if region.count == 2, letters(region) {
                    canonical.append(region.uppercased())
                } else if region.count == 3, region.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    canonical.append(String(region))
                } else {
                    return nil
                }
                rest = rest.dropFirst()
            }
            return rest.isEmpty ? canonical.joined(separator: "-") : nil
        }
        await propertyCheck(count: 2000, input: strings(from: "aBzZ09-_ éİ٣Ｋ\u{301}", length: 0...14)) { raw in
            #expect((try? LocaleTag(raw))?.rawValue == reference(raw), "\(raw.debugDescription)")
        }
        for raw in ["pt-BR", "zh-Hant-TW", "es-419", "EN_gb", "sr-Latn", "de-DE-x", "ab-cdef-GH-I"] {
            #expect((try? LocaleTag(raw))?.rawValue == reference(raw), "\(raw)")
        }
    }

    /// Canonicalisation ignores case and is idempotent.
    @Test func canonicalisationIsCaseInsensitiveAndIdempotent() async {
        let tags = strings(from: "abcdeABCDE-_12", length: 1...12)
        await propertyCheck(count: 500, input: tags) { raw in
            guard let tag = try? LocaleTag(raw) else {
                #expect((try? LocaleTag(raw.uppercased())) == nil, "\(raw)")
                return
            }
            #expect((try? LocaleTag(tag.rawValue)) == tag)
            #expect((try? LocaleTag(raw.uppercased())) == tag)
            #expect((try? LocaleTag(raw.lowercased())) == tag)
        }
    }
}

@Suite struct VersionTests {
    @Test func theClientsEdgeCases() throws {
        #expect(try Version("2.10") > Version("2.9"))
        #expect(try Version("2.4") < Version("2.4.0"))
        #expect(try Version("1.0") > Version("1"))
        #expect(try Version("10.0") > Version("9.3.1"))
        #expect(try Version("3.2.1") == Version("3.2.1"))
        #expect(try Version("1." + String(repeating: "9", count: 18)) > Version("1.2"))
        // Pre-releases as the devices order them: after the release, not before it.
        #expect(try !(Version("2.10b1") < Version("2.10")))
        #expect(try Version("2.9.9-beta") > Version("2.9.9"))
        #expect(try Version("2.9.9-beta") < Version("2.9.9.1"))  // a dash sorts before a dot
        #expect(try Version("2.10.1") < Version("2.10b1"))  // a dot sorts before a letter
        // Leading zeros do not count; a run of digits wraps at 2^64 as Foundation's does.
        #expect(NumericSearch.compare("2.04", "2.4") == 0)
        #expect(NumericSearch.compare("18446744073709551616", "0") == 0)
        #expect(NumericSearch.compare("99999999999999999999", "1") == 1)
    }

    @Test(arguments: ["2.10b1", "2.9.9-beta", "10.0 (1234)", "v1", "2.x", "1.02", "1." + String(repeating: "9", count: 30), "..", "0"])
    func acceptsWhatDevicesRun(_ raw: String) throws {
        #expect(try Version(raw).rawValue == raw)
    }

    @Test(arguments: ["", " 1.0", "1.0 ", "1.0\t", "2.0é", "1\n2", String(repeating: "1", count: 65)])
    func refuses(_ raw: String) {
        let error = #expect(throws: ValidationError.self) { try Version(raw) }
        #expect(error?.message.contains("\(quote(raw))") == true)
    }

    /// What lint says about versions whose order on devices surprises people.
    @Test func surprisesAreNamed() throws {
        #expect(try Version("2.4.0").surprises.isEmpty)
        #expect(try Version("10.0.1").isPlain)
        let beta = try Version("2.10b1").surprises
        #expect(beta == ["2.10b1: devices order it above 2.10 and above 2.10.1 (numeric search compares \"b\" by character code), not below 2.10 as a pre-release"])
        let dash = try Version("2.9.9-beta").surprises
        #expect(dash == ["2.9.9-beta: devices order it above 2.9.9 and below 2.9.9.1 (numeric search compares \"-\" by character code), not below 2.9.9 as a pre-release"])
        #expect(try Version("2.04").surprises.first?.contains("devices read 04 as 4") == true)
        #expect(try Version("1." + String(repeating: "9", count: 20)).surprises.first?.contains("overflows") == true)
    }

    /// The one-pass check for plain versions says "no surprises" exactly when the notes are empty.
    @Test func plainFormMeansNoNotes() async {
        await propertyCheck(count: 5000, input: deviceVersions) { raw in
            guard let version = try? Version(raw) else { return }
            #expect(version.hasPlainForm == version.notes.isEmpty, "\(raw)")
        }
        await propertyCheck(count: 2000, input: versions) { raw in
            guard let version = try? Version(raw) else { return }
            #expect(version.hasPlainForm == version.notes.isEmpty, "\(raw)")
        }
    }

    /// Herald's order is the device's: Foundation's numeric search on the same strings,
    /// for dotted digits…
    @Test func orderEqualsFoundationNumericSearch() async {
        await propertyCheck(count: 1000, input: versions, versions) { a, b in
            let foundation = a.compare(b, options: .numeric)
            let ours = (try? Version(a)).flatMap { x in (try? Version(b)).map { y in x < y ? -1 : (x == y ? 0 : 1) } }
            #expect(ours == foundation.rawValue, "\(a) vs \(b)")
        }
    }

    /// …and for anything a device can run: letters, dashes, spaces, leading zeros and runs
    /// of digits long enough to overflow Foundation's 64-bit counter.
    @Test func numericSearchEqualsFoundationOnDeviceVersions() async {
        await propertyCheck(count: 5000, input: deviceVersions, deviceVersions) { a, b in
            #expect(NumericSearch.compare(a, b) == a.compare(b, options: .numeric).rawValue, "\(a) vs \(b)")
        }
        // The same prefix with different tails, where the interesting cases are.
        await propertyCheck(count: 3000, input: deviceVersions, deviceVersions, deviceVersions) { stem, x, y in
            let (a, b) = (stem + x, stem + y)
            #expect(NumericSearch.compare(a, b) == a.compare(b, options: .numeric).rawValue, "\(a) vs \(b)")
        }
    }

    /// Every pair of printable ASCII characters compares as Foundation compares it.
    @Test func everyPairOfCharacters() {
        for x in 0x20...0x7E {
            for y in 0x20...0x7E {
                let (a, b) = (String(UnicodeScalar(UInt8(x))), String(UnicodeScalar(UInt8(y))))
                #expect(NumericSearch.compare(a, b) == a.compare(b, options: .numeric).rawValue, "\(a) vs \(b)")
            }
        }
    }
}

@Suite struct URLAndTextTests {
    @Test func httpURLs() throws {
        #expect(try HTTPURL("https://cdn.example.com/a.html").isHTTPS)
        #expect(try !HTTPURL("http://cdn.example.com").isHTTPS)
        for bad in ["ftp://x.example/a", "cdn.example.com/a.html", "https://", "https:///path", "https://a b.example/", "https://user@host/"] {
            #expect(throws: ValidationError.self, "\(bad)") { try HTTPURL(bad) }
        }
    }

    /// The byte-by-byte https check answers as lowercasing the text and comparing characters,
    /// also where non-ASCII text (marks joining a character, letters that lowercase to ASCII)
    /// or CR LF meets the prefix.
    @Test func httpsPrefixAsCharacters() async {
        let pieces = ["h", "H", "t", "T", "p", "P", "s", "S", ":", "/", "x", "\r\n", "\r", "\u{301}", "\u{200D}", "é", "\u{212A}", "\u{130}"]
        let texts = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...11).map { $0.map { pieces[$0] }.joined() }
        await propertyCheck(count: 5000, input: texts) { raw in
            #expect(HTTPURL.hasHTTPSPrefix(raw) == raw.lowercased().hasPrefix("https://"), "\(raw.debugDescription)")
        }
        // The prefix itself, in any case, then anything.
        let cased = Gen.int(in: 0...255).map { mask in
            String("https://".enumerated().map { mask & (1 << $0.offset) != 0 ? Character($0.element.uppercased()) : $0.element })
        }
        await propertyCheck(count: 2000, input: cased, texts) { prefix, rest in
            let raw = prefix + rest
            #expect(HTTPURL.hasHTTPSPrefix(raw) == raw.lowercased().hasPrefix("https://"), "\(raw.debugDescription)")
        }
    }

    /// The printable-ASCII fast path accepts exactly what the plain rules accept.
    @Test func httpURLsFollowThePlainRules() async {
        func plain(_ raw: String) -> Bool {
            let lower = raw.lowercased()
            let rest = lower.hasPrefix("https://") ? raw.dropFirst(8) : lower.hasPrefix("http://") ? raw.dropFirst(7) : nil
            guard let rest else { return false }
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.contains("@")
                && !raw.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        }
        let prefixes = Gen.int(in: 0...4).map { ["https://", "HTTP://", "hTtPs://", "ftp://", ""][$0] }
        await propertyCheck(count: 2000, input: prefixes, strings(from: "ab/?#@:. \t%Xé", length: 0...12)) { prefix, rest in
            let raw = prefix + rest
            #expect(((try? HTTPURL(raw)) != nil) == plain(raw), "\(raw.debugDescription)")
        }
    }

    /// The printable-ASCII fast path accepts exactly what the plain rules accept.
    @Test func linksFollowThePlainRules() async {
        func plain(_ raw: String) -> Bool {
            let scheme = raw.prefix { $0 != ":" }
            return scheme.count < raw.count && scheme.first.map { $0.isASCII && $0.isLetter } == true
                && scheme.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "+.-".contains($0) }
                && raw.count > scheme.count + 1
                && !raw.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        }
        await propertyCheck(count: 2000, input: strings(from: "aZ9:/+.-_ é@", length: 0...10)) { raw in
            #expect(((try? LinkURL(raw)) != nil) == plain(raw), "\(raw.debugDescription)")
        }
    }

    @Test func linksTakeAnyScheme() throws {
        for good in ["myapp://offers/1", "https://example.com", "mailto:a@example.com", "x-app+v2.1:go"] {
            #expect(try LinkURL(good).rawValue == good)
        }
        for bad in ["offers", "://x", "1app://x", "myapp:", "myapp://a b"] {
            #expect(throws: ValidationError.self, "\(bad)") { try LinkURL(bad) }
        }
    }

    @Test func xmlForbiddenCharactersAreNamed() throws {
        try XMLText.check("tab\tnew\nline\r & < > \" ' 🎉 مرحبا", field: "title")
        let bell = #expect(throws: ValidationError.self) { try XMLText.check("ring\u{07}", field: "title") }
        #expect(bell?.message.contains("U+0007") == true)
        #expect(bell?.message.contains("character 5") == true)
        #expect(throws: ValidationError.self) { try XMLText.check("a\u{FFFE}", field: "title") }
        #expect(throws: ValidationError.self) { try XMLText.checkRequired("  ", field: "title") }
    }

    @Test func timestamps() throws {
        let may = Date(timeIntervalSince1970: 1_777_593_600)
        #expect(Timestamp.parse("2026-05-01") == may)
        #expect(Timestamp.parse("2026-05-01T00:00:00Z") == may)
        #expect(Timestamp.parse("2026-05-01T02:00:00+02:00") == may)
        #expect(Timestamp.parse("2026-05-01T02:00+0200") == may)
        #expect(Timestamp.parse("2026-05-01T00:00:00.999Z") == may)  // kept to the second
        #expect(Timestamp.parse("2026-05-01T00:00:00") == nil)  // a time needs a zone
        #expect(Timestamp.parse("2026-13-01") == nil)
        #expect(Timestamp.parse("tomorrow") == nil)
        #expect(Timestamp.format(may) == "2026-05-01T00:00:00Z")
    }

    @Test func messageKeysDefaultToTheDateWithSuffixes() throws {
        let may = Date(timeIntervalSince1970: 1_777_593_600 + 3600 * 23)
        #expect(MessageKey.defaultKey(for: may, taken: []).rawValue == "2026/05/01")
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/01"]).rawValue == "2026/05/01-2")
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/01", "2026/05/01-2"]).rawValue == "2026/05/01-3")
        // The 10th of a day sorts after the 9th, not before the 2nd as -10 would.
        let nine = Set(["2026/05/01"]).union((2...9).map { "2026/05/01-\($0)" })
        #expect(MessageKey.defaultKey(for: may, taken: nine).rawValue == "2026/05/01-b10")
        // Keys made the old way (-10, -11) stay; the next one sorts after all of them.
        #expect(MessageKey.defaultKey(for: may, taken: nine.union(["2026/05/01-10", "2026/05/01-11"])).rawValue == "2026/05/01-b10")
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/01", "2026/05/01-b99"]).rawValue == "2026/05/01-c100")
        // A key chosen by hand for that day, in any case, is followed too.
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/01-B5"]).rawValue == "2026/05/01-b50")  // -6 would sort before -B5
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/01-z"]).rawValue == "2026/05/01-z-2")
        // Other days do not matter.
        #expect(MessageKey.defaultKey(for: may, taken: ["2026/05/02", "2026/04/30-3"]).rawValue == "2026/05/01")
        #expect(throws: ValidationError.self) { try MessageKey("/leading") }
        #expect(throws: ValidationError.self) { try MessageKey("has space") }
        #expect(try MessageKey("promo:spring/2026_v1.2-a").rawValue == "promo:spring/2026_v1.2-a")
    }

    /// However many alerts a day gets, each default key sorts after every earlier one in
    /// iNotify's order (Foundation's caseInsensitiveCompare), so the newest is shown first.
    @Test func defaultKeysSortInCreationOrderForever() throws {
        let day = Date(timeIntervalSince1970: 1_777_593_600)
        var taken: Set<String> = []
        var previous: String?
        for _ in 1...1_200 {
            let key = MessageKey.defaultKey(for: day, taken: taken).rawValue
            #expect(!taken.contains(key))
            if let previous {
                #expect(key.caseInsensitiveCompare(previous) == .orderedDescending, "\(key) after \(previous)")
                #expect(MessageKey.order(key, previous) == 1)
                #expect(NumericSearch.compare(key, previous) == 1, "read as numbers too")
            }
            _ = try MessageKey(key)
            taken.insert(key)
            previous = key
        }
        #expect(previous == "2026/05/01-d1200")
    }

    /// MessageKey's order is iNotify's: `caseInsensitiveCompare:` on the device.
    @Test func messageKeyOrderEqualsFoundation() async {
        let keys = strings(from: "aZb09/_.:-B", length: 1...8)
        await propertyCheck(count: 3000, input: keys, keys) { a, b in
            #expect(MessageKey.order(a, b) == a.caseInsensitiveCompare(b).rawValue, "\(a) vs \(b)")
        }
    }

    @Test func jsonTextRoundTrips() {
        for text in ["plain", "quote \" back \\ slash", "new\nline\ttab", "bell\u{07}", "🎉 ünï"] {
            #expect(JSONText.unquoted(JSONText.quoted(text)) == text)
        }
        #expect(JSONText.quoted("a\"b\u{01}") == "\"a\\\"b\\u0001\"")
    }
}

import Foundation
import HeraldTestSupport
import PropertyBased
import Testing

@testable import HeraldCore

/// The one-pass reader of canonical campaigns files against the general (Yams) reader: on any
/// text it either declines (nil) or makes exactly the document the general reader makes.
@Suite struct CanonicalReaderTests {
    func general(_ text: String) -> CampaignsDocument? {
        try? CampaignsDocument.parseAnyForm(text, fileName: "f.yaml").get()
    }

    @Test func readsTheCanonicalFormOfTheSampleAndTheExample() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
        for text in [CampaignsDocumentTests.sample, try String(contentsOf: example, encoding: .utf8)] {
            // Hand-written (flow mappings, comments): not canonical, the general reader's.
            #expect(CanonicalCampaignsReader.read(text) == nil)
            let document = try #require(general(text))
            let canonical = document.yaml()
            #expect(CanonicalCampaignsReader.read(canonical) == document)
            #expect(try CampaignsDocument.parse(canonical, fileName: "f.yaml").get() == document)
        }
    }

    /// Random documents whose strings mix the characters YAML treats specially: written by
    /// yaml(), read by both readers alike; the one-pass reader declines only text with a
    /// character it leaves to the general reader.
    @Test func randomDocumentsReadAlike() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            guard let document = try? RandomDocument.make(&random) else { return }
            let text = document.yaml()
            let fast = CanonicalCampaignsReader.read(text)
            let slow = general(text)
            if let fast {
                #expect(fast == slow, "seed \(seed)\n\(text)")
            }
            let special = text.unicodeScalars.contains { [0x85, 0x2028, 0x2029, 0xFEFF].contains($0.value) }
            if slow != nil, !special {
                #expect(fast != nil, "seed \(seed): declined a canonical file\n\(text)")
            }
        }
    }

    /// Canonical text changed a little (a line lost, doubled, swapped, re-indented, a
    /// character or a comment put in, a separator changed): the one-pass reader declines, or
    /// reads what the general reader reads.
    @Test func changedTextIsDeclinedOrReadAlike() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var random = SplitMix(seed: UInt64(seed))
            guard let document = try? RandomDocument.make(&random) else { return }
            var lines = document.yaml().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<random.int(1...3) { RandomDocument.mutate(&lines, &random) }
            let text = lines.joined(separator: "\n")
            if let fast = CanonicalCampaignsReader.read(text) {
                #expect(fast == general(text), "seed \(seed)\n\(text)")
            }
        }
    }
}

enum RandomDocument {
    /// Pieces of text that YAML reads as they are, or otherwise (indicators, comments,
    /// separators, quotes, escapes, numbers, booleans, line breaks).
    static let pieces = [
        "Sale", "a", "Z", "0", "9", " ", " ", ":", ": ", " #", "#", "-", "- ", "\"", "\\", "'", "&", "*", "!", "|", ">", "%", "@",
        "`", "[", "]", "{", "}", ",", "?", "é", "🎉", "日本", "\n", "\t", "\u{A0}", "true", "no", "null", "~", "1", "2.5", "1e3",
        ".", "/", "---", "\\u0041", "\u{10FFFD}",
    ]
    /// Characters YAML refuses or reads as line breaks, or the rules refuse.
    static let rare = ["\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{FFFE}", "\r"]

    static func text(_ random: inout SplitMix) -> String {
        if random.chance(40) { return random.pick(["Spring sale", "Hello", "Welcome & enjoy", "<h1>Hi</h1>", "Tour"]) }
        let text = (0..<random.int(1...5)).map { _ in random.pick(pieces) }.joined()
        return random.chance(2) ? text + random.pick(rare) : text
    }

    static func make(_ random: inout SplitMix) throws -> CampaignsDocument {
        var tenants: [TenantSpec] = []
        for slug in ["acme", "globex"].prefix(random.int(1...2)) {
            var apps: [AppSpec] = []
            for app in ["weather", "news"].prefix(random.int(0...2)) {
                let locales = try ["en", "de", "pt-BR"].prefix(random.int(1...3)).map { try LocaleTag($0) }
                var campaigns: [CampaignSpec] = []
                for key in ["a", "b", "c"].prefix(random.int(0...3)) {
                    campaigns.append(try campaign(key, locales: locales, &random))
                }
                apps.append(
                    AppSpec(
                        slug: try Slug(app), name: text(&random), platform: random.pick(Platform.allCases),
                        bundleID: random.chance(95) ? random.pick(["com.acme.app", "com.acme.a-b"]) : "x", defaultLocale: locales[0], locales: locales,
                        baseURL: random.chance(50) ? try HTTPURL("https://static.example.com/\(app)?a=1#x") : nil, campaigns: campaigns))
            }
            tenants.append(TenantSpec(slug: try Slug(slug), name: text(&random), apps: apps))
        }
        return CampaignsDocument(tenants: tenants)
    }

    static func campaign(_ key: String, locales: [LocaleTag], _ random: inout SplitMix) throws -> CampaignSpec {
        let kind = random.pick(CampaignKind.allCases)
        var conditions = ConditionSet()
        let assignments: [String] =
            switch kind {
            case .banner: ["onWifi=true", "lastDisplayMinimumSeconds=30", "flagNotSet=\(text(&random))", "iOSVersionLessThan=17.2"]
            case .alert: ["minAppVersion=1.0", "maxAppVersion=10.2.3"]
            case .story, .local: []
            }
        for assignment in assignments where random.chance(40) {
            if let condition = try? Condition.parse(group: kind == .banner && random.chance(50) ? .any : .all, assignment: assignment, kind: kind) {
                conditions.set(condition)
            }
        }
        var content: [LocaleTag: CampaignContent] = [:]
        for locale in locales where random.chance(60) { content[locale] = try self.content(kind, &random) }
        let fewest = random.chance(95) ? 1 : 0  // an empty restriction is refused
        let restriction = Array(locales.prefix(random.int(fewest...locales.count)))
        return CampaignSpec(
            key: try Slug(key), kind: kind, name: text(&random), status: random.pick(CampaignStatus.allCases),
            startsAt: random.chance(50) ? Date(timeIntervalSince1970: 1_777_593_600) : nil,
            endsAt: random.chance(30) ? Date(timeIntervalSince1970: 1_790_000_000) : nil, priority: random.int(-2...20),
            locales: random.chance(30) ? restriction : nil, conditions: conditions,
            messageKey: kind == .alert && random.chance(50) ? try MessageKey(random.pick(["2026/05/01", "k-1", "A.b:c_d"])) : nil,
            content: content, localNotification: kind == .local ? try notification(&random) : nil,
            push: kind == .story ? try push(&random) : PushOptions())
    }

    /// A local campaign's notification, every field now and then (userInfo values any text).
    static func notification(_ random: inout SplitMix) throws -> LocalNotification {
        var notification = LocalNotification(fireDate: try FireDate(random.pick(["2026-12-24T09:00", "2026-12-24T08:00:00Z", "2027-01-01T00:00:30"])))
        if random.chance(50) { notification.repeatInterval = random.pick(RepeatInterval.allCases) }
        if random.chance(40) { notification.badge = random.pick([0, 1, 99_999]) }
        if random.chance(50) { notification.sound = try SoundName(random.pick(["default", "Chime.caf", "a b.WAV"])) }
        if random.chance(30) { notification.launchImage = try BundleFileName(random.pick(["Launch.png", "x@2x~ipad.png"])) }
        if random.chance(20) { notification.hasAction = false }
        if random.chance(50) { notification.userInfo[random.pick(["screen", "a.b-c_d"])] = text(&random) }
        return notification
    }

    static func push(_ random: inout SplitMix) throws -> PushOptions {
        PushOptions(
            sound: random.chance(50) ? try SoundName(random.pick(["default", "Chime.caf"])) : nil,
            badge: random.chance(50) ? try PushBadge(random.pick(["0", "7", "+1", "-3"])) : nil)
    }

    static func content(_ kind: CampaignKind, _ random: inout SplitMix) throws -> CampaignContent {
        switch kind {
        case .banner:
            var views = [
                BannerView(
                    id: try Slug("main"), source: .file(try HTTPURL("https://cdn.example.com/a.html?x=1&y=2")),
                    height: random.pick([nil, 88, 120.5, 0.001, 99_999.5]), origin: random.pick([nil, .top, .bottom]))
            ]
            if random.chance(50) { views.append(BannerView(id: try Slug("full"), source: .html(text(&random)))) }
            return .banner(BannerContent(entry: try Slug(random.chance(95) ? views[0].id.rawValue : "none"), views: views))
        case .alert:
            let url = random.chance(50) ? try LinkURL(random.pick(["app://x", "mailto:a@b.c", "https://e.com/#a: b"])) : nil
            return .alert(
                AlertContent(title: text(&random), message: text(&random), actionURL: url, actionButton: url != nil && random.chance(50) ? text(&random) : nil))
        case .story:
            var page = StoryPage(image: try HTTPURL("https://cdn.example.com/1.jpg"), duration: random.pick([nil, 5, 2.25]))
            // A link and its button title together: the player shows neither without the other.
            if random.chance(50) {
                page.link = try LinkURL("app://p")
                page.buttonTitle = text(&random)
            }
            if random.chance(40) { page.title = text(&random) }
            if random.chance(40) { page.subtitle = text(&random) }
            return .story(
                StoryContent(pushTitle: random.chance(50) ? text(&random) : nil, pushText: text(&random), pages: [page]))
        case .local:
            return .local(LocalContent(body: text(&random), action: random.chance(50) ? text(&random) : nil))
        }
    }

    static func mutate(_ lines: inout [String], _ random: inout SplitMix) {
        guard lines.count > 1 else { return }
        let index = random.int(0...(lines.count - 2))  // the last "line" is the empty one after the final newline
        switch random.int(0...9) {
        case 0: lines.remove(at: index)
        case 1: lines.insert(lines[index], at: index)
        case 2: lines.swapAt(index, index + 1)
        case 3: lines[index] = " " + lines[index]
        case 4: if lines[index].hasPrefix("  ") { lines[index].removeFirst(2) }
        case 5: lines[index] += random.pick([" # note", " ", ":", "\t", " x"])
        case 6: lines[index] = lines[index].replacingOccurrences(of: ": ", with: random.pick([":", ":  ", " : ", ": !!str ", ": &a "]))
        case 7:
            let line = lines[index]
            let at = line.index(line.startIndex, offsetBy: random.int(0...line.count))
            lines[index] = String(line[..<at]) + random.pick(pieces) + String(line[at...])
        case 8: lines.insert(random.pick(["", "# comment", "---", "...", "  ", "- "]), at: index)
        default: lines[index] = lines[index].replacingOccurrences(of: "- ", with: random.pick(["-  ", "-", "? "]))
        }
    }
}

import Foundation
import HeraldCore

/// One piece of campaign copy that goes against Apple's guidance for notifications and
/// alerts (seed 004): at most about two lines, no app name (the system shows it), short
/// title-case action buttons, no telling people which button to press, and for local
/// notifications sentence case ending with a period and one notification per event.
public struct CopyFinding: Hashable, Sendable, CustomStringConvertible {
    public let tenant: Slug
    public let app: Slug
    public let campaign: Slug
    /// The locale whose authored content holds the text (not the locales falling back to it).
    public let locale: LocaleTag
    /// Where the text is: `title`, `message`, `action button`, `push title`, `push text`,
    /// `page 2 title`, `page 1 button`, ….
    public let field: String
    public let rule: CopyLint.Rule
    public let message: String

    /// `tenant/app/campaign [locale] field: message`, as publish and validate print it.
    public var description: String { "\(tenant)/\(app)/\(campaign) [\(locale)] \(field): \(message)" }
}

/// Copy lint over the text of alerts and stories. Pure: the same campaigns give the same
/// findings, in a fixed order (campaign, locale, field).
public enum CopyLint {
    public enum Rule: String, CaseIterable, Sendable {
        /// Alert messages and push texts longer than about two lines.
        case tooLong = "too-long"
        /// Text that names the app.
        case namesApp = "names-app"
        /// Action buttons longer than a few words.
        case longButton = "long-button"
        /// English action buttons not in title case.
        case buttonCase = "button-case"
        /// Text that tells people which button to press.
        case pressInstruction = "press-instruction"
        /// A local notification's body not in sentence case, or not ending with a period.
        case sentenceCase = "sentence-case"
        /// Two local notifications with the same body firing within a minute of each other.
        case oneNotificationPerEvent = "one-per-event"
        /// Bidirectional controls, zero-width and control characters: text that reads otherwise than it holds.
        case invisibleText = "invisible-text"
    }

    /// About two lines of an alert or a notification: some 45 characters a line on a phone.
    public static let twoLines = 90
    /// "Short enough" for an action button (it also replaces "view" in "slide to view").
    public static let shortButton = 20

    /// Findings for every locale's content of `campaigns` (all of them by default).
    public static func findings(tenant: Slug, app: AppSpec, campaigns: [CampaignSpec]? = nil) -> [CopyFinding] {
        var found: [CopyFinding] = []
        let appName = trimmedName(app.name)  // once, not once per text
        let all = campaigns ?? app.campaigns
        // Indices, not copies of whole campaigns (this runs for every app of a publish).
        for index in all.indices.sorted(by: { all[$0].key < all[$1].key }) {
            for (locale, content) in all[index].content.sorted(by: { $0.key < $1.key }) {
                var check = Checker(tenant: tenant, app: app.slug, campaign: all[index].key, appName: appName, locale: locale)
                switch content {
                case .banner(let banner):
                    // Banner views are the author's own HTML, drawn by the app: only what reads otherwise than it holds.
                    for view in banner.views {
                        if case .html(let markup) = view.source { check.invisible(markup, "view \(view.id)") }
                    }
                case .alert(let alert):
                    check.invisible(alert.title, "title")
                    check.invisible(alert.message, "message")
                    if let button = alert.actionButton { check.invisible(button, "action button") }
                    check.namesApp(alert.title, "title", inApp: true)
                    check.pressInstruction(alert.title, "title")
                    check.length(alert.message, "message", what: "an alert")
                    check.namesApp(alert.message, "message", inApp: true)
                    check.pressInstruction(alert.message, "message")
                    if alert.actionURL != nil, let button = alert.actionButton { check.button(button, "action button") }
                case .local(let words):
                    check.invisible(words.body, "body")
                    if let action = words.action { check.invisible(action, "action") }
                    check.length(words.body, "body", what: "a notification")
                    check.namesApp(words.body, "body", inApp: false)
                    check.pressInstruction(words.body, "body")
                    check.sentence(words.body, "body")
                    if all[index].localNotification?.hasAction != false, let action = words.action { check.button(action, "action") }
                case .story(let story):
                    if let title = story.pushTitle { check.invisible(title, "push title") }
                    check.invisible(story.pushText, "push text")
                    for (index, page) in story.pages.enumerated() {
                        for (text, part) in [(page.title, "title"), (page.subtitle, "subtitle"), (page.buttonTitle, "button")] {
                            if let text { check.invisible(text, "page \(index + 1) \(part)") }
                        }
                    }
                    if let title = story.pushTitle {
                        check.namesApp(title, "push title", inApp: false)
                        check.pressInstruction(title, "push title")
                    }
                    check.length(story.pushText, "push text", what: "a notification")
                    check.namesApp(story.pushText, "push text", inApp: false)
                    check.pressInstruction(story.pushText, "push text")
                    for (index, page) in story.pages.enumerated() {
                        if let title = page.title { check.pressInstruction(title, "page \(index + 1) title") }
                        if let subtitle = page.subtitle { check.pressInstruction(subtitle, "page \(index + 1) subtitle") }
                        if let button = page.buttonTitle { check.button(button, "page \(index + 1) button") }
                    }
                }
                found += check.found
            }
        }
        found += sameEvent(tenant: tenant, app: app.slug, campaigns: all)
        return found.sorted { ($0.campaign, $0.locale) < ($1.campaign, $1.locale) }
    }

    /// Seed 004's "do not issue multiple notifications for the same event": two local
    /// campaigns whose words in one locale are the same body, firing within a minute of each
    /// other, on both campaigns.
    static func sameEvent(tenant: Slug, app: Slug, campaigns: [CampaignSpec]) -> [CopyFinding] {
        let locals = campaigns.indices.filter { campaigns[$0].kind == .local && campaigns[$0].localNotification != nil }
            .sorted { campaigns[$0].key < campaigns[$1].key }
        guard locals.count > 1 else { return [] }
        var found: [CopyFinding] = []
        for (position, first) in locals.enumerated() {
            for second in locals[(position + 1)...] {
                let (a, b) = (campaigns[first], campaigns[second])
                guard let fireA = a.localNotification?.fireDate, let fireB = b.localNotification?.fireDate,
                    fireA.canFire(within: 60, of: fireB)
                else { continue }
                for (locale, content) in a.content.sorted(by: { $0.key < $1.key }) {
                    guard case .local(let wordsA) = content, case .local(let wordsB)? = b.content[locale],
                        normalized(wordsA.body) == normalized(wordsB.body)
                    else { continue }
                    for (campaign, other) in [(a, b), (b, a)] {
                        found.append(
                            CopyFinding(
                                tenant: tenant, app: app, campaign: campaign.key, locale: locale, field: "body", rule: .oneNotificationPerEvent,
                                message: "fires within a minute of \(other.key) (\(other.localNotification?.fireDate.words ?? "")) with the same "
                                    + "body: one notification per event; people would get both"))
                    }
                }
            }
        }
        return found
    }

    /// Text compared for sameness: case, surrounding space and the end mark aside.
    private static func normalized(_ text: String) -> String {
        var words = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
        while let last = words.last, sentenceEnds.contains(last) || closers.contains(last) || last.isWhitespace { words = words.dropLast() }
        return String(words)
    }

    /// Characters that end a sentence, in the scripts Herald's copy is written in.
    static let sentenceEnds: Set<Character> = [".", "!", "?", "\u{2026}", "\u{3002}", "\u{FF01}", "\u{FF1F}"]
    /// Closing quotes and brackets that may follow a sentence's end.
    static let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "\u{00BB}", "\u{300D}"]

    /// `name` trimmed of `.whitespaces`. A name that starts and ends with an ASCII character
    /// other than space and tab (the only ASCII members of the set) is its own trimmed form,
    /// which spares Foundation's bridging for nearly every app.
    static func trimmedName(_ name: String) -> String {
        func isKept(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
        }
        if isKept(name.utf8.first), isKept(name.utf8.last) { return name }
        return name.trimmingCharacters(in: .whitespaces)
    }

    /// The findings as warning lines (`tenant/app/campaign [locale] field: message`).
    public static func warnings(tenant: Slug, app: AppSpec, campaigns: [CampaignSpec]? = nil) -> [String] {
        findings(tenant: tenant, app: app, campaigns: campaigns).map(\.description)
    }

    /// The title-case form of an English button label: every word capitalised but short
    /// articles, conjunctions and prepositions inside the label.
    public static func titleCased(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        return words.enumerated().map { index, word in
            let lower = word.lowercased()
            let inner = index > 0 && index < words.count - 1
            if inner, minorWords.contains(lower) { return lower }
            guard let first = word.first, first.isLetter else { return String(word) }
            return first.uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    static let minorWords: Set<String> = [
        "a", "an", "the", "and", "but", "or", "nor", "as", "at", "by", "for", "in", "of", "on", "to", "up", "via", "with",
    ]

    /// Words that tell people what to press, in the languages Herald's demos use; matched
    /// as whole words, case-insensitively.
    static let pressWords: Set<String> = [
        // English
        "tap", "taps", "tapping", "click", "clicking", "press", "pressing", "swipe", "button", "buttons",
        // German
        "tippe", "tippen", "tippt", "klicke", "klicken", "klickt", "drücke", "drücken", "drückt", "wische", "wischen",
        "schaltfläche",
        // Portuguese and Spanish
        "toque", "toca", "clique", "clica", "pressione", "aperte", "deslize", "botão", "pulsa", "botón",
        // French
        "appuyez", "touchez", "cliquez", "bouton",
    ]

    private struct Checker {
        let tenant: Slug
        let app: Slug
        let campaign: Slug
        /// Trimmed of spaces.
        let appName: String
        let locale: LocaleTag
        private(set) var found: [CopyFinding] = []

        init(tenant: Slug, app: Slug, campaign: Slug, appName: String, locale: LocaleTag) {
            self.tenant = tenant
            self.app = app
            self.campaign = campaign
            self.appName = appName
            self.locale = locale
        }

        private mutating func add(_ field: String, _ rule: Rule, _ message: String) {
            found.append(CopyFinding(tenant: tenant, app: app, campaign: campaign, locale: locale, field: field, rule: rule, message: message))
        }

        mutating func invisible(_ text: String, _ field: String) {
            let found = InvisibleText.found(in: text)
            guard !found.isEmpty else { return }
            let names = found.map { "\(InvisibleText.code($0)) \(InvisibleText.name($0))" }.joined(separator: ", ")
            let shown = InvisibleText.shown(text)
            let excerpt = shown.count > 120 ? String(shown.prefix(120)) + "…" : shown
            add(
                field, .invisibleText,
                "holds characters that are not seen but change how it reads (\(names)): “\(excerpt)”; remove them, "
                    + "or write the text in its own direction")
        }

        mutating func length(_ text: String, _ field: String, what: String) {
            // No more characters than UTF-8 bytes: short text needs no counting.
            guard text.utf8.count > CopyLint.twoLines else { return }
            let count = text.count
            guard count > CopyLint.twoLines else { return }
            add(
                field, .tooLong,
                "\(count) characters is more than about two lines on \(what) (some \(CopyLint.twoLines)): "
                    + "long text is hard to read at a glance; say less")
        }

        mutating func namesApp(_ text: String, _ field: String, inApp: Bool) {
            let name = appName
            guard name.count >= 2, let range = CopyLint.wordRange(of: name, in: text) else { return }
            let why =
                inApp
                ? "people reading it are in the app already" : "the system shows the app's name above every notification"
            add(field, .namesApp, "names the app (\(quote(String(text[range])))): \(why)")
        }

        mutating func pressInstruction(_ text: String, _ field: String) {
            guard let word = Self.firstPressWord(in: text) else { return }
            add(
                field, .pressInstruction,
                "tells people what to press (\(quote(String(word)))): say what the message is about; the buttons speak for themselves")
        }

        /// The first word of `text`, lowercased, that tells people what to press. ASCII text
        /// (most copy) is read byte by byte, with the same words: letters are A-Z and a-z there.
        static func firstPressWord(in text: String) -> String? {
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
                return text.lowercased().split { !$0.isLetter }.first { CopyLint.pressWords.contains(String($0)) }.map(String.init)
            }
            var word: [UInt8] = []
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): word.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
                default:
                    if let found = pressWord(word) { return found }
                    word.removeAll(keepingCapacity: true)
                }
            }
            return pressWord(word)
        }

        /// `word` (lowercase ASCII letters) when it is one of `pressWords`.
        private static func pressWord(_ word: [UInt8]) -> String? {
            guard !word.isEmpty else { return nil }
            let found = String(decoding: word, as: UTF8.self)
            return CopyLint.pressWords.contains(found) ? found : nil
        }

        /// Sentence case (a capital first letter, not Title Case in English) and an end mark.
        mutating func sentence(_ text: String, _ field: String) {
            var problems: [String] = []
            if let first = text.first(where: \.isLetter), first.isLowercase {
                problems.append("starts with a lowercase letter")
            }
            let words = text.split(whereSeparator: { $0.isWhitespace }).filter { $0.contains(where: \.isLetter) }
            if locale.language.rawValue == "en", words.count >= 3,
                words.allSatisfy({ word in
                    CopyLint.minorWords.contains(word.lowercased()) || word.first(where: \.isLetter)?.isUppercase == true
                })
            {
                problems.append("reads as Title Case")
            }
            var end = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
            while let last = end.last, CopyLint.closers.contains(last) { end = end.dropLast() }
            if let last = end.last, !CopyLint.sentenceEnds.contains(last) {
                problems.append("does not end with a period")
            }
            guard !problems.isEmpty else { return }
            add(
                field, .sentenceCase,
                "\(problems.joined(separator: " and ")): Apple's guidance is sentence case with a period at the end, like a sentence")
        }

        mutating func button(_ label: String, _ field: String) {
            if label.utf8.count > CopyLint.shortButton, label.count > CopyLint.shortButton {
                add(field, .longButton, "\(quote(label)) is \(label.count) characters: keep action buttons short (\(CopyLint.shortButton) at most)")
            }
            // Title case is an English convention: German capitalises nouns, Portuguese does not capitalise.
            guard locale.language.rawValue == "en" else { return }
            let cased = CopyLint.titleCased(label)
            if cased != label {
                add(field, .buttonCase, "\(quote(label)) is not in title case: \(quote(cased))")
            }
        }
    }
}

extension CopyLint {
    /// The first whole-word occurrence of `needle` in `text`, ignoring case and diacritics.
    /// ASCII text and a printable ASCII needle (nearly all copy) are searched byte by byte;
    /// anything else by Foundation, whose answer the byte search matches (tested).
    static func wordRange(of needle: String, in text: String) -> Range<String.Index>? {
        let printable = needle.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        guard printable, text.utf8.allSatisfy({ $0 < 0x80 }) else { return foundationWordRange(of: needle, in: text) }
        return asciiWordRange(of: needle, in: text)
    }

    /// Foundation's search. After a match that is not a whole word, the search goes on from
    /// its end (so the byte search does the same).
    static func foundationWordRange(of needle: String, in text: String) -> Range<String.Index>? {
        // A match can start or end inside a character (a needle "\nName" in "\r\nName": CR LF
        // is one character); its neighbours are then the scalars beside it, not characters
        // (stepping back a character from there ran off the text's start).
        func before(_ index: String.Index) -> Character? {
            guard index > text.startIndex else { return nil }
            if index.samePosition(in: text) != nil { return text[text.index(before: index)] }
            return Character(text.unicodeScalars[text.unicodeScalars.index(before: index)])
        }
        func at(_ index: String.Index) -> Character? {
            guard index < text.endIndex else { return nil }
            if index.samePosition(in: text) != nil { return text[index] }
            return Character(text.unicodeScalars[index])
        }
        var start = text.startIndex
        while let range = text.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive], range: start..<text.endIndex) {
            let before = before(range.lowerBound)
            let after = at(range.upperBound)
            if !(before?.isLetter ?? false), !(before?.isNumber ?? false), !(after?.isLetter ?? false), !(after?.isNumber ?? false) {
                return range
            }
            start = range.upperBound
        }
        return nil
    }

    /// The same on ASCII: letters fold A-Z to a-z, there are no diacritics, and a letter or
    /// digit is A-Z, a-z or 0-9. A printable needle cannot split a CR LF pair.
    static func asciiWordRange(of needle: String, in text: String) -> Range<String.Index>? {
        func lower(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            let folded = byte | 0x20
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(folded) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        let pattern = needle.utf8.map(lower)
        let bytes = Array(text.utf8)
        guard !pattern.isEmpty, pattern.count <= bytes.count else { return nil }
        var start = 0
        while start + pattern.count <= bytes.count {
            guard pattern.indices.allSatisfy({ lower(bytes[start + $0]) == pattern[$0] }) else {
                start += 1
                continue
            }
            let end = start + pattern.count
            if !(start > 0 && isAlphanumeric(bytes[start - 1])), !(end < bytes.count && isAlphanumeric(bytes[end])) {
                let utf8 = text.utf8
                return utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)
            }
            start = end
        }
        return nil
    }
}

private func quote(_ text: String) -> String { "\u{201C}\(text)\u{201D}" }

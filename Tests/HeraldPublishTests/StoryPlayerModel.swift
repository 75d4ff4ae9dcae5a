import Foundation

/// A second, independent reading of Pushwoosh's story player, written in test code from its
/// rules (shared/formats.md §3; docs/clients.md, "Pushwoosh stories") and not from Herald's
/// own model (HeraldCore's StoryPlayer, HeraldPublish's StoryPayloadReader): a notification's
/// payload in, the pages a person sees out. StoryRoundTripTests holds Herald to it.
enum StoryPlayerModel {
    /// What a person sees of one page.
    struct Page: Equatable, CustomStringConvertible {
        var image: String
        var seconds: Double
        var title: String?
        var subtitle: String?
        /// The button's label and the link it opens; nil when the player shows no button.
        var button: (label: String, link: String)?

        static func == (a: Page, b: Page) -> Bool {
            a.image == b.image && a.seconds == b.seconds && a.title == b.title && a.subtitle == b.subtitle
                && a.button?.label == b.button?.label && a.button?.link == b.button?.link
        }

        var description: String {
            "image \(image), \(seconds) s, title \(title ?? "-"), subtitle \(subtitle ?? "-"), button \(button.map { "\($0.label) → \($0.link)" } ?? "-")"
        }
    }

    /// The pages played from a notification payload; empty means the fallback content.
    static func play(_ payload: [String: Any]) -> [Page] {
        var block = payload["pw_stories"] as? [String: Any]
        if block == nil {
            for key in ["u", "userdata"] where block == nil {
                var custom = payload[key] as? [String: Any]
                if custom == nil, let text = payload[key] as? String, let data = text.data(using: .utf8) {
                    custom = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                }
                block = custom?["pw_stories"] as? [String: Any]
            }
        }
        // `pages` must be a list of objects, all of them, or nothing is read.
        guard let list = block?["pages"] as? [[String: Any]] else { return [] }
        var pages: [Page] = []
        for entry in list {
            // The image must be a string that parses as a URL with a scheme; else the page is skipped.
            guard let image = entry["image"] as? String, parsesWithScheme(image) else { continue }
            // Durations: a number; up to 30 s kept, more cut to 30; zero, negative, infinite,
            // NaN, missing or not a number: 5 s.
            var seconds = 5.0
            if let number = entry["duration"] as? NSNumber {
                let value = number.doubleValue
                if value.isFinite && value > 0 { seconds = value > 30 ? 30 : value }
            }
            // Empty strings count as absent.
            func text(_ key: String) -> String? {
                guard let value = entry[key] as? String, value != "" else { return nil }
                return value
            }
            let link = (entry["link"] as? String).flatMap { parsesWithScheme($0) ? $0 : nil }
            // The button needs both a link and a label; the image itself only pages back and forth.
            var button: (label: String, link: String)?
            if let link, let label = text("button_title") { button = (label, link) }
            pages.append(Page(image: image, seconds: seconds, title: text("title"), subtitle: text("subtitle"), button: button))
        }
        return pages
    }

    /// Foundation's `URL(string:)` as it is before iOS 17 (RFC 3986, no repairs), and a scheme.
    static func parsesWithScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let digits = Set("0123456789")
        guard let first = scheme.first, letters.contains(first),
            scheme.allSatisfy({ letters.contains($0) || digits.contains($0) || "+-.".contains($0) })
        else { return false }
        let plain = letters.union(digits).union("-._~:/?@!$&'()*+,;=")
        let hex = digits.union("abcdefABCDEF")
        let characters = Array(text)
        // Where the host is: between "scheme://" and the next / ? or #.
        var hostRange = 0..<0
        let afterColon = text.distance(from: text.startIndex, to: colon) + 1
        if characters.count >= afterColon + 2, characters[afterColon] == "/", characters[afterColon + 1] == "/" {
            let start = afterColon + 2
            var end = start
            while end < characters.count, !"/?#".contains(characters[end]) { end += 1 }
            hostRange = start..<end
            // Brackets only enclose an IPv6 address (with a port after it, or none).
            let authority = String(characters[hostRange])
            if authority.contains("[") || authority.contains("]") {
                let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
                let pattern = #"^\[[0-9A-Fa-f:.]+\](:[0-9]*)?$"#
                guard host.range(of: pattern, options: .regularExpression) != nil else { return false }
            }
        }
        var hashes = 0
        var position = 0
        while position < characters.count {
            let character = characters[position]
            switch character {
            case "%":
                guard position + 2 < characters.count, hex.contains(characters[position + 1]), hex.contains(characters[position + 2]) else {
                    return false
                }
                position += 2
            case "#":
                hashes += 1
                if hashes > 1 { return false }
            case "[", "]":
                if !hostRange.contains(position) { return false }
            default:
                if !plain.contains(character) { return false }
            }
            position += 1
        }
        return true
    }
}

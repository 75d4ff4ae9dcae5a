import HeraldCore
import HeraldPublish

/// `herald preview`'s stories as Pushwoosh's player plays them: per page its progress bars
/// (■ played, ▣ playing, □ to come), how long it stays, the image, and only the texts and
/// button the player shows.
public enum StoryPlaybackText {
    public static func lines(_ story: PlayedStory) -> [String] {
        guard !story.pages.isEmpty else {
            return ["story \(story.campaign)  plays no page: the extension shows the push text instead"]
                + story.dropped.map { "  page \($0.position) of the file is dropped: \($0.reason.shortNote)" }
        }
        let count = story.pages.count
        var lines = [
            "story \(story.campaign)  \(count) page\(count == 1 ? "" : "s"), \(seconds(story.seconds)) when nobody taps, then it stops"
        ]
        for (index, page) in story.pages.enumerated() {
            let bars = String(story.pages.indices.map { $0 < index ? "■" : $0 == index ? "▣" : "□" })
            let standard = page.usesDefaultDuration ? " (the player's default)" : ""
            let lead = "  page \(index + 1)  \(bars)  "
            lines.append(lead + "\(seconds(page.seconds))\(standard)  \(Excerpt.escaped(page.image))")
            var shown: [String] = []
            if let title = page.title { shown.append("title \(Excerpt.quoted(title))") }
            if let subtitle = page.subtitle { shown.append("subtitle \(Excerpt.quoted(subtitle))") }
            if let button = page.button { shown.append("button \(Excerpt.quoted(button.title)) opens \(Excerpt.escaped(button.link))") }
            // Under the seconds.
            let indent = String(repeating: " ", count: lead.count)
            if !shown.isEmpty { lines.append(indent + shown.joined(separator: " · ")) }
            for change in page.changes { lines.append(indent + "(\(change.shortNote))") }
        }
        lines += story.dropped.map { "  page \($0.position) of the file is dropped: \($0.reason.shortNote)" }
        return lines
    }

    public static func seconds(_ value: Double) -> String { "\(NumberText.format(value)) s" }
}

/// One story of `herald preview --json` as the player plays it (docs/json.md): a hidden title,
/// subtitle or button is left out.
public struct StoryPlaybackJSON: Encodable {
    struct Page: Encodable {
        struct Button: Encodable { let title, link: String }
        let image: String
        let seconds: Double
        let defaultDuration: Bool
        let title, subtitle: String?
        let button: Button?
        /// What the player plays otherwise than the file says (empty for what Herald publishes now).
        let notes: [String]
    }

    struct Dropped: Encodable {
        let position: Int
        let reason: String
    }

    let campaign: String
    let seconds: Double
    let pages: [Page]
    let dropped: [Dropped]

    public init(_ story: PlayedStory) {
        campaign = story.campaign
        seconds = story.seconds
        pages = story.pages.map { page in
            Page(
                image: page.image, seconds: page.seconds, defaultDuration: page.usesDefaultDuration, title: page.title,
                subtitle: page.subtitle, button: page.button.map { Page.Button(title: $0.title, link: $0.link) },
                notes: page.changes.map(\.effect))
        }
        dropped = story.dropped.map { Dropped(position: $0.position, reason: $0.reason.effect) }
    }
}

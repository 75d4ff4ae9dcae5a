import Foundation
import HeraldCore

/// A published story as Pushwoosh's player plays it on a device (docs/clients.md, "Pushwoosh
/// stories"): what `herald preview` shows for each story a device gets.
public struct PlayedStory: Equatable, Sendable {
    public struct DroppedPage: Equatable, Sendable {
        /// 1 for the block's first page.
        public let position: Int
        public let reason: StoryPlayerChange
    }

    public var campaign: String
    /// The pages the player plays, in order. Empty: it shows its fallback instead (the push text).
    public var pages: [PlayedStoryPage]
    /// Pages of the block the player leaves out.
    public var dropped: [DroppedPage]

    /// Seconds from the first page to the end of the last, when nobody taps.
    public var seconds: Double { pages.reduce(0) { $0 + $1.seconds } }
}

/// `StoryPayloadParser.parse(userInfo:)`'s reading of a notification payload, with Herald's
/// model of each page (`StoryPlayer.play`).
public enum StoryPayloadReader {
    /// A published `stories/<campaign>.json`: the block at the payload's root.
    public static func play(campaign: String, file bytes: [UInt8]) -> PlayedStory {
        let payload = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        return play(campaign: campaign, payload: payload)
    }

    /// A notification's payload (its `userInfo`): the `pw_stories` block at the root, else in
    /// the custom data `u` or `userdata` (how createMessage's `data` arrives), each an object or
    /// a JSON string. A payload without a readable block, or whose `pages` is not a list of
    /// objects, plays no page: the extension shows its fallback content.
    public static func play(campaign: String, payload: [String: Any]) -> PlayedStory {
        var story = PlayedStory(campaign: campaign, pages: [], dropped: [])
        guard let block = block(in: payload), let pages = block["pages"] as? [[String: Any]] else { return story }
        for (position, raw) in zip(1..., pages) {
            let outcome = StoryPlayer.play(
                image: raw["image"] as? String, duration: (raw["duration"] as? NSNumber)?.doubleValue, link: raw["link"] as? String,
                buttonTitle: raw["button_title"] as? String, title: raw["title"] as? String, subtitle: raw["subtitle"] as? String)
            switch outcome {
            case .page(let page): story.pages.append(page)
            case .dropped(let reason): story.dropped.append(.init(position: position, reason: reason))
            }
        }
        return story
    }

    static func block(in payload: [String: Any]) -> [String: Any]? {
        if let block = payload["pw_stories"] as? [String: Any] { return block }
        for container in [payload["u"], payload["userdata"]] {
            if let data = object(container), let block = data["pw_stories"] as? [String: Any] { return block }
        }
        return nil
    }

    /// Custom data as an object, or as a JSON string holding one.
    private static func object(_ value: Any?) -> [String: Any]? {
        if let object = value as? [String: Any] { return object }
        guard let text = value as? String else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}

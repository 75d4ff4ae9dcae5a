import HeraldJobs
import HeraldPublish

/// `herald preview` for people: what one device sees on this launch, and why the rest is not shown.
public enum PreviewText {
    public static func render(_ result: PreviewResult) -> String {
        var lines = ["banners eligible  \(result.eligibleBanners.isEmpty ? "-" : result.eligibleBanners.joined(separator: ", "))"]
        if result.eligibleBanners.count > 1 { lines.append("                  (Notable shows one of them per launch, in dictionary order)") }
        lines.append("next alert        \(result.nextAlert ?? "-")")
        if let blocked = result.alertBlocked { lines.append("                  (no alert on this launch: \(blocked))") }
        lines.append("stories           \(result.stories.isEmpty ? "-" : result.stories.joined(separator: ", "))")
        for story in result.storyPlays { lines += StoryPlaybackText.lines(story).map { "  " + $0 } }
        if let local = result.localSchedule { lines += LocalScheduleJSON.lines(local) }
        if !result.notShown.isEmpty {
            lines.append("not shown")
            var table = TextTable("  CAMPAIGN", "REASON")
            for item in result.notShown { table.append("  " + item.campaign, item.reason) }
            lines.append(table.render())
        }
        return lines.joined(separator: "\n")
    }
}

/// `herald preview --json` (docs/json.md).
public struct PreviewJSON: Encodable {
    struct Reason: Encodable { let campaign, reason: String }
    let eligibleBanners: [String]
    let nextAlert: String?
    let alertBlocked: String?
    let stories: [String]
    let storyPlayback: [StoryPlaybackJSON]
    let localNotifications: LocalScheduleJSON?
    let notShown: [Reason]

    public init(_ result: PreviewResult) {
        eligibleBanners = result.eligibleBanners
        nextAlert = result.nextAlert
        alertBlocked = result.alertBlocked
        stories = result.stories
        storyPlayback = result.storyPlays.map(StoryPlaybackJSON.init)
        localNotifications = result.localSchedule.map(LocalScheduleJSON.init)
        notShown = result.notShown.map { Reason(campaign: $0.campaign, reason: $0.reason) }
    }

    enum CodingKeys: String, CodingKey {
        case eligibleBanners, nextAlert, alertBlocked, stories, storyPlayback, localNotifications, notShown
    }

    /// `nextAlert` and `alertBlocked` are always present: a value or null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eligibleBanners, forKey: .eligibleBanners)
        try container.encode(nextAlert, forKey: .nextAlert)
        try container.encode(alertBlocked, forKey: .alertBlocked)
        try container.encode(stories, forKey: .stories)
        try container.encode(storyPlayback, forKey: .storyPlayback)
        try container.encodeIfPresent(localNotifications, forKey: .localNotifications)
        try container.encode(notShown, forKey: .notShown)
    }
}

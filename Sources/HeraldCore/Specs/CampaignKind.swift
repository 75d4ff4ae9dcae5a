/// What a campaign is, which decides the client that reads it: a Notable banner, an iNotify
/// alert or a Pushwoosh story.
public enum CampaignKind: String, CaseIterable, Codable, Sendable, Comparable {
    case banner, alert, story
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

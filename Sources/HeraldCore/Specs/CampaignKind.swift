/// What a campaign is, which decides the client that reads it: a Notable banner, an iNotify
/// alert, a Pushwoosh story, or a local notification the app schedules itself (Herald's
/// client, `clients/HeraldLocalNotifications.swift`).
public enum CampaignKind: String, CaseIterable, Codable, Sendable, Comparable {
    case banner, alert, story, local
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

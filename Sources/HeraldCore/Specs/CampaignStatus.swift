/// Where an operator put a campaign; only active ones are published (`CampaignState` adds
/// the schedule: what devices see).
public enum CampaignStatus: String, CaseIterable, Codable, Sendable {
    case draft, active, paused, archived
}

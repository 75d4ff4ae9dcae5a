import Foundation

/// A campaign as a device would see it at one moment: its status and its schedule together.
/// `active` alone does not say whether devices get it: it may not have started, or have ended.
public enum CampaignState: String, CaseIterable, Sendable, Codable {
    /// Active and running: published, devices get it.
    case live
    /// Active, but its start is still ahead.
    case scheduled
    /// Active, but its end has passed.
    case ended
    case draft, paused, archived

    /// The state of `campaign` at `now`; a schedule runs `startsAt <= now < endsAt`.
    public init(_ campaign: CampaignSpec, at now: Date) {
        switch campaign.status {
        case .draft: self = .draft
        case .paused: self = .paused
        case .archived: self = .archived
        case .active:
            if let start = campaign.startsAt, now < start {
                self = .scheduled
            } else if let end = campaign.endsAt, end <= now {
                self = .ended
            } else {
                self = .live
            }
        }
    }
}

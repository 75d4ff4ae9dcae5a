import Foundation
import HeraldCore

/// Which campaigns a device of one locale gets, and in which language.
public enum PublishSelection {
    /// Active, and `starts_at <= at < ends_at` (open ends allowed).
    public static func isLive(_ campaign: CampaignSpec, at: Date) -> Bool {
        campaign.status == .active && (campaign.startsAt.map { $0 <= at } ?? true) && (campaign.endsAt.map { at < $0 } ?? true)
    }

    /// The content a device of `locale` sees: exact tag → its language → the app's default
    /// locale; nil when the campaign is restricted away from `locale` or has nothing to show.
    public static func content(of campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec) -> CampaignContent? {
        if let restriction = campaign.locales, !restriction.contains(locale) { return nil }
        for candidate in locale.fallbackChain(defaultLocale: app.defaultLocale) {
            if let content = campaign.content[candidate] { return content }
        }
        return nil
    }
}

import Foundation
import HeraldCore

/// Which campaigns a device of one locale gets, and in which language.
public enum PublishSelection {
    /// Active, and `starts_at <= at < ends_at` (open ends allowed).
    public static func isLive(_ campaign: CampaignSpec, at: Date) -> Bool {
        CampaignState(campaign, at: at) == .live
    }

    /// The content a device of `locale` sees: exact tag → its language → the app's default
    /// locale; nil when the campaign is restricted away from `locale` or has nothing to show.
    public static func content(of campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec) -> CampaignContent? {
        contentLocale(of: campaign, for: locale, in: app).flatMap { campaign.content[$0] }
    }

    /// The locale whose content a device of `locale` sees (itself, or where it falls back to);
    /// nil when the campaign is restricted away from `locale` or has nothing to show.
    public static func contentLocale(of campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec) -> LocaleTag? {
        if let restriction = campaign.locales, !restriction.contains(locale) { return nil }
        return locale.fallbackChain(defaultLocale: app.defaultLocale).first { campaign.content[$0] != nil }
    }
}

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
        shown(campaign, for: locale, in: app).map { campaign.content[$0.index].value }
    }

    /// The locale whose content a device of `locale` sees (itself, or where it falls back to);
    /// nil when the campaign is restricted away from `locale` or has nothing to show.
    public static func contentLocale(of campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec) -> LocaleTag? {
        shown(campaign, for: locale, in: app)?.locale
    }

    /// Both, as where `campaign.content` holds it: `locale.fallbackChain(defaultLocale:)` walked
    /// without building it, each locale looked up once and no content copied (this runs for
    /// every campaign in every locale).
    private static func shown(
        _ campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec
    ) -> (locale: LocaleTag, index: [LocaleTag: CampaignContent].Index)? {
        if let restriction = campaign.locales, !restriction.contains(locale) { return nil }
        let content = campaign.content
        if let index = content.index(forKey: locale) { return (locale, index) }
        let language = locale.language
        if language != locale, let index = content.index(forKey: language) { return (language, index) }
        let fallback = app.defaultLocale
        if fallback != locale, fallback != language, let index = content.index(forKey: fallback) { return (fallback, index) }
        return nil
    }
}

extension PublishSelection {
    /// Banners left out of `locale`'s control.json, each with the banner that wins: a banner
    /// is left out when one of higher priority, also published there, qualifies on every device
    /// where it does (`BannerLogic.implies`). Notable would otherwise pick between the two in
    /// dictionary order; without the lower one, every such device shows the higher one, as
    /// priority says, and no device loses a banner it could have seen.
    public static func bannersLeftOut(_ live: [CampaignSpec], for locale: LocaleTag, in app: AppSpec) -> [Slug: CampaignSpec] {
        var proofs = BannerProofs(live)
        return bannersLeftOut(live, for: locale, in: app, proofs: &proofs)
    }

    /// The same, with what was proven for the app's other locales (conditions do not depend on
    /// the locale, so each pair of banners is proven once per app, not once per locale).
    static func bannersLeftOut(
        _ live: [CampaignSpec], for locale: LocaleTag, in app: AppSpec, proofs: inout BannerProofs
    ) -> [Slug: CampaignSpec] {
        // Indices into `live`, not copies of whole campaigns (this runs per locale of every app).
        let banners = live.indices.filter { live[$0].kind == .banner && contentLocale(of: live[$0], for: locale, in: app) != nil }
        guard let first = banners.first, banners.contains(where: { live[$0].priority != live[first].priority }) else { return [:] }
        let byPriority = banners.sorted { (live[$0].priority, live[$1].key) > (live[$1].priority, live[$0].key) }
        var leftOut: [Slug: CampaignSpec] = [:]
        for lower in banners {
            if let winner = byPriority.first(where: { live[$0].priority > live[lower].priority && proofs.implies(lower, $0, in: live) }) {
                leftOut[live[lower].key] = live[winner]
            }
        }
        return leftOut
    }
}

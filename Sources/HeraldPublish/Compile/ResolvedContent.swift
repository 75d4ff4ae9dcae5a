import Foundation
import HeraldCore

/// The content a device of one locale gets, as publish writes it: the locale's own content or
/// the one it falls back to, with an alert's ActionURL and ActionButton inherited along the
/// chain (`ResolvedAlert`). Publish writes from it and the board draws from it, so a card
/// cannot show other words than the files.
public struct ResolvedContent: Equatable, Sendable {
    public var content: CampaignContent
    /// The locale whose content this is (the locale itself, or one along its fallback chain).
    public var source: LocaleTag
    /// For an alert: the locales its ActionURL and ActionButton came from, when not `source`.
    public var actionURLFrom: LocaleTag?
    public var actionButtonFrom: LocaleTag?
}

extension PublishSelection {
    /// What publish writes for `campaign` in `locale`; nil when it writes nothing there
    /// (restricted away, or no content along the chain).
    public static func resolved(_ campaign: CampaignSpec, for locale: LocaleTag, in app: AppSpec) -> ResolvedContent? {
        guard let source = contentLocale(of: campaign, for: locale, in: app), let content = campaign.content[source] else { return nil }
        guard case .alert = content else { return ResolvedContent(content: content, source: source) }
        guard let alert = ResolvedAlert.resolve(campaign.content, for: locale, defaultLocale: app.defaultLocale) else {
            return ResolvedContent(content: content, source: source)
        }
        return ResolvedContent(
            content: .alert(alert.alert), source: alert.contentLocale,
            actionURLFrom: alert.actionURLLocale.flatMap { $0 == alert.contentLocale ? nil : $0 },
            actionButtonFrom: alert.actionButtonLocale.flatMap { $0 == alert.contentLocale ? nil : $0 })
    }
}

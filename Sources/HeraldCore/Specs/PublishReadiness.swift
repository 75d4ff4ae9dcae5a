import Foundation

/// Why a campaign could not be published as it is: `activate` refuses it with these reasons.
public enum PublishReadiness {
    /// `activating`: the campaign is being made active now (`campaign activate`, a file that
    /// turns it active), which is pointless once it has ended. A campaign stored active as it
    /// is (a file exported from another database: its end may have passed since) is not.
    public static func problems(campaign: CampaignSpec, app: AppSpec, now: Date, activating: Bool = true) -> [String] {
        var problems: [String] = []
        let supported = Set(app.locales)
        let allowed = campaign.locales.map { Set($0).intersection(supported) } ?? supported
        for locale in campaign.locales ?? [] where !supported.contains(locale) {
            problems.append("its locale restriction names \(locale), which app \(app.slug) does not support")
        }
        for locale in campaign.content.keys.sorted() where !supported.contains(locale) {
            problems.append("it has content for \(locale), which app \(app.slug) does not support")
        }
        if campaign.locales == nil || allowed.contains(app.defaultLocale) {
            if campaign.content[app.defaultLocale] == nil {
                problems.append(
                    "it has no content in the app's default locale \(app.defaultLocale), which every other locale falls back to")
            }
        } else if !allowed.contains(where: { locale in
            locale.fallbackChain(defaultLocale: app.defaultLocale).contains { campaign.content[$0] != nil }
        }) {
            problems.append("it has no content for any of its locales (\(allowed.sorted().map(\.rawValue).joined(separator: ", ")))")
        }
        if activating, let endsAt = campaign.endsAt, endsAt <= now {
            problems.append("it ended at \(Timestamp.format(endsAt)), which is in the past")
        }
        // A notification that fires once, at a time past on every device's clock, fires nowhere.
        if activating, let notification = campaign.localNotification, notification.repeatInterval == nil,
            notification.fireDate.latestInstant <= now
        {
            problems.append("it fires once, at \(notification.fireDate.words), which has passed on every device")
        }
        for (locale, content) in campaign.content.sorted(by: { $0.key < $1.key }) {
            if case .banner(let banner) = content, !banner.views.contains(where: { $0.id == banner.entry }) {
                problems.append("its \(locale) entry \(banner.entry) names no view, so the client would never show it")
            }
            // Pages stored before the player's rules: published as they are, they would not play as written.
            if case .story(let story) = content {
                for (number, page) in zip(1..., story.pages) {
                    for change in page.playerChanges() {
                        problems.append("its \(locale) page \(number) would not play as written: \(change.message)")
                    }
                }
            }
        }
        return problems
    }
}

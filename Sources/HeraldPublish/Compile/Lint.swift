import Foundation
import HeraldCore

/// Warnings about campaigns that would not behave as their author expects on devices, each
/// with what devices do (docs/clients.md has the client code behind every one).
enum Lint {
    /// `leftOut`: the banners each locale leaves out (`PublishSelection.bannersLeftOut`), when
    /// the caller has them already.
    static func warnings(
        app: AppSpec, tenant: TenantSpec, live: [CampaignSpec], published: Set<Slug>, at: Date,
        leftOut: [LocaleTag: [Slug: CampaignSpec]]? = nil
    ) -> [String] {
        let where_ = "\(tenant.slug)/\(app.slug)"
        var warnings: [String] = []
        warnings += bannerPriorityWarnings(app: app, live: live, where_: where_, leftOut: leftOut)
        for campaign in live where campaign.kind == .banner {
            warnings += bannerConditionWarnings(campaign, at: at, where_: where_)
        }
        warnings += alertWarnings(app: app, live: live, where_: where_)
        for campaign in live {
            for condition in campaign.conditions.conditions {
                guard case .version(let version) = condition.value else { continue }
                for surprise in version.surprises {
                    warnings.append("\(where_)/\(campaign.key): \(condition.group.rawValue).\(condition.type.rawValue)=\(surprise)")
                }
            }
        }
        for campaign in live where campaign.kind == .story {
            for (locale, content) in campaign.content.sorted(by: { $0.key < $1.key }) {
                guard case .story(let story) = content else { continue }
                for (index, page) in story.pages.enumerated() where !page.image.isHTTPS {
                    warnings.append("\(where_)/\(campaign.key) [\(locale)] page \(index + 1): image \(page.image) is not https")
                }
            }
        }
        for campaign in app.campaigns where campaign.status == .active && !published.contains(campaign.key) {
            let reason =
                !live.contains { $0.key == campaign.key }
                ? "its schedule is not running"
                : campaign.kind == .banner && app.locales.contains(where: { PublishSelection.content(of: campaign, for: $0, in: app) != nil })
                    ? "a banner of higher priority is published wherever it qualifies (see above)"
                    : "no content reaches any locale"
            warnings.append("\(where_)/\(campaign.key) is active but appears in no file: \(reason)")
        }
        return warnings
    }

    // MARK: Notable

    /// Banners left out for priority, and published banners that can qualify on the same
    /// device: Notable shows one banner per launch, the first eligible one it meets in an
    /// unordered dictionary, so neither file order nor priority decides between them. Pairs
    /// are named one by one; a larger group of banners that overlap is named once.
    static func bannerPriorityWarnings(
        app: AppSpec, live: [CampaignSpec], where_: String, leftOut known: [LocaleTag: [Slug: CampaignSpec]]? = nil
    ) -> [String] {
        var leftOut: [String: (winner: CampaignSpec, locales: [LocaleTag])] = [:]
        var groups: [[Slug]: (banners: [CampaignSpec], locales: [LocaleTag])] = [:]
        let liveBanners = live.filter { $0.kind == .banner }
        // Each banner's Wi-Fi demands once, not once per pair.
        let demands = Dictionary(uniqueKeysWithValues: liveBanners.map { ($0.key, BannerLogic.wifiDemands($0.conditions)) })
        for locale in app.locales {
            let out = known?[locale] ?? PublishSelection.bannersLeftOut(live, for: locale, in: app)
            for (key, winner) in out {
                leftOut[key.rawValue, default: (winner, [])].locales.append(locale)
            }
            let banners = liveBanners.filter { out[$0.key] == nil && PublishSelection.content(of: $0, for: locale, in: app) != nil }
            for group in overlapGroups(banners, demands: demands) where group.count > 1 {
                groups[group.map(\.key), default: (group, [])].locales.append(locale)
            }
        }
        var warnings: [String] = []
        for (key, found) in leftOut.sorted(by: { $0.key < $1.key }) {
            let lower = live.first { $0.key.rawValue == key }
            warnings.append(
                "\(where_) [\(names(found.locales))]: banner \(key) (priority \(lower?.priority ?? 0)) is left out of control.json: every "
                    + "device that qualifies for it also qualifies for \(found.winner.key) (priority \(found.winner.priority)), which "
                    + "those devices are shown instead, as priority says (Notable itself would pick one in dictionary order)")
        }
        for (keys, found) in groups.sorted(by: { $0.key.map(\.rawValue).joined(separator: " ") < $1.key.map(\.rawValue).joined(separator: " ") }) {
            let banners = found.banners
            if banners.count == 2 || banners.count == 3 {
                for (index, a) in banners.enumerated() {
                    for b in banners[(index + 1)...] where BannerLogic.canOverlap(demands[a.key] ?? [], demands[b.key] ?? []) {
                        warnings.append(pairWarning(a, b, locales: found.locales, where_: where_))
                    }
                }
            } else {
                let named = keys.prefix(4).map(\.rawValue).joined(separator: ", ") + (keys.count > 4 ? " and \(keys.count - 4) more" : "")
                warnings.append(
                    "\(where_) [\(names(found.locales))]: banners \(named) can qualify on the same device in pairs or more: such a device "
                        + "is shown one of them per launch, the first Notable meets in dictionary order, which differs between devices "
                        + "(not by priority)")
            }
        }
        return warnings
    }

    private static func pairWarning(_ a: CampaignSpec, _ b: CampaignSpec, locales: [LocaleTag], where_: String) -> String {
        var text =
            "\(where_) [\(names(locales))]: banners \(a.key) and \(b.key) can qualify on the same device "
            + "(\(a.key): \(describe(a.conditions)); \(b.key): \(describe(b.conditions))): such a device is shown one of them per "
            + "launch, the first Notable meets in dictionary order, which differs between devices; a device where only one "
            + "qualifies is shown that one"
        if a.priority != b.priority {
            let (high, low) = a.priority > b.priority ? (a, b) : (b, a)
            text +=
                "; \(high.key)'s higher priority (\(high.priority) > \(low.priority)) is not honoured there: Herald leaves \(low.key) "
                + "out only where every device that qualifies for it also qualifies for \(high.key)"
        }
        return text
    }

    /// Banners joined when they can qualify together (connected groups, each sorted by key).
    static func overlapGroups(_ banners: [CampaignSpec], demands: [Slug: [Bool?]]) -> [[CampaignSpec]] {
        var groupOf = Array(banners.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while groupOf[index] != index { index = groupOf[index] }
            return index
        }
        for i in banners.indices {
            for j in banners.indices where j > i && BannerLogic.canOverlap(demands[banners[i].key] ?? [], demands[banners[j].key] ?? []) {
                groupOf[root(j)] = root(i)
            }
        }
        return Dictionary(grouping: banners.indices, by: root).values
            .map { $0.map { banners[$0] }.sorted { $0.key < $1.key } }
            .sorted { $0[0].key < $1[0].key }
    }

    /// Conditions whose value means something else on the device than it seems to.
    static func bannerConditionWarnings(_ campaign: CampaignSpec, at: Date, where_: String) -> [String] {
        var warnings: [String] = []
        let sinceReference = Int(at.timeIntervalSince(DevicePreview.referenceDate))
        for condition in campaign.conditions.conditions {
            let name = "\(where_)/\(campaign.key): \(condition.group.rawValue).\(condition.type.rawValue)=\(condition.value.text)"
            switch (condition.type, condition.value, condition.group) {
            case (.lastDisplayMinimumLaunches, .integer(0), .all):
                warnings.append(
                    "\(name) is always true on a device (Notable counts the current launch before it checks, so the count is at "
                        + "least 1): it restricts nothing")
            case (.lastDisplayMinimumLaunches, .integer(0), .any):
                warnings.append(
                    "\(name) is always true on a device (Notable counts the current launch before it checks, so the count is at "
                        + "least 1): the whole `any` group always holds, whatever its other conditions say")
            case (.lastDisplayMinimumSeconds, .integer(let seconds), let group) where seconds >= sinceReference:
                let years = String(format: "%.1f", Double(seconds) / (365.25 * 86_400))
                let effect = group == .all ? "so no device shows this banner" : "so this condition holds on no device"
                let from = Timestamp.format(DevicePreview.referenceDate.addingTimeInterval(Double(seconds) + 1))
                warnings.append(
                    "\(name) (\(years) years) is met nowhere: Notable measures a banner never shown from its reference date, "
                        + "2001-01-01, which is \(sinceReference) s ago, and a banner shown before from its last display, \(effect) "
                        + "(before \(from), when banners never shown start to meet it)")
            default:
                break
            }
        }
        return warnings
    }

    // MARK: iNotify

    static func alertWarnings(app: AppSpec, live: [CampaignSpec], where_: String) -> [String] {
        var warnings: [String] = []
        let alerts = live.filter { $0.kind == .alert && $0.messageKey != nil }
        // iNotify shows the last key in case-insensitive order first: it should be the newest.
        let byKey = alerts.sorted { MessageKey.order($0.messageKey?.rawValue ?? "", $1.messageKey?.rawValue ?? "") < 0 }
        for (older, newer) in zip(byKey, byKey.dropFirst()) {
            if let olderStart = older.startsAt, let newerStart = newer.startsAt, olderStart > newerStart {
                warnings.append(
                    "\(where_): alert \(older.key) (key \(older.messageKey?.rawValue ?? "")) started after \(newer.key) "
                        + "(key \(newer.messageKey?.rawValue ?? "")) but sorts before it, so iNotify shows the older message first")
            }
        }
        // Keys that read as numbered one way and sort as text the other: 2026/11/23-10 before -2.
        for (index, first) in byKey.enumerated() {
            for second in byKey[(index + 1)...] {
                guard let a = first.messageKey?.rawValue, let b = second.messageKey?.rawValue else { continue }
                if MessageKey.order(a, b) == 0 {
                    warnings.append(
                        "\(where_): alerts \(first.key) (key \(a)) and \(second.key) (key \(b)) have keys that differ only in case: "
                            + "iNotify sorts keys case-insensitively, so which one devices show first is undefined")
                } else if NumericSearch.compare(a, b) > 0 {
                    warnings.append(
                        "\(where_): alert \(second.key) (key \(b)) is shown before \(first.key) (key \(a)), although \(a) is numbered "
                            + "after \(b): iNotify sorts keys as text, where \(a) comes first, so the older message is shown first")
                }
            }
        }
        for campaign in alerts {
            // An ActionURL the device cannot open makes iNotify show nothing at all.
            var schemes: [String: [LocaleTag]] = [:]
            var englishButtons: [LocaleTag: ResolvedAlert] = [:]
            for locale in app.locales where PublishSelection.content(of: campaign, for: locale, in: app) != nil {
                guard let resolved = ResolvedAlert.resolve(campaign.content, for: locale, defaultLocale: app.defaultLocale) else { continue }
                if let url = resolved.alert.actionURL, let scheme = DevicePreview.schemeOf(url.rawValue), !["http", "https"].contains(scheme) {
                    schemes[url.rawValue, default: []].append(locale)
                }
                if let buttonLocale = resolved.actionButtonLocale, buttonLocale != resolved.contentLocale {
                    englishButtons[locale] = resolved
                }
            }
            for (url, locales) in schemes.sorted(by: { $0.key < $1.key }) {
                warnings.append(
                    "\(where_)/\(campaign.key) [\(names(locales))]: ActionURL \(url) has a custom scheme: devices without an app for "
                        + "it (or whose app does not list it in LSApplicationQueriesSchemes) show no alert at all, not even the next one")
            }
            if !englishButtons.isEmpty {
                let byButton = Dictionary(grouping: englishButtons.keys.sorted()) { englishButtons[$0]?.actionButtonLocale ?? app.defaultLocale }
                for (source, locales) in byButton.sorted(by: { $0.key < $1.key }) {
                    let label = englishButtons[locales[0]]?.alert.actionButton ?? ""
                    warnings.append(
                        "\(where_)/\(campaign.key) [\(names(locales))]: translated alerts show the \(source) action button \(JSONText.quoted(label)); "
                            + "translate it with `herald campaign update \(campaign.key) --app \(app.slug) --locale \(locales[0]) --action-button …`")
                }
            }
        }
        return warnings
    }

    private static func names(_ locales: [LocaleTag]) -> String {
        locales.map(\.rawValue).joined(separator: ", ")
    }

    static func describe(_ set: ConditionSet) -> String {
        set.isEmpty ? "no conditions" : set.conditions.map { "\($0.group.rawValue).\($0.type.rawValue)=\($0.value.text)" }.joined(separator: ", ")
    }
}

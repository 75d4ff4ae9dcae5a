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
        for index in live.indices where live[index].kind == .banner {
            warnings += bannerConditionWarnings(live[index], at: at, where_: where_)
        }
        warnings += alertWarnings(app: app, live: live, where_: where_)
        // Indices, not copies of whole campaigns: this runs for every app of a publish.
        for index in live.indices {
            for condition in live[index].conditions.conditions {
                guard case .version(let version) = condition.value else { continue }
                for surprise in version.surprises {
                    warnings.append("\(where_)/\(live[index].key): \(condition.group.rawValue).\(condition.type.rawValue)=\(surprise)")
                }
            }
        }
        for index in live.indices where live[index].kind == .story {
            for (locale, content) in live[index].content.sorted(by: { $0.key < $1.key }) {
                guard case .story(let story) = content else { continue }
                for (number, page) in zip(1..., story.pages) {
                    if !page.image.isHTTPS {
                        warnings.append("\(where_)/\(live[index].key) [\(locale)] page \(number): image \(page.image) is not https")
                    }
                    // Stored before input refused such pages: published as stored, never rewritten; one
                    // warning per page, with everything the player would change in it.
                    let changes = page.playerChanges()
                    if !changes.isEmpty {
                        warnings.append(
                            "\(where_)/\(live[index].key) [\(locale)] page \(number): \(changes.map(\.message).joined(separator: "; also, ")) "
                                + "(`herald campaign update \(live[index].key) --app \(app.slug) --locale \(locale) --page …` with every page, "
                                + "in order)")
                    }
                }
            }
        }
        for index in app.campaigns.indices where app.campaigns[index].status == .active && !published.contains(app.campaigns[index].key) {
            let campaign = app.campaigns[index]
            let reason =
                !live.contains { $0.key == campaign.key }
                ? "its schedule is not running"
                : campaign.kind == .banner && app.locales.contains(where: { PublishSelection.contentLocale(of: campaign, for: $0, in: app) != nil })
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
        // Groups as positions in `banners`, with the locales where they form.
        var groups: [[Int]: [LocaleTag]] = [:]
        // Indices into `live` of the banners, by key: then every group lists its banners by key,
        // and groups come out ordered by their first key.
        let banners = live.indices.filter { live[$0].kind == .banner }.sorted { live[$0].key < live[$1].key }
        // Which banners can qualify together, worked out once per pair, not once per pair and locale.
        let demands = banners.map { BannerLogic.wifiDemands(live[$0].conditions) }
        let overlaps = demands.map { a in demands.map { b in BannerLogic.canOverlap(a, b) } }
        for locale in app.locales {
            let out = known?[locale] ?? PublishSelection.bannersLeftOut(live, for: locale, in: app)
            for (key, winner) in out {
                leftOut[key.rawValue, default: (winner, [])].locales.append(locale)
            }
            let shown = banners.indices.filter {
                out[live[banners[$0]].key] == nil && PublishSelection.contentLocale(of: live[banners[$0]], for: locale, in: app) != nil
            }
            for group in overlapGroups(shown, overlaps: overlaps) where group.count > 1 {
                groups[group, default: []].append(locale)
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
        let listed = groups.map { (members: $0.key, locales: $0.value, keys: $0.key.map { live[banners[$0]].key.rawValue }) }
        for found in listed.sorted(by: { $0.keys.joined(separator: " ") < $1.keys.joined(separator: " ") }) {
            let members = found.members
            if members.count == 2 || members.count == 3 {
                for (index, a) in members.enumerated() {
                    for b in members[(index + 1)...] where overlaps[a][b] {
                        warnings.append(pairWarning(live[banners[a]], live[banners[b]], locales: found.locales, where_: where_))
                    }
                }
            } else {
                let keys = found.keys
                let named = keys.prefix(4).joined(separator: ", ") + (keys.count > 4 ? " and \(keys.count - 4) more" : "")
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

    /// Banners joined when they can qualify together: connected groups of `members` (positions,
    /// `overlaps[i][j]` saying whether banners i and j can qualify together), each group in the
    /// order of `members`, the groups in the order of their first member.
    static func overlapGroups(_ members: [Int], overlaps: [[Bool]]) -> [[Int]] {
        var groupOf = Array(members.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while groupOf[index] != index { index = groupOf[index] }
            return index
        }
        for i in members.indices {
            for j in members.indices where j > i && overlaps[members[i]][members[j]] {
                groupOf[root(j)] = root(i)
            }
        }
        var groups: [[Int]] = []
        var groupOfRoot = [Int?](repeating: nil, count: members.count)
        for index in members.indices {
            let top = root(index)
            if let group = groupOfRoot[top] {
                groups[group].append(members[index])
            } else {
                groupOfRoot[top] = groups.count
                groups.append([members[index]])
            }
        }
        return groups
    }

    /// Conditions whose value means something else on the device than it seems to.
    static func bannerConditionWarnings(_ campaign: CampaignSpec, at: Date, where_: String) -> [String] {
        var warnings: [String] = []
        let sinceReference = Int(at.timeIntervalSince(DevicePreview.referenceDate))
        for condition in campaign.conditions.conditions {
            // Built only for the rare condition warned about.
            var name: String { "\(where_)/\(campaign.key): \(condition.group.rawValue).\(condition.type.rawValue)=\(condition.value.text)" }
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
        // Indices into `live`, not copies of whole campaigns (this runs for every app of a publish).
        let alerts = live.indices.filter { live[$0].kind == .alert && live[$0].messageKey != nil }
        func key(_ index: Int) -> String { live[index].messageKey?.rawValue ?? "" }
        // iNotify shows the last key in case-insensitive order first: it should be the newest.
        let byKey = alerts.sorted { MessageKey.order(key($0), key($1)) < 0 }
        for (older, newer) in zip(byKey, byKey.dropFirst()) {
            if let olderStart = live[older].startsAt, let newerStart = live[newer].startsAt, olderStart > newerStart {
                warnings.append(
                    "\(where_): alert \(live[older].key) (key \(key(older))) started after \(live[newer].key) "
                        + "(key \(key(newer))) but sorts before it, so iNotify shows the older message first")
            }
        }
        // Keys that read as numbered one way and sort as text the other: 2026/11/23-10 before -2.
        for (position, first) in byKey.enumerated() {
            for second in byKey[(position + 1)...] {
                let (a, b) = (key(first), key(second))
                if MessageKey.order(a, b) == 0 {
                    warnings.append(
                        "\(where_): alerts \(live[first].key) (key \(a)) and \(live[second].key) (key \(b)) have keys that differ only in case: "
                            + "iNotify sorts keys case-insensitively, so which one devices show first is undefined")
                } else if NumericSearch.compare(a, b) > 0 {
                    warnings.append(
                        "\(where_): alert \(live[second].key) (key \(b)) is shown before \(live[first].key) (key \(a)), although \(a) is numbered "
                            + "after \(b): iNotify sorts keys as text, where \(a) comes first, so the older message is shown first")
                }
            }
        }
        for index in alerts {
            let campaign = live[index]
            // An ActionURL the device cannot open makes iNotify show nothing at all.
            var schemes: [String: [LocaleTag]] = [:]
            var englishButtons: [LocaleTag: ResolvedAlert] = [:]
            for locale in app.locales where PublishSelection.contentLocale(of: campaign, for: locale, in: app) != nil {
                guard let resolved = ResolvedAlert.resolve(campaign.content, for: locale, defaultLocale: app.defaultLocale) else { continue }
                if let url = resolved.alert.actionURL, let scheme = DevicePreview.schemeOf(url.rawValue), scheme != "http", scheme != "https" {
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

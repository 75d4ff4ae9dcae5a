import HeraldCore

/// Warnings about campaigns that would not behave as their author expects on devices.
enum Lint {
    static func warnings(app: AppSpec, tenant: TenantSpec, live: [CampaignSpec], published: Set<Slug>) -> [String] {
        let where_ = "\(tenant.slug)/\(app.slug)"
        var warnings: [String] = []
        // Notable shows one banner per launch, the first it meets in an unordered dictionary.
        // Banners that can qualify together are reported once per group, with the locales.
        var groups: [[Slug]: (locales: [LocaleTag], conditions: [String])] = [:]
        for locale in app.locales {
            let banners = live.filter { $0.kind == .banner && PublishSelection.content(of: $0, for: locale, in: app) != nil }
            for group in overlapGroups(banners) where group.count > 1 {
                let keys = group.map(\.key)
                groups[keys, default: ([], group.map { "\($0.key): \(describe($0.conditions))" })].locales.append(locale)
            }
        }
        for (keys, found) in groups.sorted(by: { $0.key.map(\.rawValue).joined() < $1.key.map(\.rawValue).joined() }) {
            let named = keys.count <= 4 ? keys.map(\.rawValue).joined(separator: ", ") : keys.prefix(4).map(\.rawValue).joined(separator: ", ") + " and \(keys.count - 4) more"
            let detail = keys.count <= 2 ? " (\(found.conditions.joined(separator: "; ")))" : ""
            warnings.append(
                "\(where_) [\(found.locales.map(\.rawValue).joined(separator: ", "))]: banners \(named) can be eligible on the same "
                    + "device at once\(detail); the client shows one of them in dictionary order, not by priority")
        }
        // iNotify shows the last key in case-insensitive order first: it should be the newest.
        let alerts = live.filter { $0.kind == .alert && $0.messageKey != nil }
        let byKey = alerts.sorted { ($0.messageKey?.rawValue.lowercased() ?? "") < ($1.messageKey?.rawValue.lowercased() ?? "") }
        for (older, newer) in zip(byKey, byKey.dropFirst()) {
            if let olderStart = older.startsAt, let newerStart = newer.startsAt, olderStart > newerStart {
                warnings.append(
                    "\(where_): alert \(older.key) (key \(older.messageKey?.rawValue ?? "")) started after \(newer.key) "
                        + "(key \(newer.messageKey?.rawValue ?? "")) but sorts before it, so iNotify shows the older message first")
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
            let reason = live.contains { $0.key == campaign.key } ? "no content reaches any locale" : "its schedule is not running"
            warnings.append("\(where_)/\(campaign.key) is active but appears in no file: \(reason)")
        }
        return warnings
    }

    /// Banners joined when they can qualify together (connected groups, each sorted by key).
    static func overlapGroups(_ banners: [CampaignSpec]) -> [[CampaignSpec]] {
        var groupOf = Array(banners.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while groupOf[index] != index { index = groupOf[index] }
            return index
        }
        // Each banner's Wi-Fi demand once, not once per pair.
        let wifi = banners.map { requiredWifi($0.conditions) }
        for i in banners.indices {
            for j in banners.indices where j > i && canOverlap(wifi[i], wifi[j]) {
                groupOf[root(j)] = root(i)
            }
        }
        return Dictionary(grouping: banners.indices, by: root).values
            .map { $0.map { banners[$0] }.sorted { $0.key < $1.key } }
            .sorted { $0[0].key < $1[0].key }
    }

    /// Two banners can both qualify unless their `all` groups (or single-condition `any`
    /// groups) demand opposite Wi-Fi states: no other condition type can exclude another.
    private static func canOverlap(_ a: Bool?, _ b: Bool?) -> Bool {
        if let a, let b, a != b { return false }
        return true
    }

    /// The Wi-Fi state a banner's conditions demand, if any.
    private static func requiredWifi(_ set: ConditionSet) -> Bool? {
        if case .bool(let value)? = set.value(group: .all, type: .onWifi) { return value }
        let any = set.conditions.filter { $0.group == .any }
        if any.count == 1, any[0].type == .onWifi, case .bool(let value) = any[0].value { return value }
        return nil
    }

    static func describe(_ set: ConditionSet) -> String {
        set.isEmpty ? "no conditions" : set.conditions.map { "\($0.group.rawValue).\($0.type.rawValue)=\($0.value.text)" }.joined(separator: ", ")
    }
}

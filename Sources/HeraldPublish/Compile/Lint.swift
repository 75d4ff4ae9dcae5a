import HeraldCore

/// Warnings about campaigns that would not behave as their author expects on devices.
enum Lint {
    static func warnings(app: AppSpec, tenant: TenantSpec, live: [CampaignSpec], published: Set<Slug>) -> [String] {
        let where_ = "\(tenant.slug)/\(app.slug)"
        var warnings: [String] = []
        // Notable shows one banner per launch, the first it meets in an unordered dictionary.
        for locale in app.locales {
            let banners = live.filter {
                $0.kind == .banner && PublishSelection.content(of: $0, for: locale, in: app) != nil
            }
            for (index, first) in banners.enumerated() {
                for second in banners[(index + 1)...] where canOverlap(first.conditions, second.conditions) {
                    warnings.append(
                        "\(where_) [\(locale)]: banners \(first.key) and \(second.key) can be eligible on the same device at once "
                            + "(\(describe(first.conditions)) / \(describe(second.conditions))); the client shows one of them in "
                            + "dictionary order, not by priority")
                }
            }
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

    /// Two banners can both qualify unless their `all` groups (or single-condition `any`
    /// groups) demand opposite Wi-Fi states: no other condition type can exclude another.
    static func canOverlap(_ a: ConditionSet, _ b: ConditionSet) -> Bool {
        func requiredWifi(_ set: ConditionSet) -> Bool? {
            if case .bool(let value)? = set.value(group: .all, type: .onWifi) { return value }
            let any = set.conditions.filter { $0.group == .any }
            if any.count == 1, any[0].type == .onWifi, case .bool(let value) = any[0].value { return value }
            return nil
        }
        if let x = requiredWifi(a), let y = requiredWifi(b), x != y { return false }
        return true
    }

    static func describe(_ set: ConditionSet) -> String {
        set.isEmpty ? "no conditions" : set.conditions.map { "\($0.group.rawValue).\($0.type.rawValue)=\($0.value.text)" }.joined(separator: ", ")
    }
}

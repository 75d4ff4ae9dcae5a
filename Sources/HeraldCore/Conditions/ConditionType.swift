/// Every targeting condition Herald knows, with the client that reads it.
public enum ConditionType: String, CaseIterable, Codable, Sendable, Comparable {
    // Notable (banner), in `all` or `any`.
    case onWifi, neverDisplayed, lastDisplayMinimumSeconds, lastDisplayMinimumLaunches, flagNotSet
    case iOSVersionLessThan, appVersionLessThan
    // iNotify (alert): MinVersion / MaxVersion, inclusive.
    case minAppVersion, maxAppVersion

    public enum ValueKind: String, Sendable {
        case bool = "true or false"
        case integer = "a whole number of 0 or more"
        case string = "a non-empty name"
        case version = "a version such as 2.4.0"
    }

    public var valueKind: ValueKind {
        switch self {
        case .onWifi, .neverDisplayed: .bool
        case .lastDisplayMinimumSeconds, .lastDisplayMinimumLaunches: .integer
        case .flagNotSet: .string
        case .iOSVersionLessThan, .appVersionLessThan, .minAppVersion, .maxAppVersion: .version
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What each kind of campaign can express, because of what its client reads.
public enum KindCapabilities {
    public static func supportedConditions(for kind: CampaignKind) -> [ConditionType] {
        switch kind {
        case .banner:
            [.onWifi, .neverDisplayed, .lastDisplayMinimumSeconds, .lastDisplayMinimumLaunches, .flagNotSet,
             .iOSVersionLessThan, .appVersionLessThan]
        case .alert: [.minAppVersion, .maxAppVersion]
        case .story, .local: []
        }
    }

    public static func supportedGroups(for kind: CampaignKind) -> [ConditionGroup] {
        switch kind {
        case .banner: [.all, .any]
        case .alert: [.all]
        case .story, .local: []
        }
    }

    /// Refuses a condition the kind cannot express, listing what it supports.
    public static func check(_ type: ConditionType, group: ConditionGroup, kind: CampaignKind) throws(ValidationError) {
        let supported = supportedConditions(for: kind)
        if supported.isEmpty {
            throw ValidationError(message: "\(kind) campaigns take no device conditions (only schedule and locales)")
        }
        guard supported.contains(type) else {
            throw ValidationError(
                message: "\(kind) campaigns do not support condition \(quote(type.rawValue)); supported: "
                    + supported.map(\.rawValue).joined(separator: ", "))
        }
        guard supportedGroups(for: kind).contains(group) else {
            throw ValidationError(
                message: "\(kind) conditions go in the `all` group only (the client checks every one of them), not `\(group.rawValue)`")
        }
    }
}

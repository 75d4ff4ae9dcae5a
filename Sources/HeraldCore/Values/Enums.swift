public enum CampaignKind: String, CaseIterable, Codable, Sendable, Comparable {
    case banner, alert, story
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

public enum CampaignStatus: String, CaseIterable, Codable, Sendable {
    case draft, active, paused, archived
}

public enum Platform: String, CaseIterable, Codable, Sendable {
    case ios, macos
}

/// Notable's two condition groups: every `all` condition must hold, and one `any` condition
/// (if the group is not empty).
public enum ConditionGroup: String, CaseIterable, Codable, Sendable, Comparable {
    case all, any
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a Notable banner slides in from; absent means bottom on the device.
public enum ViewOrigin: String, CaseIterable, Codable, Sendable {
    case top, bottom
}

/// Parses a raw value of a String enum with a message listing the choices.
func parseEnum<E: RawRepresentable & CaseIterable>(_ raw: String, _ what: String, as type: E.Type = E.self)
    throws(ValidationError) -> E where E.RawValue == String
{
    guard let value = E(rawValue: raw) else {
        throw ValidationError(
            message: "unknown \(what) \(quote(raw)): use one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return value
}

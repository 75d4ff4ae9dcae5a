/// Notable's two condition groups: every `all` condition must hold, and one `any` condition
/// (if the group is not empty).
public enum ConditionGroup: String, CaseIterable, Codable, Sendable, Comparable {
    case all, any
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A condition's value, typed by its condition type.
public enum ConditionValue: Hashable, Sendable {
    case bool(Bool)
    case integer(Int)
    case string(String)
    case version(Version)

    /// The JSON the clients read: `true`, `5`, `"hideSpringSale"`, `"2.4.0"`.
    public var jsonText: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .string(let value): JSONText.quoted(value)
        case .version(let value): JSONText.quoted(value.rawValue)
        }
    }

    /// Reads the stored JSON form back for `type`.
    public init(jsonText: String, for type: ConditionType) throws(ValidationError) {
        switch type.valueKind {
        case .bool, .integer:
            self = try Self.parse(jsonText, for: type)
        case .string, .version:
            guard let text = JSONText.unquoted(jsonText) else {
                throw ValidationError(message: "condition \(type.rawValue) holds \(jsonText), which is not a JSON string")
            }
            self = try Self.parse(text, for: type)
        }
    }

    /// Parses the text a person writes (`true`, `5`, `2.4.0`, `hideSpringSale`) for `type`.
    public static func parse(_ text: String, for type: ConditionType) throws(ValidationError) -> ConditionValue {
        switch type.valueKind {
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: break
            }
        case .integer:
            if let value = Int(text), value >= 0, text.allSatisfy(\.isASCIIDigit) { return .integer(value) }
        case .string:
            if !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                return .string(text)
            }
        case .version:
            do {
                return .version(try Version(text))
            } catch {
                throw ValidationError(message: "condition \(type.rawValue): \(error.message)")
            }
        }
        throw ValidationError(
            message: "condition \(type.rawValue) takes \(type.valueKind.rawValue), not \(quote(text))")
    }

    /// The plain text form (`true`, `5`, `2.4.0`, `hideSpringSale`).
    public var text: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .string(let value): value
        case .version(let value): value.rawValue
        }
    }
}

public struct Condition: Hashable, Sendable {
    public var group: ConditionGroup
    public var type: ConditionType
    public var value: ConditionValue

    public init(group: ConditionGroup, type: ConditionType, value: ConditionValue) {
        self.group = group
        self.type = type
        self.value = value
    }

    /// The CLI form `TYPE=VALUE`, checked against what `kind` can express.
    public static func parse(group: ConditionGroup, assignment: String, kind: CampaignKind) throws(ValidationError) -> Condition {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw ValidationError(message: "condition \(quote(assignment)) must be TYPE=VALUE, e.g. onWifi=true")
        }
        let name = String(assignment[..<equals])
        let text = String(assignment[assignment.index(after: equals)...])
        let type = try parseType(name, kind: kind)
        try KindCapabilities.check(type, group: group, kind: kind)
        return Condition(group: group, type: type, value: try ConditionValue.parse(text, for: type))
    }

    /// A condition type by name, listing what `kind` supports when the name is unknown.
    public static func parseType(_ name: String, kind: CampaignKind) throws(ValidationError) -> ConditionType {
        guard let type = ConditionType(rawValue: name) else {
            let supported = KindCapabilities.supportedConditions(for: kind)
            let hint = supported.isEmpty
                ? "\(kind) campaigns take no device conditions" : "supported for \(kind): " + supported.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(message: "unknown condition \(quote(name)); \(hint)")
        }
        return type
    }
}

/// A campaign's conditions: at most one of each type per group, because the clients read
/// each group as a map keyed by type. Kept sorted by group, then type.
public struct ConditionSet: Hashable, Sendable {
    public private(set) var conditions: [Condition] = []

    public init() {}

    /// Refuses a second value for the same type in the same group.
    public init(_ conditions: [Condition]) throws(ValidationError) {
        for condition in conditions {
            if self.conditions.contains(where: { $0.group == condition.group && $0.type == condition.type }) {
                throw ValidationError(
                    message: "condition \(condition.type.rawValue) appears twice in the \(condition.group.rawValue) group; "
                        + "the client reads a group as a map, so give each type once")
            }
            set(condition)
        }
    }

    public var isEmpty: Bool { conditions.isEmpty }

    public func value(group: ConditionGroup, type: ConditionType) -> ConditionValue? {
        conditions.first { $0.group == group && $0.type == type }?.value
    }

    /// Adds a condition, replacing the value of the same type in the same group.
    public mutating func set(_ condition: Condition) {
        conditions.removeAll { $0.group == condition.group && $0.type == condition.type }
        conditions.append(condition)
        conditions.sort { ($0.group, $0.type) < ($1.group, $1.type) }
    }

    @discardableResult
    public mutating func remove(group: ConditionGroup, type: ConditionType) -> Condition? {
        guard let index = conditions.firstIndex(where: { $0.group == group && $0.type == type }) else { return nil }
        return conditions.remove(at: index)
    }

    /// Rules across conditions and with the kind: types the kind supports, min ≤ max.
    public func problems(kind: CampaignKind) -> [ValidationError] {
        var problems: [ValidationError] = []
        for condition in conditions {
            do {
                try KindCapabilities.check(condition.type, group: condition.group, kind: kind)
            } catch {
                problems.append(error)
            }
        }
        if case .version(let min)? = value(group: .all, type: .minAppVersion),
            case .version(let max)? = value(group: .all, type: .maxAppVersion), max < min
        {
            problems.append(
                ValidationError(message: "minAppVersion \(min) is above maxAppVersion \(max): no app version could see this alert"))
        }
        return problems
    }
}

import HeraldCore

/// An audit entry's changed fields in `herald audit`: the columns whose values differ between
/// the row as it was and as it became (`--json` keys, and the lines under each entry).
public enum AuditJSON {
    /// One changed field: its value before and after (JSON; null when the row was created or removed).
    public struct FieldChange: Encodable, Sendable {
        public let field: String
        public let from, to: ParsedJSON?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(from ?? .null, forKey: .from)
            try container.encode(to ?? .null, forKey: .to)
        }

        enum CodingKeys: String, CodingKey { case field, from, to }
    }

    /// Fields that say where a row sits or when it was written, not what it says.
    public static let bookkeeping: Set<String> = ["tenant_id", "id", "created_at", "updated_at", "app_id", "campaign_id", "seq", "assigned_at"]

    /// The fields that differ between two row images, in their order of name.
    public static func changes(before: String?, after: String?) -> [FieldChange] {
        func members(_ text: String?) -> [String: ParsedJSON] {
            guard let text, case .object(let members) = ParsedJSON(text: text) else { return [:] }
            return members
        }
        let old = members(before)
        let new = members(after)
        return Set(old.keys).union(new.keys).subtracting(bookkeeping).sorted().compactMap { key in
            let from = old[key].flatMap { $0 == .null ? nil : $0 }
            let to = new[key].flatMap { $0 == .null ? nil : $0 }
            return from == to ? nil : FieldChange(field: ParsedJSON.camelCaseKey(key), from: from, to: to)
        }
    }
}

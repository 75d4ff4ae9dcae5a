import Foundation
import HeraldCore
import PostgresClient

/// Which changes `herald audit` shows. Every filter is optional.
public struct AuditFilter: Sendable {
    public var since: Date?
    /// Only changes made by this actor (a tenant operator's login, HERALD_ACTOR, an OS user).
    public var actor: String?
    /// Only the rows of this app (with `campaign`: that campaign in this app).
    public var app: Slug?
    /// Only the rows of campaigns with this key: the campaign itself, its conditions, message
    /// keys and content.
    public var campaign: Slug?
    /// At most this many log rows, the newest.
    public var limit: Int

    public init(since: Date? = nil, actor: String? = nil, app: Slug? = nil, campaign: Slug? = nil, limit: Int = 200) {
        self.since = since
        self.actor = actor
        self.app = app
        self.campaign = campaign
        self.limit = limit
    }
}

extension AuditRepository {
    /// The tenant's changes as people made them, oldest first. A row Herald rewrote by
    /// deleting and inserting it again in one transaction (a locale's content, a banner's
    /// views) is one update from the old row to the new, and none at all when nothing in it
    /// differs.
    public func changes(_ filter: AuditFilter) throws -> [AuditEntry] {
        let rows = try connection.query(
            AuditChanges(
                since: filter.since, actor: filter.actor, app: filter.app?.rawValue, campaign: filter.campaign?.rawValue,
                // Rows, not changes: a rewritten row is two (a delete and an insert), so twice
                // the rows make at least `limit` changes but for rewrites that changed nothing.
                limit: filter.limit > Int.max / 2 ? Int.max : filter.limit * 2))
        var entries: [(txid: String, entry: AuditEntry)] = try rows.reversed().map { row in
            (
                try row.decode("txid"),
                AuditEntry(
                    at: try row.decode("at"), actor: try row.decode("actor"), action: try row.decode("action"),
                    entity: try row.decode("entity"), entityID: try row.decode("entity_id"),
                    before: try row.decode("before"), after: try row.decode("after"))
            )
        }
        // A delete and an insert of the same row in one transaction: one update (or nothing).
        var deleted: [String: Int] = [:]
        var dropped = Set<Int>()
        for (index, item) in entries.enumerated() {
            let key = "\(item.txid) \(item.entry.entity) \(item.entry.entityID)"
            if item.entry.action == "delete" {
                deleted[key] = index
            } else if item.entry.action == "insert", let earlier = deleted.removeValue(forKey: key) {
                let old = entries[earlier].entry
                dropped.insert(earlier)
                if Self.sameRow(old.before, item.entry.after) {
                    dropped.insert(index)
                } else {
                    entries[index].entry = AuditEntry(
                        at: item.entry.at, actor: item.entry.actor, action: "update", entity: item.entry.entity,
                        entityID: item.entry.entityID, before: old.before, after: item.entry.after)
                }
            }
        }
        return Array(entries.enumerated().filter { !dropped.contains($0.offset) }.map(\.element.entry).suffix(max(filter.limit, 0)))
    }

    /// Whether two row images are the same row but for when it was written.
    static func sameRow(_ first: String?, _ second: String?) -> Bool {
        func fields(_ text: String?) -> NSDictionary? {
            guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
            return object.filter { $0.key != "created_at" && $0.key != "updated_at" } as NSDictionary
        }
        guard let first = fields(first), let second = fields(second) else { return false }
        return first.isEqual(second)
    }
}

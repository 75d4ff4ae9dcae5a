import Foundation
import PostgresClient

public struct AuditEntry: Sendable, Equatable {
    public let at: Date
    public let actor: String
    public let action: String
    public let entity: String
    public let entityID: String
    public let before: String?
    public let after: String?
}

/// The trigger-written audit log, newest last.
public struct AuditRepository {
    let connection: Connection

    public func entries(since: Date?, limit: Int = 1000) throws -> [AuditEntry] {
        let rows = try connection.query(AuditEntries(since: since, limit: limit))
        return try rows.map { row in
            AuditEntry(
                at: try row.decode("at"), actor: try row.decode("actor"), action: try row.decode("action"),
                entity: try row.decode("entity"), entityID: try row.decode("entity_id"),
                before: try row.decode("before"), after: try row.decode("after"))
        }
    }
}

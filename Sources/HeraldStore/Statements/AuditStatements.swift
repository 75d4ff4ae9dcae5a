import Foundation

// queries/audit.sql

struct AuditEntries: Statement {
    static let query = Query.auditEntries
    let since: Date?
    let limit: Int
}

struct AuditChanges: Statement {
    static let query = Query.auditChanges
    let since: Date?
    let actor: String?
    let app: String?
    let campaign: String?
    let limit: Int
}

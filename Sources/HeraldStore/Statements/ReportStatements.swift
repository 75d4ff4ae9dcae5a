// queries/reporting.sql.

/// A report's settings for its transaction: JIT off, and the tenant the views read ('' for all).
struct ReportScope: Statement {
    static let query = Query.reportScope
    let tenant: String
}

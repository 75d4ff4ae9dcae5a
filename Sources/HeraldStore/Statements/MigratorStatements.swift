// queries/migrator.sql (all but `record-migration` take no parameters).

struct RecordMigration: Statement {
    static let query = Query.recordMigration
    let name: String
    let checksum: String
}

import HeraldStore

/// What `herald --version` prints: this release and the schema it carries (the newest
/// bundled migration), which is what `herald migrate` brings a database to.
enum HeraldVersion {
    static let release = "0.5.0"

    static var description: String {
        let schema = Migration.bundled.last.map { "schema \(schemaName($0))" } ?? "no schema"
        return "herald \(release) (\(schema), \(Migration.bundled.count) migrations)"
    }

    /// A migration's name without its file extension: `0012_daily_rollup_by_day`.
    static func schemaName(_ migration: Migration) -> String {
        migration.name.hasSuffix(".sql") ? String(migration.name.dropLast(4)) : migration.name
    }
}

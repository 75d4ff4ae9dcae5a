import HeraldStore

/// What `herald --version` prints: this release and the schema it carries (the newest
/// bundled migration), which is what `herald migrate` brings a database to.
enum HeraldVersion {
    static let release = "0.4.0"

    static var description: String {
        let schema = Migration.bundled.last.map { "schema \($0.name)" } ?? "no schema"
        return "herald \(release) (\(schema), \(Migration.bundled.count) migrations)"
    }
}

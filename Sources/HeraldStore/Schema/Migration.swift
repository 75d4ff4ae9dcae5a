import HeraldCore

/// One numbered SQL file from the top-level `migrations/` folder.
public struct Migration: Sendable, Equatable {
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the file's UTF-8 text, in hex: what `herald_migrations` records, so that
    /// checking the schema needs no migration text sent to the server. Worked out when asked
    /// (a command that checks the schema asks once per migration; `--version` never).
    public var checksum: String { SHA256.hex(Array(sql.utf8)) }

    /// The migrations this binary carries, in order. The build plugin embeds them from
    /// `migrations/*.sql` as string literals, so an installed `herald` needs no source tree.
    public static let bundled: [Migration] = embeddedMigrationFiles.map { Migration(name: $0.name, sql: $0.text) }
}

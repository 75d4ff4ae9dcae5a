import Foundation
import HeraldCore

/// One numbered SQL file from the top-level `migrations/` folder.
public struct Migration: Sendable, Equatable {
    public let name: String
    public let sql: String
    /// SHA-256 of the file's UTF-8 text, in hex: what `herald_migrations` records, so that
    /// checking the schema needs no migration text sent to the server.
    public let checksum: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
        checksum = SHA256.hex(Array(sql.utf8))
    }

    /// The migrations this binary carries, in order. The build plugin embeds them from
    /// `migrations/*.sql`, so an installed `herald` needs no source tree.
    public static let bundled: [Migration] = embeddedMigrationFiles.compactMap { file in
        guard let data = Data(base64Encoded: file.base64), let sql = String(data: data, encoding: .utf8) else {
            return nil  // the plugin wrote it from bytes it read; a failure here would be a build bug
        }
        return Migration(name: file.name, sql: sql)
    }
}

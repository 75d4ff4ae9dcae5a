import Foundation
import PostgresClient

/// What the database has applied compared with what this binary carries.
public struct MigrationStatus: Sendable, Equatable {
    public struct Applied: Sendable, Equatable {
        public let name: String
        public let checksum: String
        public let appliedAt: Date
    }

    public let applied: [Applied]
    public let pending: [Migration]
    /// Applied files whose text in this binary differs from what was applied.
    public let changed: [String]
    /// Applied files this binary does not know: the database is newer than the binary.
    public let unknown: [String]

    public var isCurrent: Bool { pending.isEmpty && changed.isEmpty && unknown.isEmpty }
}

/// Applies `migrations/` in order, each file in its own transaction, under an advisory
/// lock so two `herald migrate` runs never interleave. Records name, checksum and time.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    /// Serialises migrators across processes ("HRLDMIGR").
    static let lockKey: Int64 = 0x4852_4C44_4D49_4752

    public init(migrations: [Migration] = Migration.bundled) {
        self.migrations = migrations
    }

    public func status(_ connection: Connection) throws -> MigrationStatus {
        // Reading the status never creates anything: a fresh database simply has it all pending.
        let ledger = try connection.query("SELECT to_regclass('herald_migrations') IS NOT NULL AS present")
        let hasLedger = try ledger.first?.decode("present", as: Bool.self) ?? false
        let rows: [Row] = hasLedger
            ? Array(try connection.query("SELECT name, checksum, applied_at FROM herald_migrations ORDER BY name"))
            : []
        let applied = try rows.map { row in
            MigrationStatus.Applied(
                name: try row.decode("name"),
                checksum: try row.decode("checksum"),
                appliedAt: try row.decode("applied_at"))
        }
        let checksums = try checksums(of: migrations, connection)
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0) })
        let appliedNames = Set(applied.map(\.name))
        return MigrationStatus(
            applied: applied,
            pending: migrations.filter { !appliedNames.contains($0.name) },
            changed: applied.filter { known[$0.name] != nil && checksums[$0.name] != $0.checksum }.map(\.name),
            unknown: applied.filter { known[$0.name] == nil }.map(\.name))
    }

    /// Applies every pending migration; returns the names applied. Refuses to go on when an
    /// applied file's checksum changed (someone edited history) or the database is newer.
    @discardableResult
    public func migrate(_ connection: Connection, progress: (Migration) -> Void = { _ in }) throws -> [String] {
        try connection.advisoryLock(Self.lockKey)
        defer { try? connection.advisoryUnlock(Self.lockKey) }
        try ensureLedger(connection)
        let current = try status(connection)
        if let problem = Self.refusal(current) { throw problem }
        var done: [String] = []
        for migration in current.pending {
            progress(migration)
            try connection.transaction { tx in
                try tx.executeScript("\(UnsafeSQL(migration.sql))")  // a file this binary carries
                try tx.execute(
                    """
                    INSERT INTO herald_migrations (name, checksum)
                    VALUES ($1, encode(sha256(convert_to($2, 'UTF8')), 'hex'))
                    """,
                    [migration.name, migration.sql])
            }
            done.append(migration.name)
        }
        return done
    }

    /// Why a database cannot be migrated (or used) as it is, if it cannot.
    public static func refusal(_ status: MigrationStatus) -> StoreError? {
        if !status.changed.isEmpty {
            return .schema(
                "applied migration(s) \(status.changed.joined(separator: ", ")) changed since they were applied; "
                    + "restore the original file(s): a migration is never edited once applied, add a new one instead")
        }
        if !status.unknown.isEmpty {
            return .schema(
                "the database has migration(s) this herald does not know (\(status.unknown.joined(separator: ", "))); "
                    + "it was migrated by a newer herald: upgrade herald")
        }
        return nil
    }

    private func ensureLedger(_ connection: Connection) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS herald_migrations (
                name        text PRIMARY KEY,
                checksum    text NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT now()
            )
            """)
    }

    /// Checksums computed by the server (sha256), one query for all files.
    private func checksums(of migrations: [Migration], _ connection: Connection) throws -> [String: String] {
        guard !migrations.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            SELECT name, encode(sha256(convert_to(sql, 'UTF8')), 'hex') AS checksum
            FROM unnest($1::text[], $2::text[]) AS m(name, sql)
            """,
            [migrations.map(\.name), migrations.map(\.sql)])
        var result: [String: String] = [:]
        for row in rows {
            result[try row.decode("name")] = try row.decode("checksum")
        }
        return result
    }
}

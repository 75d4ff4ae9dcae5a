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

    public init(migrations: [Migration] = Migration.bundled) {
        self.migrations = migrations
    }

    public func status(_ connection: Connection) throws -> MigrationStatus {
        // Reading the status never creates anything: a fresh database simply has it all pending.
        // One statement, its failure read, rather than asking first whether the ledger is there.
        let rows: [Row]
        do {
            rows = Array(try connection.query(.appliedMigrations))
        } catch let error as PostgresError where error.sqlState == .undefinedTable {
            rows = []
        }
        let applied = try rows.map { row in
            MigrationStatus.Applied(
                name: try row.decode("name"),
                checksum: try row.decode("checksum"),
                appliedAt: try row.decode("applied_at"))
        }
        let checksums = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0.checksum) })
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
        try connection.advisoryLock(AdvisoryLock.migrate.rawValue)
        defer { try? connection.advisoryUnlock(AdvisoryLock.migrate.rawValue) }
        try connection.execute(.createMigrationLedger)
        let current = try status(connection)
        if let problem = Self.refusal(current) { throw problem }
        var done: [String] = []
        for migration in current.pending {
            progress(migration)
            try connection.transaction { tx in
                try tx.executeScript("\(UnsafeSQL(migration.sql))")  // a file this binary carries
                try tx.execute(RecordMigration(name: migration.name, checksum: migration.checksum))
            }
            done.append(migration.name)
        }
        return done
    }

    /// Runs `herald_ensure_access()` (from 0016 on) and returns what it repaired; nothing on a
    /// schema that predates it.
    public func ensureAccess(_ connection: Connection) throws -> [String] {
        let known = try connection.query(.ensureAccessExists)
        guard try known.first?.decode("known", as: Bool.self) == true else { return [] }
        return try connection.transaction { tx in
            try tx.query(.ensureAccess).map { try $0.decode("note") }
        }
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
}

import Foundation
import PostgresClient

public struct PublishRun: Sendable, Equatable {
    public let id: Int64
    public let startedAt: Date
    public let finishedAt: Date?
    public let actor: String
    public let outDir: String
    public let publishAt: Date
    public let scope: PublishScope
    public let outcome: PublishRunOutcome
    public let rollbackOf: Int64?
    public let filesWritten: Int
    public let filesUnchanged: Int
    public let filesRemoved: Int
    public let manifestDigest: String?
    public let message: String?
    /// The snapshot the run read; nil for rollbacks and partial runs.
    public let sourceSnapshot: String?
    public let baseURL: String?
    /// Later publishes that found nothing to change, counted here instead of a row each.
    public let repeats: Int
    public let lastRepeatedAt: Date?
    /// Set for a tenant operator's run: it wrote that tenant's own folder (`<out>/<tenant>/`,
    /// its manifest inside), and its contents are kept with the tenant's.
    public let tenantID: Int64?
}

/// The publish history and the contents it keeps for rollbacks (operator work).
public struct PublishRunRepository {
    /// The advisory lock that serialises publishes across processes and machines.
    public static let lockKey: Int64 = AdvisoryLock.publish.rawValue

    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// Records a run as started. `tenantFolder`: the tenant (id) whose own folder a tenant
    /// operator's run writes; nil for Herald's own runs.
    public func start(
        actor: String, outDir: String, publishAt: Date, scope: PublishScope, rollbackOf: Int64? = nil, baseURL: String? = nil,
        tenantFolder: Int64? = nil
    ) throws -> Int64 {
        try connection.query(
            """
            INSERT INTO publish_runs (actor, out_dir, publish_at, scope, outcome, rollback_of, base_url, tenant_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
            """, [actor, outDir, publishAt, scope.storedText, PublishRunOutcome.running.rawValue, rollbackOf, baseURL, tenantFolder]
        )[0].decode("id")
    }

    /// The newest run into `outDir`, whatever its outcome: Herald's own runs, or with
    /// `tenantFolder` that tenant's own-folder runs.
    public func latest(outDir: String, tenantFolder: Int64? = nil) throws -> PublishRun? {
        try decode(
            connection.query(
                """
                SELECT *, source_snapshot::text AS source_snapshot_text FROM publish_runs
                WHERE out_dir = $1 AND tenant_id IS NOT DISTINCT FROM $2 ORDER BY id DESC LIMIT 1
                """, [outDir, tenantFolder])
        ).first
    }

    /// Whether a run the history keeps left the manifest `digest` (`ManifestArchive`): Herald's
    /// own runs, or with `tenantFolder`, that tenant's. If one did, the history keeps every
    /// content that manifest lists: a run records its manifest only after its contents, and
    /// pruning keeps everything a kept run's rollback reads.
    public func keepsManifest(_ digest: String, tenantFolder: Int64? = nil) throws -> Bool {
        try connection.query(
            """
            SELECT EXISTS (
                SELECT FROM publish_runs WHERE manifest_digest = $1 AND tenant_id IS NOT DISTINCT FROM $2
            ) AS kept
            """, [digest, tenantFolder]
        )[0].decode("kept")
    }

    /// Stores the contents not stored yet (content-addressed: identical bytes are kept once);
    /// with `tenantFolder`, among that tenant's own (a tenant operator's runs).
    public func storeBlobs(_ blobs: [String: [UInt8]], tenantFolder: Int64? = nil) throws {
        guard !blobs.isEmpty else { return }
        if let tenantFolder { return try storeTenantBlobs(blobs, tenant: tenantFolder) }
        let digests = Array(blobs.keys)
        let present = Set(
            try connection.query("SELECT digest FROM publish_blobs WHERE digest = ANY($1::text[])", [digests])
                .map { try $0.decode("digest", as: String.self) })
        let missing = digests.filter { !present.contains($0) }.sorted()
        guard !missing.isEmpty else { return }
        // Binary COPY: megabytes of content go in as a stream of raw bytes, not as SQL literals. Publishes hold
        // an advisory lock, so no other run inserts the same digests meanwhile.
        try connection.copyInBinary("COPY publish_blobs (digest, content) FROM STDIN WITH (FORMAT binary)") { writer in
            for digest in missing {
                try writer.writeRow([Array(digest.utf8), blobs[digest] ?? []])
            }
        }
    }

    public func finish(
        _ id: Int64, outcome: PublishRunOutcome, written: Int, unchanged: Int, removed: Int, manifestDigest: String?, message: String?,
        sourceSnapshot: String? = nil
    ) throws {
        try connection.execute(
            """
            UPDATE publish_runs SET finished_at = clock_timestamp(), outcome = $2, files_written = $3,
                files_unchanged = $4, files_removed = $5, manifest_digest = $6, message = $7,
                source_snapshot = $8::pg_snapshot
            WHERE id = $1
            """, [id, outcome.rawValue, written, unchanged, removed, manifestDigest, message, sourceSnapshot])
    }

    /// A publish that found nothing to change, counted on `id` (the run whose files are still
    /// in place) instead of a row of its own; `sourceSnapshot` becomes what it read, so the
    /// next run asks what changed since then.
    public func countRepeat(of id: Int64, sourceSnapshot: String?) throws {
        try connection.execute(
            """
            UPDATE publish_runs
            SET repeats = repeats + 1, last_repeated_at = clock_timestamp(),
                source_snapshot = coalesce($2::pg_snapshot, source_snapshot)
            WHERE id = $1
            """, [id, sourceSnapshot])
    }

    /// Deletes the runs `keeping` does not keep (never a running one, nor the newest finished
    /// run of each folder: the next publish starts from it), then the contents that no kept run
    /// refers to: Herald's, and the own contents of each tenant in `collecting` (those whose
    /// publish lock the caller holds: a tenant's running publish stores contents before its
    /// run names them; nil: every tenant). `referenced`: given kept runs' manifest digests and
    /// whose contents they are in (nil: Herald's), every digest they need. Returns the runs
    /// and contents deleted.
    public func prune(
        keepNewest: Int?, before: Date?, collecting: Set<Int64>? = nil,
        referenced: (_ manifests: [String], _ tenantFolder: Int64?) throws -> Set<String>
    ) throws -> (runs: Int, contents: Int) {
        // A folder is an output root and whose runs write it: Herald's (no tenant), or one
        // tenant's own folder in that root (a tenant operator's runs record the root too).
        let deleted = try connection.query(
            """
            WITH ranked AS (
                SELECT id, started_at, outcome,
                       row_number() OVER (ORDER BY id DESC) AS newest_first,
                       id = max(id) FILTER (WHERE outcome <> 'running') OVER (PARTITION BY out_dir, tenant_id) AS folder_base
                FROM publish_runs
            )
            DELETE FROM publish_runs
            WHERE id IN (
                SELECT id FROM ranked
                WHERE outcome <> 'running' AND NOT folder_base
                  AND ($1::bigint IS NULL OR newest_first > $1)
                  AND ($2::timestamptz IS NULL OR started_at < $2)
            )
            RETURNING id
            """, [keepNewest.map(Int64.init), before])
        var manifests: [Int64?: [String]] = [:]
        for row in try connection.query("SELECT manifest_digest, tenant_id FROM publish_runs WHERE manifest_digest IS NOT NULL") {
            manifests[try row.decode("tenant_id", as: Int64?.self), default: []].append(try row.decode("manifest_digest"))
        }
        var contents = try connection.query(
            "DELETE FROM publish_blobs WHERE NOT (digest = ANY($1::text[])) RETURNING digest", [Array(try referenced(manifests[nil] ?? [], nil))]
        ).count
        for tenant in try connection.query("SELECT id FROM tenants ORDER BY id").map({ try $0.decode("id", as: Int64.self) })
        where collecting?.contains(tenant) ?? true {
            let needed = try referenced(manifests[tenant] ?? [], tenant)
            contents += try connection.query(
                "DELETE FROM tenant_publish_blobs WHERE tenant_id = $1 AND NOT (digest = ANY($2::text[])) RETURNING digest",
                [tenant, Array(needed)]
            ).count
        }
        return (deleted.count, contents)
    }

    public func history(limit: Int) throws -> [PublishRun] {
        try decode(
            connection.query(
                "SELECT *, source_snapshot::text AS source_snapshot_text FROM (SELECT * FROM publish_runs ORDER BY id DESC LIMIT $1) r ORDER BY id",
                [limit]))
    }

    public func run(_ id: Int64) throws -> PublishRun {
        guard let run = try decode(connection.query("SELECT *, source_snapshot::text AS source_snapshot_text FROM publish_runs WHERE id = $1", [id])).first else {
            throw StoreError.notFound(what: "publish run", name: String(id), listCommand: "herald publish --history")
        }
        return run
    }

    /// Stored contents by digest; with `tenantFolder`, among that tenant's own.
    public func blobs(_ digests: [String], tenantFolder: Int64? = nil) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let rows = try tenantFolder.map {
            try connection.query(
                "SELECT digest, content FROM tenant_publish_blobs WHERE tenant_id = $1 AND digest = ANY($2::text[])", [$0, digests])
        } ?? connection.query("SELECT digest, content FROM publish_blobs WHERE digest = ANY($1::text[])", [digests])
        for row in rows {
            result[try row.decode("digest")] = [UInt8](try row.decode("content", as: Data.self))
        }
        return result
    }

    /// A tenant's contents go in by INSERT (COPY cannot write a row-secured table), a few
    /// megabytes per statement; a digest the tenant has already is left alone, never an error.
    private func storeTenantBlobs(_ blobs: [String: [UInt8]], tenant: Int64) throws {
        var digests: [String] = []
        var contents: [String] = []
        var size = 0
        func flush() throws {
            guard !digests.isEmpty else { return }
            try connection.execute(
                """
                INSERT INTO tenant_publish_blobs (tenant_id, digest, content)
                SELECT $1, u.digest, decode(u.content, 'hex') FROM unnest($2::text[], $3::text[]) AS u(digest, content)
                ON CONFLICT (tenant_id, digest) DO NOTHING
                """, [tenant, digests, contents])
            digests.removeAll(keepingCapacity: true)
            contents.removeAll(keepingCapacity: true)
            size = 0
        }
        for (digest, bytes) in blobs.sorted(by: { $0.key < $1.key }) {
            digests.append(digest)
            contents.append(Self.hex(bytes))
            size += bytes.count
            if size > 4 << 20 { try flush() }
        }
        try flush()
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func decode(_ rows: QueryResult) throws -> [PublishRun] {
        try rows.map { row in
            let id: Int64 = try row.decode("id")
            let scopeText: String = try row.decode("scope")
            let outcomeText: String = try row.decode("outcome")
            guard let scope = PublishScope(storedText: scopeText) else {
                throw StoreError.database("publish run \(id) has a scope Herald does not write: \"\(scopeText)\"")
            }
            guard let outcome = PublishRunOutcome(rawValue: outcomeText) else {
                throw StoreError.database("publish run \(id) has an outcome Herald does not write: \"\(outcomeText)\"")
            }
            return PublishRun(
                id: id, startedAt: try row.decode("started_at"), finishedAt: try row.decode("finished_at"),
                actor: try row.decode("actor"), outDir: try row.decode("out_dir"), publishAt: try row.decode("publish_at"),
                scope: scope, outcome: outcome, rollbackOf: try row.decode("rollback_of"),
                filesWritten: try row.decode("files_written"), filesUnchanged: try row.decode("files_unchanged"),
                filesRemoved: try row.decode("files_removed"), manifestDigest: try row.decode("manifest_digest"),
                message: try row.decode("message"), sourceSnapshot: try row.decode("source_snapshot_text"),
                baseURL: try row.decode("base_url"), repeats: try row.decode("repeats"), lastRepeatedAt: try row.decode("last_repeated_at"),
                tenantID: try row.decode("tenant_id"))
        }
    }
}

extension OperatorSession {
    public var publishRuns: PublishRunRepository { PublishRunRepository(self) }
}

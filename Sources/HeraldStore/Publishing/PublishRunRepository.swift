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
}

/// The publish history and the contents it keeps for rollbacks (operator work).
public struct PublishRunRepository {
    /// The advisory lock that serialises publishes across processes and machines.
    public static let lockKey: Int64 = AdvisoryLock.publish.rawValue

    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    public func start(
        actor: String, outDir: String, publishAt: Date, scope: PublishScope, rollbackOf: Int64? = nil, baseURL: String? = nil
    ) throws -> Int64 {
        try connection.query(
            """
            INSERT INTO publish_runs (actor, out_dir, publish_at, scope, outcome, rollback_of, base_url)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """, [actor, outDir, publishAt, scope.storedText, PublishRunOutcome.running.rawValue, rollbackOf, baseURL])[0].decode("id")
    }

    /// The newest run into `outDir`, whatever its outcome.
    public func latest(outDir: String) throws -> PublishRun? {
        try decode(
            connection.query(
                "SELECT *, source_snapshot::text AS source_snapshot_text FROM publish_runs WHERE out_dir = $1 ORDER BY id DESC LIMIT 1",
                [outDir])
        ).first
    }

    /// Stores the contents not stored yet (content-addressed: identical bytes are kept once).
    public func storeBlobs(_ blobs: [String: [UInt8]]) throws {
        guard !blobs.isEmpty else { return }
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

    public func blobs(_ digests: [String]) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for row in try connection.query("SELECT digest, content FROM publish_blobs WHERE digest = ANY($1::text[])", [digests]) {
            result[try row.decode("digest")] = [UInt8](try row.decode("content", as: Data.self))
        }
        return result
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
                baseURL: try row.decode("base_url"))
        }
    }
}

extension OperatorSession {
    public var publishRuns: PublishRunRepository { PublishRunRepository(self) }
}

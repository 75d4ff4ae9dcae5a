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
    /// What a whole-folder run read, on which cluster (nil: not recorded, or before clusters were).
    public let sourceSnapshot: SourceSnapshot?
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
            StartPublishRun(
                actor: actor, outDir: outDir, publishAt: publishAt, scope: scope.storedText, outcome: PublishRunOutcome.running.rawValue,
                rollbackOf: rollbackOf, baseURL: baseURL, tenantID: tenantFolder)
        )[0].decode("id")
    }

    /// The newest run into `outDir`, whatever its outcome: Herald's own runs, or with
    /// `tenantFolder` that tenant's own-folder runs.
    public func latest(outDir: String, tenantFolder: Int64? = nil) throws -> PublishRun? {
        try decode(connection.query(LatestPublishRun(outDir: outDir, tenantID: tenantFolder))).first
    }

    /// Whether a run the history keeps left the manifest `digest` (`ManifestArchive`): Herald's
    /// own runs, or with `tenantFolder`, that tenant's. If one did, the history keeps every
    /// content that manifest lists: a run records its manifest only after its contents, and
    /// pruning keeps everything a kept run's rollback reads.
    public func keepsManifest(_ digest: String, tenantFolder: Int64? = nil) throws -> Bool {
        try connection.query(KeepsManifest(digest: digest, tenantID: tenantFolder))[0].decode("kept")
    }

    /// Stores the contents not stored yet (content-addressed: identical bytes are kept once);
    /// with `tenantFolder`, among that tenant's own (a tenant operator's runs).
    public func storeBlobs(_ blobs: [String: [UInt8]], tenantFolder: Int64? = nil) throws {
        guard !blobs.isEmpty else { return }
        if let tenantFolder { return try storeTenantBlobs(blobs, tenant: tenantFolder) }
        let digests = Array(blobs.keys)
        let present = Set(
            try connection.query(StoredBlobDigests(digests: digests)).map { try $0.decode("digest", as: String.self) })
        let missing = digests.filter { !present.contains($0) }.sorted()
        guard !missing.isEmpty else { return }
        // Publishes hold an advisory lock, so no other run inserts the same digests meanwhile.
        try connection.copyInBinary(try Query.copyPublishBlobs.compiled.sql) { writer in
            for digest in missing {
                try writer.writeRow([Array(digest.utf8), blobs[digest] ?? []])
            }
        }
    }

    public func finish(
        _ id: Int64, outcome: PublishRunOutcome, written: Int, unchanged: Int, removed: Int, manifestDigest: String?, message: String?,
        sourceSnapshot: SourceSnapshot? = nil
    ) throws {
        try connection.execute(
            FinishPublishRun(
                id: id, outcome: outcome.rawValue, filesWritten: written, filesUnchanged: unchanged, filesRemoved: removed,
                manifestDigest: manifestDigest, message: message, sourceSnapshot: sourceSnapshot?.snapshot,
                sourceCluster: sourceSnapshot?.cluster))
    }

    /// A publish that found nothing to change, counted on `id` (the run whose files are still
    /// in place) instead of a row of its own; `sourceSnapshot` becomes what it read, so the
    /// next run asks what changed since then. It goes with the transaction's COMMIT, in one
    /// round trip with its BEGIN (`sendWithNext`), and a failure is the COMMIT's.
    public func countRepeat(of id: Int64, sourceSnapshot: SourceSnapshot?) throws {
        try connection.sendWithNext(CountPublishRepeat(id: id, sourceSnapshot: sourceSnapshot?.snapshot, sourceCluster: sourceSnapshot?.cluster))
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
        let deleted = try connection.query(PrunePublishRuns(keepNewest: keepNewest.map(Int64.init), before: before))
        var manifests: [Int64?: [String]] = [:]
        for row in try connection.query(.keptManifests) {
            manifests[try row.decode("tenant_id", as: Int64?.self), default: []].append(try row.decode("manifest_digest"))
        }
        var contents = try connection.query(PrunePublishBlobs(needed: Array(try referenced(manifests[nil] ?? [], nil)))).count
        for tenant in try connection.query(.tenantIDs).map({ try $0.decode("id", as: Int64.self) })
        where collecting?.contains(tenant) ?? true {
            let needed = try referenced(manifests[tenant] ?? [], tenant)
            contents += try connection.query(PruneTenantPublishBlobs(tenantID: tenant, needed: Array(needed))).count
        }
        return (deleted.count, contents)
    }

    public func history(limit: Int) throws -> [PublishRun] {
        try decode(connection.query(PublishHistory(limit: limit)))
    }

    public func run(_ id: Int64) throws -> PublishRun {
        guard let run = try decode(connection.query(FindPublishRun(id: id))).first else {
            throw StoreError.notFound(what: "publish run", name: String(id), listCommand: "herald publish --history")
        }
        return run
    }

    /// Stored contents by digest; with `tenantFolder`, among that tenant's own.
    public func blobs(_ digests: [String], tenantFolder: Int64? = nil) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let rows = try tenantFolder.map { try connection.query(TenantPublishBlobs(tenantID: $0, digests: digests)) }
            ?? connection.query(PublishBlobs(digests: digests))
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
            try connection.execute(StoreTenantPublishBlobs(tenantID: tenant, digests: digests, contents: contents))
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
                message: try row.decode("message"),
                sourceSnapshot: SourceSnapshot(
                    cluster: try row.decode("source_cluster", as: String?.self), snapshot: try row.decode("source_snapshot_text", as: String?.self)),
                baseURL: try row.decode("base_url"), repeats: try row.decode("repeats"), lastRepeatedAt: try row.decode("last_repeated_at"),
                tenantID: try row.decode("tenant_id"))
        }
    }
}

extension OperatorSession {
    public var publishRuns: PublishRunRepository { PublishRunRepository(self) }
}

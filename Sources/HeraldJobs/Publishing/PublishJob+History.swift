import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

extension PublishJob {
    /// The recorded runs, newest first (at most `limit`); a tenant operator's login sees its own tenant's.
    public func history(limit: Int) throws -> [PublishRun] {
        try database.asOperator(readOnly: true) { try $0.publishRuns.history(limit: limit) }
    }

    /// What a prune deleted.
    public struct Pruned: Sendable {
        public var runs: Int
        public var contents: Int
        /// Tenants whose own publish was running: their stored contents were left for a later prune.
        public var tenantsLeftOut: [Slug]
    }

    /// Deletes recorded runs (keeping the `keepNewest` newest, or those started since `before`;
    /// never a folder's newest run, which the next publish starts from) and the stored contents
    /// that no kept run needs for a rollback: Herald's, and those of the tenants' own folders
    /// (of each tenant whose own publish is not running: one that is keeps its contents until a
    /// later prune, unless this waits for it).
    public func pruneHistory(keepNewest: Int?, before: Date?) throws -> Pruned {
        try database.requireOwner(to: "pruning the publish history (every tenant's runs and contents)")
        return try locked {
            try withTenantLocks(nil, dryRun: false, busy: wait ? .wait : .skip) { held in
                try database.asOperator { session in
                    let runs = session.publishRuns
                    let tenants = try session.tenants.list()
                    let collected = tenants.filter { held?.contains($0.slug) ?? true }
                    let leftOut = tenants.filter { !(held?.contains($0.slug) ?? true) }.map(\.slug).sorted()
                    let pruned = try runs.prune(keepNewest: keepNewest, before: before, collecting: Set(collected.map(\.id))) { manifestDigests, tenantFolder in
                        // Every digest a kept run's rollback reads: its index, the index's shards, their files.
                        var needed = Set(manifestDigests)
                        for digest in Set(manifestDigests) {
                            guard let archived = try Self.archivedManifest(digest, in: runs, tenantFolder: tenantFolder) else { continue }
                            needed.formUnion(archived.shards)
                            if let manifest = archived.manifest { needed.formUnion(manifest.files.values) }
                        }
                        return needed
                    }
                    return Pruned(runs: pruned.runs, contents: pruned.contents, tenantsLeftOut: leftOut)
                }
            }
        }
    }

    /// A run's manifest as the history keeps it (`ManifestArchive`): the shards its index names,
    /// and the whole manifest when every one of them is kept; nil when no index is kept under `digest`.
    static func archivedManifest(
        _ digest: String, in runs: PublishRunRepository, tenantFolder: Int64?
    ) throws -> (shards: [String], manifest: SiteManifest?)? {
        guard let index = try runs.blobs([digest], tenantFolder: tenantFolder)[digest], let shards = ManifestArchive.shardDigests(index)
        else { return nil }
        return (shards, ManifestArchive.unpack(index: index, shards: try runs.blobs(shards, tenantFolder: tenantFolder)))
    }
}

import Foundation
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

extension PublishJob {
    /// Writes `files` into `folder` and records the run. `scope` is as the folder sees it: a
    /// tenant's own folder names its apps without the tenant. `kept`: a manifest a run the
    /// history keeps left; the contents it lists are kept already, so not stored again.
    func writeRecording(
        runID: Int64, files: [SiteFile], into folder: Folder, scope: PublishScope, previous: SiteManifest? = nil,
        loaded: Swift.Result<SiteManifest, any Error>? = nil, intact: IntactFolder? = nil, kept: SiteManifest? = nil,
        outcome name: PublishRunOutcome = .succeeded,
        sourceSnapshot: SourceSnapshot? = nil, owner: SiteManifest.Owner, timer: inout PhaseTimer
    ) throws -> SiteWriter.Outcome {
        // File contents go into the run history on another thread, through a connection of
        // its own, while this one writes the files: the database and the disk work side by side.
        // A run that changed a few files (an edit) stores theirs with the run's record instead:
        // a server process started for a few kilobytes cost more than it saved.
        var storing: BackgroundWork<Void>?
        var storedWithRecord: [String: [UInt8]] = [:]
        let few = files.count <= Self.fewFiles ? (kept?.filesNotListed(files) ?? files) : nil
        let outcome: SiteWriter.Outcome
        do {
            if let few, few.reduce(0, { $0 + $1.bytes.count }) <= Self.fewBytes {
                for file in few { storedWithRecord[file.digest] = file.bytes }
            } else if !files.isEmpty {
                let connector = database.connector
                let tenantFolder = folder.tenantID
                storing = BackgroundWork { [files] in
                    // What to store, its connection and one content per digest, all on this
                    // thread: the writer need not wait for any of them.
                    let stored = kept?.filesNotListed(files) ?? files
                    guard !stored.isEmpty else { return }
                    let blobStore = try connector.connect()
                    var contents: [String: [UInt8]] = [:]
                    for file in stored { contents[file.digest] = file.bytes }
                    try blobStore.asOperator { try $0.publishRuns.storeBlobs(contents, tenantFolder: tenantFolder) }
                }
            }
            outcome = try SiteWriter(root: folder.root, owner: owner, memory: memory).sync(
                files, scope: folder.folders(of: scope), previous: previous, loaded: loaded, intact: intact)
            timer.mark("write (\(outcome.written.count) written)")
            try storing?.wait()
        } catch let error as StoreError {
            // The database failed (the blob store's connection), not the folder: say that.
            _ = try? storing?.wait()
            _ = try? database.asOperator {
                try $0.publishRuns.finish(
                    runID, outcome: .failed, written: 0, unchanged: 0, removed: 0, manifestDigest: nil, message: "\(error)")
            }
            throw error
        } catch {
            _ = try? storing?.wait()
            _ = try? database.asOperator {
                try $0.publishRuns.finish(
                    runID, outcome: .failed, written: 0, unchanged: 0, removed: 0, manifestDigest: nil, message: "\(error)")
            }
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
        timer.mark("store contents")
        // Keep the manifest too (by app; file contents are stored above) so any run can be restored.
        let packed = outcome.archive ?? ManifestArchive.pack(outcome.manifest)
        let manifestDigest = packed.indexDigest  // also written into the manifest's header
        var blobs = packed.shards
        blobs[manifestDigest] = packed.index
        blobs.merge(storedWithRecord) { shard, _ in shard }
        try database.asOperator { session in
            try session.publishRuns.storeBlobs(blobs, tenantFolder: folder.tenantID)
            try session.publishRuns.finish(
                runID, outcome: name, written: outcome.written.count, unchanged: outcome.unchanged,
                removed: outcome.removed.count, manifestDigest: manifestDigest, message: nil, sourceSnapshot: sourceSnapshot)
        }
        timer.mark("record run")
        return outcome
    }

    /// At most this many compiled files, and of their contents to store at most this many
    /// bytes, and those contents go into the run's record transaction.
    static let fewFiles = 200
    static let fewBytes = 1 << 20
}

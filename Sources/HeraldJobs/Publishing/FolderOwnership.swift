import Foundation
import HeraldPublish
import HeraldSite
import HeraldStore

/// A folder belongs to the Herald database that published it (its installation id, in the
/// manifest). A run from any other — an empty database made by a cron job without its
/// environment, a second Herald — would replace that site: it is refused unless adopting the
/// folder on purpose. A folder holding a review board is never published into.
extension PublishJob {
    /// Refuses writing `folder` as `owner` when its manifest names another owner.
    func checkOwnership(of folder: Folder, as owner: SiteManifest.Owner) throws {
        guard let existing = SiteWriter(root: folder.root).readManifest().owner, existing != owner else { return }
        if existing.purpose == .board {
            throw PublishJobError.foreignFolder(out: folder.root, ours: owner, theirs: existing)
        }
        if !adopt { throw PublishJobError.foreignFolder(out: folder.root, ours: owner, theirs: existing) }
    }
}

/// The database snapshot a whole-folder run records, with the cluster it was taken on: a
/// snapshot of transaction ids means nothing on another cluster (a database restored onto a
/// new server), so the next run there compares the whole site once instead of trusting it.
struct RecordedSnapshot: Equatable {
    let cluster: String
    let snapshot: String

    var text: String { "\(cluster)@\(snapshot)" }

    /// A recorded text; nil for one written before clusters were recorded (trusted no more).
    init?(_ text: String?) {
        guard let text, let at = text.firstIndex(of: "@") else { return nil }
        cluster = String(text[..<at])
        snapshot = String(text[text.index(after: at)...])
    }

    init(cluster: String, snapshot: String) {
        self.cluster = cluster
        self.snapshot = snapshot
    }
}

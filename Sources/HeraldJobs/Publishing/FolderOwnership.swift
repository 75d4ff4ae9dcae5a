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
        guard let existing = SiteWriter(root: folder.root).manifestHeader()?.owner, existing != owner else { return }
        if existing.purpose == .board {
            throw PublishJobError.foreignFolder(out: folder.root, ours: owner, theirs: existing)
        }
        if !adopt { throw PublishJobError.foreignFolder(out: folder.root, ours: owner, theirs: existing) }
    }
}

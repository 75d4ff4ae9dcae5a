import Foundation
import HeraldPublish
import HeraldStore

/// Why a publish or a rollback stopped. Database failures come as `StoreError`.
public enum PublishJobError: Error {
    /// Another publish holds the lock (and the job was not told to wait).
    case busy
    /// The campaigns do not compile into a site: one problem per line.
    case invalidSite([String])
    /// The run asked to restore did not leave a complete site behind.
    case runNotRestorable(run: Int64, outcome: PublishRunOutcome)
    /// The run's manifest names a file whose content the history does not keep.
    case contentNotKept(run: Int64, path: String)
    /// `out` belongs to another Herald database (`theirs`), or holds a review board: this one
    /// (`ours`) does not write there unless adopting it.
    case foreignFolder(out: URL, ours: SiteManifest.Owner, theirs: SiteManifest.Owner)
    /// Writing the site under `out` (or storing its contents) failed; the run is recorded as failed.
    case cannotWriteSite(out: URL, reason: any Error)
}

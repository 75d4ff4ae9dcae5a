import Foundation
import HeraldCore
import HeraldStore

/// Brings the database to a campaigns file (`herald apply`, and the demo's campaigns), in
/// one transaction holding the apply turn of every tenant the file names: applies of one
/// tenant never interleave, and each plans against what the one before it wrote.
public struct ApplyJob {
    let database: HeraldDatabase
    /// Wait for another apply of the same tenants instead of refusing at once (`StoreError.busy`).
    public var wait: Bool

    public init(_ database: HeraldDatabase, wait: Bool = false) {
        self.database = database
        self.wait = wait
    }

    /// Applies `document` (named `source` in messages) and returns the steps taken, or, for a
    /// dry run, the steps it would take (its transaction rolled back: nothing written). A
    /// tenant operator's login applies files of its own tenant only.
    public func apply(_ document: CampaignsDocument, source: String, dryRun: Bool = false, now: Date = Date()) throws -> [ApplyStep] {
        let login = try database.login()
        if let own = login.operatedTenant, let other = document.tenants.first(where: { $0.slug != own }) {
            throw JobError.noPermission(
                "\(source) names tenant \(other.slug): \(login.name) operates tenant \(own) only, so it applies files of \(own) alone")
        }
        return try database.transaction(applyingTo: document.tenants.map(\.slug), wait: wait, rollingBack: dryRun) { unit in
            try CampaignsApplier(now: now).apply(document, in: unit)
        }
    }
}

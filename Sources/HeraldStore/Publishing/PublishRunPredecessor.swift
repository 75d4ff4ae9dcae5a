import Foundation

extension PublishRunRepository {
    /// The newest `limit` finished runs that changed files or did not succeed, oldest first:
    /// the runs a reviewer looks at. Runs that found nothing to do (every cron tick) are left
    /// out, so that a board regenerated from cron changes only when the site did.
    public func changingRuns(limit: Int) throws -> [PublishRun] {
        let rows = try connection.query(ChangingRuns(limit: limit))
        return try rows.reversed().map { try run(try $0.decode("id")) }
    }

    /// The newest run into `outDir` before run `id` that kept a manifest: what run `id`
    /// changed is the difference between that run's manifest and its own (the board's history).
    /// `tenantFolder`: the tenant whose own-folder run `id` is (its manifest names paths in that folder).
    public func previousWithManifest(before id: Int64, outDir: String, tenantFolder: Int64? = nil) throws -> PublishRun? {
        let rows = try connection.query(PreviousRunWithManifest(outDir: outDir, runID: id, tenantID: tenantFolder))
        guard let row = rows.first else { return nil }
        return try run(try row.decode("id"))
    }
}

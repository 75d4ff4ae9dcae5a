import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldStore

/// What the board shows, read in a few queries: the tenants' apps and every campaign (one
/// transaction per tenant, as that tenant), delivery counts per day, and the publish runs
/// with their manifests.
enum BoardData {
    static func read(
        _ database: HeraldDatabase, tenant: Slug?, app: Slug?, at: Date, atIsExplicit: Bool, days: Int, siteBaseURL: HTTPURL?, runs: Int
    ) throws -> BoardInput {
        let slugs = try tenant.map { [$0] } ?? database.asOperator(readOnly: true) { try $0.tenants.list().map(\.slug) }
        let tenants = try slugs.map { slug in try database.inTenant(slug, readOnly: true) { try $0.spec(app: app) } }
        let until = String(Timestamp.format(at).prefix(10))
        let since = String(Timestamp.format(at.addingTimeInterval(-Double(days - 1) * 86_400)).prefix(10))
        let (daily, history) = try database.asOperator(readOnly: true) { session in
            let table = try session.reports.daily(ReportFilter(tenant: tenant, app: app, since: since, until: until))
            return (try dailyCounts(table), try publishRuns(session, limit: runs))
        }
        return BoardInput(
            tenants: tenants, at: at, atIsExplicit: atIsExplicit, siteBaseURL: siteBaseURL, daily: daily, since: since,
            until: until, runs: tenant.map { slug in history.compactMap { $0.scoped(to: slug) } } ?? history,
            scope: tenant.map { $0.rawValue + (app.map { "/\($0)" } ?? "") })
    }

    static func dailyCounts(_ table: ReportTable) throws -> [DailyCount] {
        let index = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($0.element, $0.offset) })
        func value(_ row: [String?], _ column: String) -> String? { index[column].flatMap { row[$0] } }
        return table.rows.compactMap { row in
            guard let tenant = value(row, "tenant"), let app = value(row, "app"), let campaign = value(row, "campaign"),
                let day = value(row, "day"), let event = value(row, "event"), let events = value(row, "events").flatMap({ Int($0) })
            else { return nil }
            return DailyCount(tenant: tenant, app: app, campaign: campaign, day: day, event: event, events: events)
        }
    }

    /// The newest runs that changed something (or failed), oldest first, each with the files it
    /// changed: its manifest against the previous run's (with a manifest) into the same folder.
    static func publishRuns(_ session: OperatorSession, limit: Int) throws -> [BoardRun] {
        guard limit > 0 else { return [] }
        let repository = session.publishRuns
        let runs = try repository.changingRuns(limit: limit)
        var previous: [Int64: PublishRun] = [:]  // run id → the run whose manifest precedes it
        for run in runs where run.manifestDigest != nil {
            previous[run.id] = try repository.previousWithManifest(before: run.id, outDir: run.outDir)
        }
        let indexDigests = Set((runs + Array(previous.values)).compactMap(\.manifestDigest))
        let indexes = try repository.blobs(Array(indexDigests))
        let shardDigests = Set(indexes.values.flatMap { ManifestArchive.shardDigests($0) ?? [] })
        let shards = try repository.blobs(Array(shardDigests))
        func manifest(_ run: PublishRun?) -> SiteManifest? {
            guard let digest = run?.manifestDigest, let index = indexes[digest] else { return nil }
            return ManifestArchive.unpack(index: index, shards: shards)
        }
        return runs.map { run in
            var changes: [FileChange]?
            if let after = manifest(run) {
                let before = previous[run.id].flatMap(manifest)
                if previous[run.id] == nil || before != nil { changes = RunChanges.between(before, after) }
            }
            return BoardRun(
                id: run.id, startedAt: run.startedAt, finishedAt: run.finishedAt, actor: run.actor, outDir: run.outDir,
                outcome: run.outcome.rawValue, scope: run.scope.description, publishAt: run.publishAt, rollbackOf: run.rollbackOf,
                written: run.filesWritten, unchanged: run.filesUnchanged, removed: run.filesRemoved, message: run.message,
                changes: changes)
        }
    }
}

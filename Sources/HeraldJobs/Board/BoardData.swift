import Foundation
import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldStore

/// What the board shows, read in a few queries: the tenants' apps and every campaign (one
/// transaction per tenant, as that tenant), the fingerprint of their delivery counts per day
/// (the counts themselves are read by `daily`, once the board knows it will render), and the
/// publish runs with their manifests.
enum BoardData {
    static func read(
        _ database: HeraldDatabase, tenant: Slug?, app: Slug?, at: Date, atIsExplicit: Bool, days: Int, siteBaseURL: HTTPURL?, runs: Int,
        timer: inout PhaseTimer
    ) throws -> BoardInput {
        let slugs = try tenant.map { [$0] } ?? database.asOperator(readOnly: true) { try $0.tenants.list().map(\.slug) }
        timer.mark("read tenant list")
        let until = String(Timestamp.format(at).prefix(10))
        let since = String(Timestamp.format(at.addingTimeInterval(-Double(days - 1) * 86_400)).prefix(10))
        let read = try perTenant(slugs, on: database) { database, slug in
            try database.inTenant(slug, readOnly: true) { session in
                let spec = try session.spec(app: app)
                // The tenant's own rollups, by index, in a few numbers per campaign: a board never
                // pays for other tenants' events, nor for reading its own when none changed.
                var fingerprint = "tenant \(slug)\n"
                for campaign in try session.campaignDaysFingerprint(app: app, since: since, until: until) {
                    fingerprint += campaign.line
                    fingerprint += "\n"
                }
                let approvals = try session.approvals.required(tenantID: session.tenant.id) ? try Self.approvals(session, spec: spec) : [:]
                return TenantRead(spec: spec, fingerprint: fingerprint, approvals: approvals)
            }
        }
        let tenants = read.map(\.spec)
        let fingerprint = read.map(\.fingerprint).joined()
        var approvals: [String: BoardApproval] = [:]
        for tenant in read { approvals.merge(tenant.approvals) { first, _ in first } }
        timer.mark("read \(slugs.count) tenant(s)'s campaigns and rollups' fingerprints\(slugs.count > 1 ? " on two connections" : "")")
        let history = try database.asOperator(readOnly: true) { session in try publishRuns(session, limit: runs) }
        timer.mark("read history")
        return BoardInput(
            tenants: tenants, at: at, atIsExplicit: atIsExplicit, siteBaseURL: siteBaseURL, daily: [], since: since,
            until: until, runs: tenant.map { slug in history.compactMap { $0.scoped(to: slug) } } ?? history,
            scope: tenant.map { $0.rawValue + (app.map { "/\($0)" } ?? "") }, approvals: approvals, dailyFingerprint: fingerprint)
    }

    /// The delivery counts per campaign and day of `input`'s tenants over its window, from each
    /// tenant's own rollups (by index, inside its session): read after the fingerprint, so that
    /// a board never records a fingerprint newer than the counts it drew.
    static func daily(_ database: HeraldDatabase, of input: BoardInput, app: Slug?) throws -> [DailyCount] {
        let (since, until) = (input.since, input.until)
        return try perTenant(input.tenants.map(\.slug), on: database) { database, slug in
            try database.inTenant(slug, readOnly: true) { session in
                var daily: [DailyCount] = []
                for day in try session.campaignDays(app: app, since: since, until: until) {
                    for (event, events) in [("delivered", day.delivered), ("impression", day.impressions), ("click", day.clicks), ("dismiss", day.dismissals)]
                    where events > 0 {
                        daily.append(DailyCount(tenant: slug.rawValue, app: day.app, campaign: day.campaign, day: day.day, event: event, events: events))
                    }
                }
                return daily
            }
        }.flatMap { $0 }
    }

    /// One tenant's campaigns, the fingerprint of its rollups, and its approvals.
    private struct TenantRead: Sendable {
        let spec: TenantSpec
        let fingerprint: String
        let approvals: [String: BoardApproval]
    }

    /// `read` of each tenant, in the order given. Each tenant is read in a transaction of its
    /// own, so with two or more, every other one is read on a second connection at the same
    /// time: two server processes share the work (most of a board with nothing changed).
    static func perTenant<Value: Sendable>(
        _ slugs: [Slug], on database: HeraldDatabase, _ read: @escaping @Sendable (HeraldDatabase, Slug) throws -> Value
    ) throws -> [Value] {
        guard slugs.count > 1 else { return try slugs.map { try read(database, $0) } }
        let second = try database.connectAgain()
        let theirs = slugs.indices.filter { $0 % 2 == 1 }.map { slugs[$0] }
        let alongside = BackgroundWork { try theirs.map { try read(second, $0) } }
        let mine = try slugs.indices.filter { $0 % 2 == 0 }.map { try read(database, slugs[$0]) }
        let other = try alongside.wait()
        return slugs.indices.map { $0 % 2 == 0 ? mine[$0 / 2] : other[$0 / 2] }
    }

    /// The tenant's campaigns' versions and approvals, with each unapproved one's change since
    /// its approved version.
    static func approvals(_ session: TenantSession, spec: TenantSpec) throws -> [String: BoardApproval] {
        let campaigns = Dictionary(
            spec.apps.flatMap { app in app.campaigns.map { ("\(app.slug)/\($0.key)", $0) } }, uniquingKeysWith: { first, _ in first })
        var result: [String: BoardApproval] = [:]
        for state in try session.approvals.all() {
            guard let campaign = campaigns["\(state.app)/\(state.key)"] else { continue }
            result["\(spec.slug)/\(state.app)/\(state.key)"] = BoardApproval(
                version: state.version, editedBy: state.editedBy, editedAt: state.editedAt, approvedVersion: state.approvedVersion,
                approvedBy: state.approvedBy, approvedAt: state.approvedAt, diff: state.isApproved ? "" : state.diff(current: campaign))
        }
        return result
    }

    /// The newest runs that changed something (or failed), oldest first, each with the files it
    /// changed: its manifest against the previous run's (with a manifest) into the same folder
    /// by the same writer. A tenant operator's run keeps its manifest with the tenant's contents
    /// and names paths inside the tenant's own folder: they are shown as the site names them.
    /// A tenant's login sees its own runs only (PostgreSQL's row policy).
    static func publishRuns(_ session: OperatorSession, limit: Int) throws -> [BoardRun] {
        guard limit > 0 else { return [] }
        let repository = session.publishRuns
        let runs = try repository.changingRuns(limit: limit)
        var previous: [Int64: PublishRun] = [:]  // run id → the run whose manifest precedes it
        for run in runs where run.manifestDigest != nil {
            previous[run.id] = try repository.previousWithManifest(before: run.id, outDir: run.outDir, tenantFolder: run.tenantID)
        }
        // Contents by where they are kept: Herald's (nil) or a tenant's.
        var indexes: [Int64?: [String: [UInt8]]] = [:]
        var shards: [Int64?: [String: [UInt8]]] = [:]
        let kept = Dictionary(grouping: runs + Array(previous.values), by: \.tenantID)
        for (owner, owned) in kept {
            let digests = Set(owned.compactMap(\.manifestDigest))
            guard !digests.isEmpty else { continue }
            let read = try repository.blobs(Array(digests), tenantFolder: owner)
            indexes[owner] = read
            let shardDigests = Set(read.values.flatMap { ManifestArchive.shardDigests($0) ?? [] })
            shards[owner] = shardDigests.isEmpty ? [:] : try repository.blobs(Array(shardDigests), tenantFolder: owner)
        }
        let slugs = try tenantSlugs(session, ids: Set(runs.compactMap(\.tenantID)))
        func manifest(_ run: PublishRun?) -> SiteManifest? {
            guard let run, let digest = run.manifestDigest, let index = indexes[run.tenantID]?[digest],
                let manifest = ManifestArchive.unpack(index: index, shards: shards[run.tenantID] ?? [:])
            else { return nil }
            guard let tenant = run.tenantID else { return manifest }
            guard let slug = slugs[tenant] else { return nil }
            return SiteManifest(files: Dictionary(uniqueKeysWithValues: manifest.files.map { ("\(slug)/\($0.key)", $0.value) }))
        }
        return runs.map { run in
            var changes: [FileChange]?
            if let after = manifest(run) {
                let before = previous[run.id].flatMap(manifest)
                if previous[run.id] == nil || before != nil { changes = RunChanges.between(before, after) }
            }
            return BoardRun(
                id: run.id, startedAt: run.startedAt, finishedAt: run.finishedAt, actor: run.actor, outDir: run.outDir,
                outcome: run.outcome.rawValue, scope: run.tenantID.flatMap { slugs[$0]?.rawValue } ?? run.scope.description,
                publishAt: run.publishAt, rollbackOf: run.rollbackOf, written: run.filesWritten, unchanged: run.filesUnchanged,
                removed: run.filesRemoved, message: run.message, changes: changes)
        }
    }

    /// The slugs of the tenants whose own-folder runs are listed (a tenant's login sees its own).
    static func tenantSlugs(_ session: OperatorSession, ids: Set<Int64>) throws -> [Int64: Slug] {
        guard !ids.isEmpty else { return [:] }
        return Dictionary(uniqueKeysWithValues: try session.tenants.list().filter { ids.contains($0.id) }.map { ($0.id, $0.slug) })
    }
}

import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

extension PublishJob {
    /// Puts the folder back exactly as run `id` left it, recorded as a new run. A tenant
    /// operator sees, and so restores, only its tenant's own runs.
    public func rollback(to id: Int64) throws -> Result {
        let run = try database.asOperator(readOnly: true) { try $0.publishRuns.run(id) }
        guard let tenantID = run.tenantID else {
            // Herald's own run, over the site (or part of it): Herald's login only (a tenant
            // operator never sees one), holding the site's lock and its tenants' locks.
            return try locked {
                try withTenantLocks(run.scope.tenants, dryRun: false, busy: wait ? .wait : .refuse) { _ in
                    try rollback(run, into: .site(out))
                }
            }
        }
        let tenant = try database.asOperator(readOnly: true) { session in
            try session.tenants.list().first { $0.id == tenantID }
        }
        guard let tenant else { throw StoreError.notFound(what: "publish run", name: String(id), listCommand: "herald publish --history") }
        return try withTenantLocks([tenant.slug], dryRun: false, busy: wait ? .wait : .refuse) { _ in
            try rollback(run, into: .tenant(tenant.slug, id: tenantID, in: out))
        }
    }

    func rollback(_ run: PublishRun, into folder: Folder) throws -> Result {
        let id = run.id
        let (files, owner) = try database.asOperator(readOnly: true) { session -> ([SiteFile], SiteManifest.Owner) in
            let owner = SiteManifest.Owner(installation: try session.installationID(), purpose: .site)
            try checkOwnership(of: folder, as: owner)
            let runs = session.publishRuns
            guard run.outcome == .succeeded || run.outcome == .rolledBack, let indexDigest = run.manifestDigest,
                let manifest = try Self.archivedManifest(indexDigest, in: runs, tenantFolder: folder.tenantID)?.manifest
            else {
                throw PublishJobError.runNotRestorable(run: id, outcome: run.outcome)
            }
            let blobs = try runs.blobs(Array(Set(manifest.files.values)), tenantFolder: folder.tenantID)
            let files = try manifest.files.sorted { $0.key < $1.key }.map { path, digest in
                guard let bytes = blobs[digest], let sitePath = SitePath(relative: path) else {
                    throw PublishJobError.contentNotKept(run: id, path: path)
                }
                return SiteFile(path: sitePath, bytes: bytes)
            }
            return (files, owner)
        }
        let runID = try database.asOperator {
            try $0.publishRuns.start(
                actor: database.actor, outDir: out.path, publishAt: run.publishAt, scope: run.scope, rollbackOf: id,
                tenantFolder: folder.tenantID)
        }
        var timer = PhaseTimer(phaseTimes)
        let outcome = try writeRecording(
            runID: runID, files: files, into: folder, scope: run.scope, outcome: .rolledBack, owner: owner, timer: &timer)
        return Result(runID: runID, outcome: folder.sitePaths(outcome), warnings: [], apps: 0)
    }
}

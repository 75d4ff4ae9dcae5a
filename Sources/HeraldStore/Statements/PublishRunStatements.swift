import Foundation

// queries/publish-runs.sql (`kept-manifests`, `tenant-ids` and `copy-publish-blobs` take no parameters).

struct StartPublishRun: Statement {
    static let query = Query.startPublishRun
    let actor: String
    let outDir: String
    let publishAt: Date
    let scope: String
    let outcome: String
    let rollbackOf: Int64?
    let baseURL: String?
    let tenantID: Int64?
}

struct FinishPublishRun: Statement {
    static let query = Query.finishPublishRun
    let id: Int64
    let outcome: String
    let filesWritten: Int
    let filesUnchanged: Int
    let filesRemoved: Int
    let manifestDigest: String?
    let message: String?
    let sourceSnapshot: String?
    let sourceCluster: String?
}

struct CountPublishRepeat: Statement {
    static let query = Query.countPublishRepeat
    let id: Int64
    let sourceSnapshot: String?
    let sourceCluster: String?
}

struct LatestPublishRun: Statement {
    static let query = Query.latestPublishRun
    let outDir: String
    let tenantID: Int64?
}

struct FindPublishRun: Statement {
    static let query = Query.publishRun
    let id: Int64
}

struct PublishHistory: Statement {
    static let query = Query.publishHistory
    let limit: Int
}

struct ChangingRuns: Statement {
    static let query = Query.changingRuns
    let limit: Int
}

struct PreviousRunWithManifest: Statement {
    static let query = Query.previousRunWithManifest
    let outDir: String
    let runID: Int64
    /// The tenant whose own-folder runs to look at; nil for Herald's runs.
    let tenantID: Int64?
}

struct KeepsManifest: Statement {
    static let query = Query.keepsManifest
    let digest: String
    let tenantID: Int64?
}

struct StoredBlobDigests: Statement {
    static let query = Query.storedBlobDigests
    let digests: [String]
}

struct StoreTenantPublishBlobs: Statement {
    static let query = Query.storeTenantPublishBlobs
    let tenantID: Int64
    let digests: [String]
    /// Each content in hex, in the order of `digests`.
    let contents: [String]
}

struct PublishBlobs: Statement {
    static let query = Query.publishBlobs
    let digests: [String]
}

struct TenantPublishBlobs: Statement {
    static let query = Query.tenantPublishBlobs
    let tenantID: Int64
    let digests: [String]
}

struct PrunePublishRuns: Statement {
    static let query = Query.prunePublishRuns
    let keepNewest: Int64?
    let before: Date?
}

struct PrunePublishBlobs: Statement {
    static let query = Query.prunePublishBlobs
    let needed: [String]
}

struct PruneTenantPublishBlobs: Statement {
    static let query = Query.pruneTenantPublishBlobs
    let tenantID: Int64
    let needed: [String]
}

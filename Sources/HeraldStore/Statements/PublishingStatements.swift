import Foundation

// queries/publishing.sql (`current-snapshot` takes no parameters).

struct SnapshotTenants: Statement {
    static let query = Query.snapshotTenants
    /// One tenant's slug, or nil for every tenant.
    let tenant: String?
}

struct SnapshotApps: Statement {
    static let query = Query.snapshotApps
    let tenantIDs: [Int64]
    /// One app's slug, or nil for every app of the tenants.
    let app: String?
    /// Only these apps, or nil for all.
    let appIDs: [Int64]?
}

struct AppsEditedSince: Statement {
    static let query = Query.appsEditedSince
    /// A `pg_snapshot` as text.
    let snapshot: String
}

struct AppsWithCampaignsStartingOrEnding: Statement {
    static let query = Query.appsWithCampaignsStartingOrEnding
    let previousAt: Date
    let at: Date
}

struct PublishChannel: Statement {
    static let query = Query.publishChannel
    /// The watched tenant's id, or nil for the whole site.
    let tenantID: Int64?
}

struct NextScheduleBoundary: Statement {
    static let query = Query.nextScheduleBoundary
    let at: Date
    /// Only this tenant's campaigns, or nil for all the login sees.
    let tenantID: Int64?
}

struct TryFolderLock: Statement {
    static let query = Query.tryFolderLock
    let folder: String
}

/// `lock-publish-tenants` and its two variants, which differ in what they do about a lock
/// someone else holds.
struct LockPublishTenants: QueryParameters {
    /// The tenants' slugs, or nil for every tenant the login sees.
    let tenants: [String]?
}

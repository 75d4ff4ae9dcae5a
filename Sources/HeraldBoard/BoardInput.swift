import Foundation
import HeraldCore
import HeraldPublish

/// Everything the board shows, as values: `herald board` reads them from the database; tests
/// make them by hand. The renderer does no I/O.
public struct BoardInput: Sendable {
    /// Tenants with their apps and every campaign, whatever its status.
    public var tenants: [TenantSpec]
    /// The moment the board shows (states, timeline, the matrix's files): `--at`, else now.
    public var at: Date
    /// Whether `at` was given (`--at`): the board then names the moment to the second.
    public var atIsExplicit: Bool
    /// As for publish: the public URL of the published folder, for inline views of apps without a base URL.
    public var siteBaseURL: HTTPURL?
    /// Delivery counts per campaign and day over the chart window.
    public var daily: [DailyCount]
    /// What `daily` holds, as a fingerprint the database gives without reading every row
    /// (`herald board` reads the rows only when the board's digest made with this one is not
    /// the previous board's); nil: the digest reads `daily` itself.
    public var dailyFingerprint: String?
    /// The chart window, UTC days `YYYY-MM-DD`, both included.
    public var since: String
    public var until: String
    /// Recorded publish runs, oldest first, with the files each changed (when known).
    public var runs: [BoardRun]
    /// Set when the board covers one tenant (`--tenant`): said in the header.
    public var scope: String?
    /// Four-eyes approval, by `tenant/app/campaign`, for the tenants that require it.
    public var approvals: [String: BoardApproval]

    public init(
        tenants: [TenantSpec], at: Date, atIsExplicit: Bool = false, siteBaseURL: HTTPURL? = nil, daily: [DailyCount] = [],
        since: String, until: String, runs: [BoardRun] = [], scope: String? = nil, approvals: [String: BoardApproval] = [:],
        dailyFingerprint: String? = nil
    ) {
        self.dailyFingerprint = dailyFingerprint
        self.approvals = approvals
        self.tenants = tenants
        self.at = at
        self.atIsExplicit = atIsExplicit
        self.siteBaseURL = siteBaseURL
        self.daily = daily
        self.since = since
        self.until = until
        self.runs = runs
        self.scope = scope
    }
}

/// A campaign's version and its approval, in a tenant that requires four eyes.
public struct BoardApproval: Sendable, Equatable {
    public var version: Int64
    /// The login that made the current version (nil: before approvals were recorded).
    public var editedBy: String?
    public var editedAt: Date
    public var approvedVersion: Int64?
    public var approvedBy: String?
    public var approvedAt: Date?
    /// The change since the approved version (a unified diff of the campaigns-file text).
    public var diff: String

    public var isApproved: Bool { approvedVersion == version }

    public init(
        version: Int64, editedBy: String?, editedAt: Date, approvedVersion: Int64?, approvedBy: String?, approvedAt: Date?, diff: String
    ) {
        self.version = version
        self.editedBy = editedBy
        self.editedAt = editedAt
        self.approvedVersion = approvedVersion
        self.approvedBy = approvedBy
        self.approvedAt = approvedAt
        self.diff = diff
    }

    static func key(tenant: Slug, app: Slug, campaign: Slug) -> String { "\(tenant)/\(app)/\(campaign)" }
}

/// One row of `reporting.campaign_daily`, summed over locales or not (the board adds them up).
public struct DailyCount: Sendable, Equatable {
    public var tenant: String
    public var app: String
    public var campaign: String
    /// `YYYY-MM-DD` (UTC).
    public var day: String
    /// `delivered`, `impression`, `click` or `dismiss`.
    public var event: String
    public var events: Int

    public init(tenant: String, app: String, campaign: String, day: String, event: String, events: Int) {
        self.tenant = tenant
        self.app = app
        self.campaign = campaign
        self.day = day
        self.event = event
        self.events = events
    }
}

/// A recorded publish run and what it changed.
public struct BoardRun: Sendable, Equatable {
    public var id: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var actor: String
    public var outDir: String
    public var outcome: String
    /// "" for the whole site, else the tenants or apps it managed.
    public var scope: String
    public var publishAt: Date
    public var rollbackOf: Int64?
    public var written: Int
    public var unchanged: Int
    public var removed: Int
    public var message: String?
    /// The files this run changed, by comparing its manifest with the previous run's into the
    /// same folder; nil when a manifest is not kept (a failed run).
    public var changes: [FileChange]?

    public init(
        id: Int64, startedAt: Date, finishedAt: Date?, actor: String, outDir: String, outcome: String, scope: String,
        publishAt: Date, rollbackOf: Int64?, written: Int, unchanged: Int, removed: Int, message: String?, changes: [FileChange]?
    ) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.actor = actor
        self.outDir = outDir
        self.outcome = outcome
        self.scope = scope
        self.publishAt = publishAt
        self.rollbackOf = rollbackOf
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.message = message
        self.changes = changes
    }
}

public struct FileChange: Sendable, Equatable, Comparable {
    public enum Kind: String, Sendable, Comparable {
        case added, changed, removed
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.path, lhs.kind) < (rhs.path, rhs.kind) }
}

/// What a run changed: the difference between the manifest before it and after it.
public enum RunChanges {
    /// Paths added, changed (other digest) and removed, by path. `before` nil: the first run
    /// into the folder, so everything it lists was added.
    public static func between(_ before: SiteManifest?, _ after: SiteManifest) -> [FileChange] {
        let old = before?.files ?? [:]
        let new = after.files
        var changes: [FileChange] = []
        for (path, digest) in new {
            if let previous = old[path] {
                if previous != digest { changes.append(FileChange(path: path, kind: .changed)) }
            } else {
                changes.append(FileChange(path: path, kind: .added))
            }
        }
        for path in old.keys where new[path] == nil { changes.append(FileChange(path: path, kind: .removed)) }
        return changes.sorted()
    }
}

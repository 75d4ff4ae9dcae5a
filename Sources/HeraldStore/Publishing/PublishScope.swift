import HeraldCore

/// The part of a published site a run manages: the whole site, one tenant's folder, or some
/// apps' folders (one app for `--tenant T --app A`, the changed apps of an incremental run).
public enum PublishScope: Hashable, Sendable, CustomStringConvertible {
    case site
    case tenant(Slug)
    /// These apps' folders. An empty list manages nothing.
    case apps([AppPath])

    /// One app's folder, `<tenant>/<app>/`.
    public struct AppPath: Hashable, Sendable {
        public let tenant: Slug
        public let app: Slug

        public init(tenant: Slug, app: Slug) {
            self.tenant = tenant
            self.app = app
        }
    }

    /// One app's folder.
    public static func app(tenant: Slug, app: Slug) -> PublishScope {
        .apps([AppPath(tenant: tenant, app: app)])
    }

    /// What `--tenant` and `--app` select: the site without a tenant, else the tenant, or one of its apps.
    public init(tenant: Slug?, app: Slug?) {
        guard let tenant else {
            self = .site
            return
        }
        self = app.map { .app(tenant: tenant, app: $0) } ?? .tenant(tenant)
    }

    /// The folders managed, as path segments under the site's root; nil for the whole site.
    public var folders: [[String]]? {
        switch self {
        case .site: nil
        case .tenant(let tenant): [[tenant.rawValue]]
        case .apps(let apps): apps.map { [$0.tenant.rawValue, $0.app.rawValue] }
        }
    }

    /// The stored form, as `herald publish --history` shows it: `""` for the site, else the
    /// folders, each `tenant` or `tenant/app`, separated by spaces.
    public var description: String { storedText }

    // MARK: The `publish_runs.scope` column: the one place that writes and reads it.

    /// `""`, `tenant`, or `tenant/app tenant/app …`. An empty app list has no text of its own
    /// (it would read back as the site): runs record what they manage, never an empty list.
    var storedText: String {
        (folders ?? []).map { $0.joined(separator: "/") }.joined(separator: " ")
    }

    /// Reads `storedText` back; nil when the text is not one it writes.
    init?(storedText text: String) {
        if text.isEmpty {
            self = .site
            return
        }
        let folders = text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }
        if folders.count == 1, folders[0].count == 1, let tenant = try? Slug(folders[0][0]) {
            self = .tenant(tenant)
            return
        }
        var apps: [AppPath] = []
        for folder in folders {
            guard folder.count == 2, let tenant = try? Slug(folder[0]), let app = try? Slug(folder[1]) else { return nil }
            apps.append(AppPath(tenant: tenant, app: app))
        }
        self = .apps(apps)
    }
}

/// How a publish run ended, as `publish_runs.outcome` stores it.
public enum PublishRunOutcome: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Started and not finished: still running, or the process died.
    case running
    case succeeded
    case failed
    /// A rollback that finished (the site is as an earlier run left it).
    case rolledBack = "rolled back"

    /// The stored text (`rolled back`).
    public var description: String { rawValue }
}

import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

/// What one device would see, and why not the rest (`herald preview`): decided from the
/// locale's files as published in a folder, or as publish would compile them now.
public struct PreviewJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    /// Where the files come from.
    public enum Source: Sendable {
        /// The folder a publish wrote (`--out`).
        case folder(URL)
        /// Compiled in memory, as a publish at the preview's time would write them.
        case compiled(siteBaseURL: HTTPURL?)
    }

    public func preview(
        tenant named: Slug?, app: Slug, locale: LocaleTag, device: DeviceState, at: Date, from source: Source
    ) throws -> PreviewResult {
        let tenant = try database.tenant(named)
        guard let appSpec = try database.inTenant(tenant, readOnly: true, { try $0.spec(app: app) }).apps.first else {
            throw StoreError.notFound(what: "app", name: "\(tenant)/\(app)", listCommand: "herald app list")
        }
        guard appSpec.locales.contains(locale) else {
            throw ValidationError(
                message: "app \(app) does not publish locale \(locale) (its locales: \(appSpec.locales.map(\.rawValue).joined(separator: ", ")))")
        }
        let files: LocaleFiles
        switch source {
        case .folder(let out):
            files = try Self.published(in: out, tenant: tenant, app: app, locale: locale)
        case .compiled(let siteBaseURL):
            let snapshot = try database.asOperator(.repeatableRead, readOnly: true) { try SnapshotReader($0).read(tenant: tenant, app: app) }
            let site = SiteCompiler(siteBaseURL: siteBaseURL).compile(snapshot, at: at)
            files = LocaleFiles(compiled: site.files, tenant: tenant, app: app, locale: locale)
        }
        return files.preview(app: appSpec, locale: locale, at: at, device: device)
    }

    /// A locale's files as a publish left them under `out`.
    public static func published(in out: URL, tenant: Slug, app: Slug, locale: LocaleTag) throws -> LocaleFiles {
        let folderSegments = SitePath.localeFolder(tenant: tenant, app: app, locale: locale)
        let folder = folderSegments.reduce(out) { $0.appendingPathComponent($1) }
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw JobError(
                .invalid,
                "nothing published for \(folderSegments.joined(separator: "/"))/ under \(out.relativePath): run `herald publish --out \(out.relativePath)` first")
        }
        func read(_ path: SitePath) -> [UInt8]? {
            FileManager.default.contents(atPath: out.appendingPathComponent(path.description).path).map { [UInt8]($0) }
        }
        // Each story's block, to play as the player would (its push request body is not read).
        var stories: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(SitePath.storiesFolder).path)) ?? [] {
            guard let key = SitePath.storyKey(fileName: name), let campaign = try? Slug(key) else { continue }
            stories[key] = read(.storyFile(tenant: tenant, app: app, locale: locale, campaign: campaign)) ?? []
        }
        return LocaleFiles(
            control: read(.controlFile(tenant: tenant, app: app, locale: locale)),
            notifications: read(.notificationsFile(tenant: tenant, app: app, locale: locale)), stories: stories,
            localNotifications: read(.localNotificationsFile(tenant: tenant, app: app, locale: locale)))
    }
}

import Foundation
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

extension PublishJob {
    /// Where a run writes: the site's root (Herald's runs), or one tenant's own folder in it
    /// (a tenant operator's runs), whose files the writer sees without the tenant's segment.
    struct Folder {
        let root: URL
        /// The tenant whose own folder this is, and its id (run history and contents).
        let tenant: (slug: Slug, id: Int64)?

        static func site(_ out: URL) -> Folder { Folder(root: out, tenant: nil) }

        static func tenant(_ slug: Slug, id: Int64, in out: URL) -> Folder {
            Folder(root: out.appendingPathComponent(slug.rawValue), tenant: (slug, id))
        }

        var tenantID: Int64? { tenant?.id }

        /// Compiled files as this folder holds them.
        func local(_ files: [SiteFile]) -> [SiteFile] {
            guard let tenant else { return files }
            return files.compactMap { file in
                guard file.path.segments.first == tenant.slug.rawValue,
                    let path = SitePath(relative: file.path.segments.dropFirst().joined(separator: "/"))
                else { return nil }
                return SiteFile(path: path, bytes: file.bytes)
            }
        }

        /// A path in this folder as the site names it (what people are shown).
        func sitePath(_ path: String) -> String {
            tenant.map { "\($0.slug)/\(path)" } ?? path
        }

        /// The writer's scope for `scope` (which names folders as the site does).
        func folders(of scope: PublishScope) -> [[String]]? {
            guard tenant != nil else { return scope.folders }
            switch scope {
            case .site, .tenant: return nil  // this tenant's whole folder
            case .apps(let apps): return apps.map { [$0.app.rawValue] }
            }
        }

        func sitePaths(_ outcome: SiteWriter.Outcome) -> SiteWriter.Outcome {
            guard tenant != nil else { return outcome }
            var shown = outcome
            shown.written = outcome.written.map(sitePath)
            shown.removed = outcome.removed.map(sitePath)
            return shown
        }
    }
}

import HeraldCore

/// A path inside the published site, relative to the output folder. Every segment comes
/// from a validated value (slug, locale tag) or a fixed file name, so no path Herald
/// publishes can climb out of the folder or clash with another tenant's files.
public struct SitePath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let segments: [String]
    /// The path with `/` separators, as it appears under the output folder and in URLs
    /// (made once: the writer and the manifest ask for it several times per file).
    public let description: String

    private init(_ segments: [String]) {
        self.segments = segments
        description = segments.joined(separator: "/")
    }

    public static func == (lhs: SitePath, rhs: SitePath) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// `<tenant>/<app>/<locale>/control.json` (Notable banners).
    public static func controlFile(tenant: Slug, app: Slug, locale: LocaleTag) -> SitePath {
        SitePath([tenant.rawValue, app.rawValue, locale.rawValue, "control.json"])
    }

    /// `<tenant>/<app>/<locale>/notifications.plist` (iNotify alerts).
    public static func notificationsFile(tenant: Slug, app: Slug, locale: LocaleTag) -> SitePath {
        SitePath([tenant.rawValue, app.rawValue, locale.rawValue, "notifications.plist"])
    }

    /// `<tenant>/<app>/<locale>/stories/<campaign>.json`, or `.push.json` for the Pushwoosh request body.
    public static func storyFile(tenant: Slug, app: Slug, locale: LocaleTag, campaign: Slug, push: Bool = false) -> SitePath {
        SitePath([tenant.rawValue, app.rawValue, locale.rawValue, "stories", campaign.rawValue + (push ? ".push.json" : ".json")])
    }

    /// `<tenant>/<app>/<locale>/views/<campaign>/<view>.html` (banner views authored as inline HTML).
    public static func viewFile(tenant: Slug, app: Slug, locale: LocaleTag, campaign: Slug, view: Slug) -> SitePath {
        SitePath([tenant.rawValue, app.rawValue, locale.rawValue, "views", campaign.rawValue, view.rawValue + ".html"])
    }

    /// A path read back from a manifest: every segment must be one Herald could have made.
    public init?(relative path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let safe = segments.count >= 2 && segments.allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".." && !segment.hasPrefix(".")
                && segment.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0)) }
        }
        guard safe else { return nil }
        self.init(segments)
    }

    public static func < (lhs: SitePath, rhs: SitePath) -> Bool { lhs.segments.lexicographicallyPrecedes(rhs.segments) }
}

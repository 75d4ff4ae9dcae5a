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
        SitePath(localeFolder(tenant: tenant, app: app, locale: locale) + [controlName])
    }

    /// `<tenant>/<app>/<locale>/notifications.plist` (iNotify alerts).
    public static func notificationsFile(tenant: Slug, app: Slug, locale: LocaleTag) -> SitePath {
        SitePath(localeFolder(tenant: tenant, app: app, locale: locale) + [notificationsName])
    }

    /// `<tenant>/<app>/<locale>/local-notifications.plist`, or the same as `.json` (local campaigns).
    public static func localNotificationsFile(tenant: Slug, app: Slug, locale: LocaleTag, json: Bool = false) -> SitePath {
        SitePath(localeFolder(tenant: tenant, app: app, locale: locale) + [json ? localNotificationsJSONName : localNotificationsName])
    }

    /// `<tenant>/<app>/<locale>/stories/<campaign>.json`, or `.push.json` for the Pushwoosh request body.
    public static func storyFile(tenant: Slug, app: Slug, locale: LocaleTag, campaign: Slug, push: Bool = false) -> SitePath {
        SitePath(localeFolder(tenant: tenant, app: app, locale: locale) + [storiesFolder, campaign.rawValue + (push ? ".push.json" : ".json")])
    }

    /// `<tenant>/<app>/<locale>/views/<campaign>/<view>.html` (banner views authored as inline HTML).
    public static func viewFile(tenant: Slug, app: Slug, locale: LocaleTag, campaign: Slug, view: Slug) -> SitePath {
        SitePath(localeFolder(tenant: tenant, app: app, locale: locale) + ["views", campaign.rawValue, view.rawValue + ".html"])
    }

    /// The folder of one locale's files: `<tenant>/<app>/<locale>`.
    public static func localeFolder(tenant: Slug, app: Slug, locale: LocaleTag) -> [String] {
        [tenant.rawValue, app.rawValue, locale.rawValue]
    }

    /// The names of a locale's Notable and iNotify files.
    public static let controlName = "control.json"
    public static let notificationsName = "notifications.plist"
    /// The names of a locale's local notifications, as a property list and as JSON.
    public static let localNotificationsName = "local-notifications.plist"
    public static let localNotificationsJSONName = "local-notifications.json"

    /// The folder of a locale's story files, inside its locale folder.
    public static let storiesFolder = "stories"

    /// The campaign key of a story file's name (`tour.json`; not the `.push.json` request body).
    public static func storyKey(fileName: String) -> String? {
        guard fileName.hasSuffix(".json"), !fileName.hasSuffix(".push.json") else { return nil }
        return String(fileName.dropLast(".json".count))
    }

    /// What a path is to the devices of its locale, when it is one of the files they read
    /// to decide what to show: its locale folder, and the file.
    public var localeFile: (folder: [String], file: LocaleFile)? {
        switch segments.count {
        case 4 where segments[3] == Self.controlName: (Array(segments.prefix(3)), .control)
        case 4 where segments[3] == Self.notificationsName: (Array(segments.prefix(3)), .notifications)
        case 4 where segments[3] == Self.localNotificationsName: (Array(segments.prefix(3)), .localNotifications)
        case 5 where segments[3] == Self.storiesFolder:
            Self.storyKey(fileName: segments[4]).map { (Array(segments.prefix(3)), .story($0)) }
        default: nil
        }
    }

    /// The files of a locale that devices read to decide what to show.
    public enum LocaleFile: Equatable, Sendable {
        case control, notifications
        /// The local notifications (the property list; the JSON says the same).
        case localNotifications
        /// A story's payload, by campaign key.
        case story(String)
    }

    /// A path read back from a manifest (or a marker, or the run history): every segment must
    /// be one Herald could have made.
    public init?(relative path: String) {
        guard Self.isSafeRelative(path.utf8) else { return nil }
        self.init(path.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
    }

    /// The longest segment a path may have (a file name on every filesystem Herald runs on).
    static let maximumSegmentLength = 255
    /// The longest path a manifest may name (PATH_MAX, with the folder's own path in front).
    static let maximumLength = 1024

    /// `path` is relative, has at least two segments, none empty, `.`-led (`.`, `..`, hidden
    /// names: Herald's own temp files and hidden folders) or longer than a file name can be,
    /// and only `A-Z a-z 0-9 - . _` between the slashes: no absolute path, no `..`, no `//`,
    /// no NUL, no backslash, no byte outside ASCII. Checked byte by byte: manifests hold tens
    /// of thousands of paths, read at every publish.
    public static func isSafeRelative(_ utf8: some Collection<UInt8>) -> Bool {
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        var segments = 0
        var length = 0
        var first = true
        for byte in utf8 {
            if byte == UInt8(ascii: "/") {
                guard length > 0 else { return false }
                segments += 1
                length = 0
                first = true
                continue
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                break
            case UInt8(ascii: "."):
                if first { return false }
            default:
                return false
            }
            first = false
            length += 1
            if length > maximumSegmentLength { return false }
        }
        return length > 0 && segments >= 1
    }

    /// Whether devices read this file to find others (`control.json` names view files); such
    /// a file is written only after everything it may name is in place.
    public var namesOtherFiles: Bool {
        segments.last == Self.controlName || segments.last == Self.notificationsName
    }

    public static func < (lhs: SitePath, rhs: SitePath) -> Bool { lhs.segments.lexicographicallyPrecedes(rhs.segments) }
}

import Foundation
import HeraldCore

/// The files the devices of one locale read to decide what to show — `control.json`,
/// `notifications.plist`, the stories and `local-notifications.plist` — from a compiled site or a published folder.
/// `herald preview`, the board's device matrix and the demo all decide from these.
public struct LocaleFiles: Sendable, Equatable {
    /// Notable's file (`{}` when there is none: no banners).
    public var control: [UInt8]
    /// iNotify's file (empty when there is none).
    public var notifications: [UInt8]
    /// The locale's stories: each campaign key's published block (`stories/<key>.json`).
    public var stories: [String: [UInt8]]
    /// Herald's local notifications file (`local-notifications.plist`); nil when the app has none.
    public var localNotifications: [UInt8]?

    /// The campaign keys of the locale's stories, sorted.
    public var storyKeys: [String] { stories.keys.sorted() }

    public init(control: [UInt8]?, notifications: [UInt8]?, stories: [String: [UInt8]], localNotifications: [UInt8]? = nil) {
        self.control = control ?? Array("{}".utf8)
        self.notifications = notifications ?? []
        self.stories = stories
        self.localNotifications = localNotifications
    }

    /// Every locale's files in `files` (a compiled site), by locale folder (`SitePath.localeFolder`).
    public static func byLocale(_ files: [SiteFile]) -> [[String]: LocaleFiles] {
        var parts: [[String]: LocaleFiles] = [:]
        for file in files {
            guard let (folder, kind) = file.path.localeFile else { continue }
            var locale = parts[folder] ?? LocaleFiles(control: nil, notifications: nil, stories: [:])
            switch kind {
            case .control: locale.control = file.bytes
            case .notifications: locale.notifications = file.bytes
            case .story(let key): locale.stories[key] = file.bytes
            case .localNotifications: locale.localNotifications = file.bytes
            }
            parts[folder] = locale
        }
        return parts
    }

    /// The files of `locale` of `app` in `files` (a compiled site); empty ones when it has none.
    public init(compiled files: [SiteFile], tenant: Slug, app: Slug, locale: LocaleTag) {
        self = Self.byLocale(files)[SitePath.localeFolder(tenant: tenant, app: app, locale: locale)]
            ?? LocaleFiles(control: nil, notifications: nil, stories: [:])
    }

    /// The files parsed once, for many devices' previews.
    public func parsed() -> ParsedLocaleFiles {
        ParsedLocaleFiles(control: control, notifications: notifications, storyKeys: storyKeys, storyBlocks: stories, localNotifications: localNotifications)
    }

    /// What `device` sees from these files, and why not the rest.
    public func preview(app: AppSpec, locale: LocaleTag, at: Date, device: DeviceState) -> PreviewResult {
        DevicePreview.evaluate(
            control: control, notifications: notifications, storyKeys: storyKeys, storyBlocks: stories,
            localNotifications: localNotifications, app: app, locale: locale, at: at, device: device)
    }
}

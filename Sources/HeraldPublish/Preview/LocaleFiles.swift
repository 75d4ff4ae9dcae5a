import Foundation
import HeraldCore

/// The files the devices of one locale read to decide what to show — `control.json`,
/// `notifications.plist` and the stories — from a compiled site or a published folder.
/// `herald preview`, the board's device matrix and the demo all decide from these.
public struct LocaleFiles: Sendable, Equatable {
    /// Notable's file (`{}` when there is none: no banners).
    public var control: [UInt8]
    /// iNotify's file (empty when there is none).
    public var notifications: [UInt8]
    /// The campaign keys of the locale's stories, sorted.
    public var storyKeys: [String]

    public init(control: [UInt8]?, notifications: [UInt8]?, storyKeys: [String]) {
        self.control = control ?? Array("{}".utf8)
        self.notifications = notifications ?? []
        self.storyKeys = storyKeys.sorted()
    }

    /// Every locale's files in `files` (a compiled site), by locale folder (`SitePath.localeFolder`).
    public static func byLocale(_ files: [SiteFile]) -> [[String]: LocaleFiles] {
        var parts: [[String]: (control: [UInt8]?, notifications: [UInt8]?, stories: [String])] = [:]
        for file in files {
            guard let (folder, kind) = file.path.localeFile else { continue }
            switch kind {
            case .control: parts[folder, default: (nil, nil, [])].control = file.bytes
            case .notifications: parts[folder, default: (nil, nil, [])].notifications = file.bytes
            case .story(let key): parts[folder, default: (nil, nil, [])].stories.append(key)
            }
        }
        return parts.mapValues { LocaleFiles(control: $0.control, notifications: $0.notifications, storyKeys: $0.stories) }
    }

    /// The files of `locale` of `app` in `files` (a compiled site); empty ones when it has none.
    public init(compiled files: [SiteFile], tenant: Slug, app: Slug, locale: LocaleTag) {
        self = Self.byLocale(files)[SitePath.localeFolder(tenant: tenant, app: app, locale: locale)]
            ?? LocaleFiles(control: nil, notifications: nil, storyKeys: [])
    }

    /// What `device` sees from these files, and why not the rest.
    public func preview(app: AppSpec, locale: LocaleTag, at: Date, device: DeviceState) -> PreviewResult {
        DevicePreview.evaluate(
            control: control, notifications: notifications, storyKeys: storyKeys, app: app, locale: locale, at: at, device: device)
    }
}

import ArgumentParser
import Foundation
import HeraldCore
import HeraldPublish
import HeraldStore

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "What would this device see, and why not the rest.",
        discussion: """
            Reads the files as published (from --out DIR, or compiled in memory without it) and \
            decides as the clients' own code does (docs/clients.md): numeric-search versions \
            (2.10b1 is above 2.10), Notable's all/any, launch counter, display times and view \
            lookup; iNotify's first-launch, check-period and remind-period gates, seen keys, \
            inclusive Min/MaxVersion, case-insensitive newest-last order, and its ActionURL check \
            (when the device cannot open the next alert's URL, iNotify shows nothing at all). For \
            every campaign not shown it gives the first reason.

            Notable's launch counter counts the current launch (it is incremented before the \
            check), so --launches-since is at least 1 and defaults to 1. A notification id never \
            shown has no display time: Notable measures lastDisplayMinimumSeconds from 2001-01-01.

            Examples:
              herald preview --tenant acme --app weather --locale de --app-version 2.3.1 \\
                --os-version 17.4 --wifi --seen 2026/04/01
              herald preview --tenant acme --app weather --locale en --app-version 2.10b1 \\
                --os-version 17.4 --can-open https,weather --last-checked 2026-11-23T08:00:00Z
            """)

    @OptionGroup var tenantOption: TenantOption
    @OptionGroup var appOption: RequiredAppOption
    @Option(help: "The device's locale.") var locale: String
    @Option(name: .customLong("app-version"), help: "CFBundleShortVersionString (iNotify's Min/MaxVersion), as the app has it: 2.4.0, 2.10b1.")
    var appVersion: String
    @Option(help: "CFBundleVersion (Notable's appVersionLessThan); default: --app-version.") var build: String?
    @Option(name: .customLong("os-version"), help: "The OS version (iOSVersionLessThan).") var osVersion: String
    @Flag(inversion: .prefixedNo, help: "Whether the device is on Wi-Fi.") var wifi = true
    @Option(help: ArgumentHelp("A notification id already shown on this device (repeatable).", valueName: "id")) var displayed: [String] = []
    @Option(
        name: .customLong("launches-since"),
        help: ArgumentHelp(
            "Notable's launch counter for ID: launches since it was last shown (or first listed), counting the current launch, "
                + "so at least 1 (default 1) (repeatable).", valueName: "id=n"))
    var launchesSince: [String] = []
    @Option(
        name: .customLong("seconds-since"),
        help: ArgumentHelp(
            "Seconds since ID was last shown; marks it shown (repeatable). Never shown: Notable counts from 2001-01-01.", valueName: "id=n"))
    var secondsSince: [String] = []
    @Option(help: ArgumentHelp("A flag set for ID by its banner (repeatable).", valueName: "id=name")) var flag: [String] = []
    @Option(help: ArgumentHelp("An iNotify message key seen or ignored (repeatable).", valueName: "key")) var seen: [String] = []
    @Option(
        name: .customLong("can-open"),
        help: ArgumentHelp("URL schemes the device can open, comma-separated (iNotify's ActionURL check).", valueName: "schemes"))
    var canOpen = "http,https"
    @Flag(name: .customLong("first-launch"), help: "The app's first launch (iNotify shows nothing on it).") var firstLaunch = false
    @Option(name: .customLong("last-checked"), help: ArgumentHelp("When iNotify last checked (it waits 12 hours).", valueName: "time"))
    var lastChecked: String?
    @Option(help: ArgumentHelp("When \"Remind Me Later\" was last chosen (iNotify waits a day).", valueName: "time")) var reminded: String?
    @Option(help: ArgumentHelp("Preview at this time (ISO 8601).", valueName: "time")) var at: String?
    @Option(help: ArgumentHelp("Read the published files from this folder instead of compiling.", valueName: "dir")) var out: String?
    @Option(name: .customLong("base-url"), help: ArgumentHelp("As for publish, when compiling in memory.", valueName: "url")) var baseURL: String?
    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            let app = try appOption.slug()
            let locale = try LocaleTag(locale)
            let at = try at.map { try flagTime($0, flag: "--at") } ?? Date()
            var device = DeviceState(
                appVersion: try Version(appVersion).rawValue, build: try build.map { try Version($0).rawValue },
                osVersion: try Version(osVersion).rawValue, wifi: wifi)
            device.displayed = Set(displayed)
            device.seen = Set(seen)
            device.launchesSince = try counts(launchesSince, flag: "--launches-since", minimum: 1)
            device.secondsSince = try counts(secondsSince, flag: "--seconds-since", minimum: 0)
            device.canOpen = try Self.schemes(canOpen)
            device.firstLaunch = firstLaunch
            device.lastChecked = try lastChecked.map { try Timestamp.parse($0, field: "--last-checked") }
            device.lastReminded = try reminded.map { try Timestamp.parse($0, field: "--reminded") }
            for assignment in flag {
                let (id, name) = try pair(assignment, flag: "--flag")
                device.flags[id, default: []].insert(name)
            }

            let database = try Environment.openDatabase()
            let tenant = try tenantOption.slug(in: database)
            let appSpec = try database.inTenant(tenant, readOnly: true) { try $0.spec(app: app) }.apps.first
            guard let appSpec else { throw StoreError.notFound(what: "app", name: "\(tenant)/\(app)", listCommand: "herald app list") }
            guard appSpec.locales.contains(locale) else {
                throw ValidationError(
                    message: "app \(app) does not publish locale \(locale) (its locales: \(appSpec.locales.map(\.rawValue).joined(separator: ", ")))")
            }
            let files = try publishedFiles(database: database, tenant: tenant, app: app, locale: locale, at: at)
            let result = Self.evaluate(files, app: appSpec, locale: locale, at: at, device: device)
            try print(result)
        }
    }

    /// The locale's files, from DIR or compiled now: name relative to the locale folder → bytes.
    private func publishedFiles(database: HeraldDatabase, tenant: Slug, app: Slug, locale: LocaleTag, at: Date) throws -> [String: [UInt8]] {
        let prefix = "\(tenant)/\(app)/\(locale)/"
        if let out { return try Self.readPublished(out: out, prefix: prefix) }
        let snapshot = try database.asOperator(.repeatableRead, readOnly: true) { try SnapshotReader($0).read(tenant: tenant, app: app) }
        let site = SiteCompiler(siteBaseURL: try baseURL.map { try HTTPURL($0) }).compile(snapshot, at: at)
        var files: [String: [UInt8]] = [:]
        for file in site.files where file.path.description.hasPrefix(prefix) {
            files[String(file.path.description.dropFirst(prefix.count))] = file.bytes
        }
        return files
    }

    /// A locale's published files under `out`: name relative to the locale folder → bytes
    /// (story files by name only).
    static func readPublished(out: String, prefix: String) throws -> [String: [UInt8]] {
        let folder = URL(fileURLWithPath: out).appendingPathComponent(prefix)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw InputError(message: "nothing published for \(prefix) under \(out): run `herald publish --out \(out)` first")
        }
        var files: [String: [UInt8]] = [:]
        for name in ["control.json", "notifications.plist"] {
            files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { [UInt8]($0) }
        }
        // A story's block, to play as the player would; its push request by name only.
        let stories = folder.appendingPathComponent("stories")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stories.path)) ?? [] {
            let isBlock = name.hasSuffix(".json") && !name.hasSuffix(".push.json")
            files["stories/" + name] = isBlock ? FileManager.default.contents(atPath: stories.appendingPathComponent(name).path).map { [UInt8]($0) } ?? [] : []
        }
        return files
    }

    /// What the device sees, from its locale's files.
    static func evaluate(_ files: [String: [UInt8]], app: AppSpec, locale: LocaleTag, at: Date, device: DeviceState) -> PreviewResult {
        var blocks: [String: [UInt8]] = [:]
        for (name, bytes) in files where name.hasPrefix("stories/") && !name.hasSuffix(".push.json") {
            blocks[String(name.dropFirst("stories/".count).dropLast(".json".count))] = bytes
        }
        return DevicePreview.evaluate(
            control: files["control.json"] ?? Array("{}".utf8), notifications: files["notifications.plist"] ?? [],
            storyKeys: Array(blocks.keys), storyBlocks: blocks, app: app, locale: locale, at: at, device: device)
    }

    private func print(_ result: PreviewResult) throws {
        if output.json {
            struct JSON: Encodable {
                struct Reason: Encodable { let campaign, reason: String }
                let eligibleBanners: [String]
                let nextAlert: String?
                let alertBlocked: String?
                let stories: [String]
                let storyPlayback: [StoryPlaybackJSON]
                let notShown: [Reason]

                enum CodingKeys: String, CodingKey { case eligibleBanners, nextAlert, alertBlocked, stories, storyPlayback, notShown }

                /// `nextAlert` and `alertBlocked` are always present: a value or null.
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(eligibleBanners, forKey: .eligibleBanners)
                    try container.encode(nextAlert, forKey: .nextAlert)
                    try container.encode(alertBlocked, forKey: .alertBlocked)
                    try container.encode(stories, forKey: .stories)
                    try container.encode(storyPlayback, forKey: .storyPlayback)
                    try container.encode(notShown, forKey: .notShown)
                }
            }
            try printJSON(
                JSON(
                    eligibleBanners: result.eligibleBanners, nextAlert: result.nextAlert, alertBlocked: result.alertBlocked,
                    stories: result.stories, storyPlayback: result.storyPlays.map(StoryPlaybackJSON.init),
                    notShown: result.notShown.map { .init(campaign: $0.campaign, reason: $0.reason) }))
            return
        }
        Self.printText(result)
    }

    /// The preview for people.
    static func printText(_ result: PreviewResult) {
        herald.print("banners eligible  \(result.eligibleBanners.isEmpty ? "-" : result.eligibleBanners.joined(separator: ", "))")
        if result.eligibleBanners.count > 1 {
            herald.print("                  (Notable shows one of them per launch, in dictionary order)")
        }
        herald.print("next alert        \(result.nextAlert ?? "-")")
        if let blocked = result.alertBlocked {
            herald.print("                  (no alert on this launch: \(blocked))")
        }
        herald.print("stories           \(result.stories.isEmpty ? "-" : result.stories.joined(separator: ", "))")
        for story in result.storyPlays { herald.print(StoryPlaybackText.lines(story).map { "  " + $0 }.joined(separator: "\n")) }
        if !result.notShown.isEmpty {
            herald.print("not shown")
            var table = TextTable("  CAMPAIGN", "REASON")
            for item in result.notShown { table.append("  " + item.campaign, item.reason) }
            herald.print(table.render())
        }
    }

    private func pair(_ text: String, flag: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw ValidationError(message: "\(flag) takes ID=VALUE, not \(Excerpt.quoted(text))")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    private func counts(_ assignments: [String], flag: String, minimum: Int) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for assignment in assignments {
            let (id, text) = try pair(assignment, flag: flag)
            guard let value = Int(text), value >= 0 else { throw ValidationError(message: "\(flag) \(assignment): the count must be a whole number") }
            guard value >= minimum else {
                throw ValidationError(
                    message: "\(flag) \(assignment): Notable counts the current launch before it checks, so the count is at least \(minimum)")
            }
            result[id] = value
        }
        return result
    }

    /// `weather,https` → the lowercased schemes.
    static func schemes(_ list: String) throws -> Set<String> {
        var schemes: Set<String> = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let scheme = part.trimmingCharacters(in: .whitespaces).lowercased()
            let valid = scheme.first.map { $0.isASCII && $0.isLetter } == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
            guard valid else {
                throw ValidationError(message: "--can-open \(list): \"\(part)\" is not a URL scheme (such as https or weather)")
            }
            schemes.insert(scheme)
        }
        return schemes
    }
}

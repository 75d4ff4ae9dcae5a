import Foundation
import HeraldCore

/// One file of the published site.
public struct SiteFile: Equatable, Sendable {
    public let path: SitePath
    public let bytes: [UInt8]
    /// SHA-256 of `bytes`: the name the run history keeps them under. Computed once, where the
    /// file is made (compilers run on every core).
    public let digest: String

    public init(path: SitePath, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        digest = SHA256.hex(bytes)
    }

    init(path: SitePath, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}

/// What a publish would write, and what deserves a person's attention.
public struct CompiledSite: Sendable {
    public var files: [SiteFile] = []
    public var warnings: [String] = []
    /// Problems that make the site wrong on devices: nothing is written while there are any.
    public var errors: [String] = []
}

/// Snapshot → files. Pure: the same tenants and time give the same bytes.
public struct SiteCompiler: Sendable {
    /// The public URL of the output folder's root (`--base-url`); an app's own base URL wins.
    public var siteBaseURL: HTTPURL?

    public init(siteBaseURL: HTTPURL? = nil) {
        self.siteBaseURL = siteBaseURL
    }

    public func compile(_ tenants: [TenantSpec], at: Date) -> CompiledSite {
        var pairs: [(AppSpec, TenantSpec)] = []
        for tenant in tenants.sorted(by: { $0.slug < $1.slug }) {
            for app in tenant.apps.sorted(by: { $0.slug < $1.slug }) { pairs.append((app, tenant)) }
        }
        let work = pairs
        // Apps compile independently: spread them over the cores, each into its own slot, and
        // join the slots in app order, so the result is the same as compiling one by one.
        let slots = ConcurrentSlots<CompiledSite>(count: work.count)
        DispatchQueue.concurrentPerform(iterations: work.count) { index in
            var part = CompiledSite()
            compile(work[index].0, of: work[index].1, at: at, into: &part)
            part.files.sort { $0.path < $1.path }  // paths start tenant/app/: sorted per app is sorted overall
            slots[index] = part
        }
        var site = CompiledSite()
        for part in slots.values {
            site.files += part.files
            site.warnings += part.warnings
            site.errors += part.errors
        }
        return site
    }

    private func compile(_ app: AppSpec, of tenant: TenantSpec, at: Date, into site: inout CompiledSite) {
        let live = app.campaigns.filter { PublishSelection.isLive($0, at: at) }
        var published: Set<Slug> = []
        // Which banners each locale leaves out, worked out once: the files and the warnings both need it.
        var proofs = BannerProofs(live)
        var leftOutByLocale: [LocaleTag: [Slug: CampaignSpec]] = [:]
        // Once an app has a local campaign (in any status), each locale has the files, empty
        // when none is live: devices then cancel what was withdrawn rather than meet a 404.
        let localFiles = app.publishesLocalNotifications || app.campaigns.contains { $0.kind == .local }
        for locale in app.locales {
            // Sized up front: grown one campaign at a time, each dictionary was rehashed several times.
            var banners = [String: JSONValue](minimumCapacity: live.count)
            var alerts = [String: [String: String]](minimumCapacity: live.count)
            var locals: [LocalNotificationFile.Entry] = []
            let leftOut = PublishSelection.bannersLeftOut(live, for: locale, in: app, proofs: &proofs)
            leftOutByLocale[locale] = leftOut
            for campaign in live {
                guard let content = PublishSelection.content(of: campaign, for: locale, in: app) else { continue }
                switch content {
                case .banner(let banner):
                    guard leftOut[campaign.key] == nil else { continue }
                    published.insert(campaign.key)
                    banners[campaign.key.rawValue] = bannerEntry(
                        campaign, banner, locale: locale, app: app, tenant: tenant, site: &site)
                case .alert:
                    published.insert(campaign.key)
                    // The board draws the same resolved alert (PublishSelection.resolved).
                    if let key = campaign.messageKey, case .alert(let alert)? = PublishSelection.resolved(campaign, for: locale, in: app)?.content {
                        alerts[key.rawValue] = alertEntry(campaign, alert)
                    }
                case .story(let story):
                    published.insert(campaign.key)
                    let block = storyBlock(story)
                    site.files.append(
                        SiteFile(
                            path: .storyFile(tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key),
                            bytes: JSONValue.fields(storyPayload(block, push: campaign.push)).serializedBytes()))
                    site.files.append(
                        SiteFile(
                            path: .storyFile(tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key, push: true),
                            bytes: pushRequest(story, push: campaign.push, block: block).serializedBytes()))
                case .local(let words):
                    guard let notification = campaign.localNotification else { continue }
                    published.insert(campaign.key)
                    locals.append(LocalNotificationFile.Entry(key: campaign.key, notification: notification, words: words))
                }
            }
            // Every supported locale gets both files, even empty: a device never meets a 404.
            site.files.append(
                SiteFile(
                    path: .controlFile(tenant: tenant.slug, app: app.slug, locale: locale),
                    bytes: JSONValue.object(banners).serializedBytes()))
            site.files.append(
                SiteFile(
                    path: .notificationsFile(tenant: tenant.slug, app: app.slug, locale: locale),
                    bytes: PropertyList.dictionaryOfStringDictionaries(alerts)))
            if localFiles {
                locals.sort { $0.key < $1.key }
                site.files.append(
                    SiteFile(
                        path: .localNotificationsFile(tenant: tenant.slug, app: app.slug, locale: locale),
                        bytes: LocalNotificationFile.propertyList(locals)))
                site.files.append(
                    SiteFile(
                        path: .localNotificationsFile(tenant: tenant.slug, app: app.slug, locale: locale, json: true),
                        bytes: LocalNotificationFile.json(locals)))
            }
        }
        site.warnings += Lint.warnings(app: app, tenant: tenant, live: live, published: published, at: at, leftOut: leftOutByLocale)
        site.warnings += CopyLint.warnings(tenant: tenant.slug, app: app, campaigns: live)
    }

    // MARK: Notable

    private func bannerEntry(
        _ campaign: CampaignSpec, _ banner: BannerContent, locale: LocaleTag, app: AppSpec, tenant: TenantSpec,
        site: inout CompiledSite
    ) -> JSONValue {
        var views = [String: JSONValue](minimumCapacity: banner.views.count)
        for view in banner.views {
            var fields: [(String, JSONValue)] = []
            switch view.source {
            case .file(let url):
                fields.append(("file", .string(url.rawValue)))
            case .html(let html):
                let path = SitePath.viewFile(tenant: tenant.slug, app: app.slug, locale: locale, campaign: campaign.key, view: view.id)
                guard let url = publicURL(of: path, app: app, tenant: tenant) else {
                    site.errors.append(
                        "\(tenant.slug)/\(app.slug)/\(campaign.key): view \(view.id) is inline HTML, so it is published next to "
                            + "control.json and needs a public URL: set the app's base URL (`herald app update \(app.slug) --base-url URL`) "
                            + "or pass --base-url")
                    continue
                }
                fields.append(("file", .string(url)))
                site.files.append(SiteFile(path: path, text: html))
            }
            if let height = view.height { fields.append(("height", .number(height))) }
            if let origin = view.origin { fields.append(("origin", .string(origin.rawValue))) }
            views[view.id.rawValue] = .fields(fields)
        }
        // Both groups, even empty; a condition type appears once per group (ConditionSet).
        let groups = ConditionGroup.allCases.map { group in
            (group.rawValue, JSONValue.fields(campaign.conditions.conditions.filter { $0.group == group }.map { ($0.type.rawValue, Self.json($0.value)) }))
        }
        return .fields([("entry", .string(banner.entry.rawValue)), ("conditions", .fields(groups)), ("views", .object(views))])
    }

    /// Where a file of `path` is served: the app's base URL names its folder; `--base-url` names the site root.
    func publicURL(of path: SitePath, app: AppSpec, tenant: TenantSpec) -> String? {
        if let base = app.baseURL {
            return Self.join(base.rawValue, path.segments.dropFirst(2))
        }
        if let base = siteBaseURL {
            return Self.join(base.rawValue, path.segments[...])
        }
        return nil
    }

    private static func join(_ base: String, _ segments: ArraySlice<String>) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + segments.joined(separator: "/")
    }

    static func json(_ value: ConditionValue) -> JSONValue {
        switch value {
        case .bool(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .string(let text): .string(text)
        case .version(let version): .string(version.rawValue)
        }
    }

    // MARK: iNotify

    private func alertEntry(_ campaign: CampaignSpec, _ alert: AlertContent) -> [String: String] {
        var fields = ["Title": alert.title, "Message": alert.message]
        if let url = alert.actionURL {
            fields["ActionURL"] = url.rawValue
            if let button = alert.actionButton { fields["ActionButton"] = button }
        }
        if case .version(let min)? = campaign.conditions.value(group: .all, type: .minAppVersion) { fields["MinVersion"] = min.rawValue }
        if case .version(let max)? = campaign.conditions.value(group: .all, type: .maxAppVersion) { fields["MaxVersion"] = max.rawValue }
        return fields
    }

    // MARK: Pushwoosh

    private func storyBlock(_ story: StoryContent) -> JSONValue {
        .fields([
            (
                "pages",
                .array(
                    story.pages.map { page in
                        var fields: [(String, JSONValue)] = [("image", .string(page.image.rawValue))]
                        if let duration = page.duration { fields.append(("duration", .number(duration))) }
                        if let link = page.link { fields.append(("link", .string(link.rawValue))) }
                        if let text = page.buttonTitle { fields.append(("button_title", .string(text))) }
                        if let text = page.title { fields.append(("title", .string(text))) }
                        if let text = page.subtitle { fields.append(("subtitle", .string(text))) }
                        return .fields(fields)
                    })
            )
        ])
    }

    /// The story's payload: the `pw_stories` block, and with a sound or a number for the badge,
    /// `aps` (`sound`, `badge`) for a sender that sends it to APNs itself. A change of the badge
    /// (+1) is Pushwoosh's alone (it keeps each device's count): only the request body has it.
    private func storyPayload(_ block: JSONValue, push: PushOptions) -> [(String, JSONValue)] {
        var aps: [(String, JSONValue)] = []
        if case .set(let number)? = push.badge { aps.append(("badge", .integer(number))) }
        if let sound = push.sound { aps.append(("sound", .string(sound.rawValue))) }
        return aps.isEmpty ? [("pw_stories", block)] : [("aps", .fields(aps)), ("pw_stories", block)]
    }

    /// A notification object for Pushwoosh's createMessage. Never an application code or
    /// API token: those are the sender's secrets. Published stories have started, so "now".
    private func pushRequest(_ story: StoryContent, push: PushOptions, block: JSONValue) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("content", .string(story.pushText)),
            ("ios_category_custom", .string("PW_STORIES")),
            ("ios_root_params", .fields([("aps", .fields([("mutable-content", .integer(1))]))])),
            ("data", .fields([("pw_stories", block)])),
            ("send_date", .string("now")),
        ]
        if let title = story.pushTitle { fields.append(("ios_title", .string(title))) }
        if let sound = push.sound { fields.append(("ios_sound", .string(sound.rawValue))) }
        switch push.badge {
        case .set(let number)?: fields.append(("ios_badges", .integer(number)))
        case .change?: fields.append(("ios_badges", .string(push.badge?.description ?? "")))
        case nil: break
        }
        return .fields(fields)
    }
}

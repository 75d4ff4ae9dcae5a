import Foundation
import Yams

extension CampaignsDocument {
    /// Reads YAML (or JSON, which YAML includes) and reports every problem with its path.
    /// A file in the canonical form (`yaml()`, `herald export`) is read in one pass; any other
    /// goes through the general reader.
    public static func parse(_ text: String, fileName: String) -> Result<CampaignsDocument, ValidationErrors> {
        // The canonical form in plain ASCII (what export writes for most files) in one pass; a file
        // that may hold JSON, escapes or unusual characters goes through the general reader.
        if !ByteScan.mayNeedRewriting(text), let document = CanonicalCampaignsReader.read(text) { return .success(document) }
        return parseAnyForm(text, fileName: fileName)
    }

    /// The general reader: the text checked and composed (CampaignsFileSource), then the fields
    /// read and checked one by one.
    static func parseAnyForm(_ text: String, fileName: String) -> Result<CampaignsDocument, ValidationErrors> {
        let composed: CampaignsFileSource.Composed
        switch CampaignsFileSource.compose(text) {
        case .success(let value): composed = value
        case .failure(let problem): return .failure(ValidationErrors([ValidationError(path: fileName, message: problem.message)]))
        }
        guard let root = composed.root else {
            return .failure(ValidationErrors([ValidationError(path: fileName, message: "the file is empty; it needs `version: 1` and `tenants:`")]))
        }
        let log = ProblemLog(repeatedKeys: composed.repeatedKeys, byteOrderMarks: composed.byteOrderMarks)
        let document = CampaignsFileParser(log: log).document(NodeReader(node: root, path: "", log: log))
        if let document, log.problems.isEmpty { return .success(document) }
        return .failure(
            ValidationErrors(log.problems.map { ValidationError(path: $0.path.map { "\(fileName): \($0)" } ?? fileName, message: $0.message) }))
    }
}

/// Turns the node tree into specs, field by field, logging every problem.
struct CampaignsFileParser {
    let log: ProblemLog

    func document(_ root: NodeReader) -> CampaignsDocument? {
        guard let fields = root.fields(allowed: ["version", "tenants"], required: ["version", "tenants"], what: "the file") else {
            return nil
        }
        if let version = fields["version"]?.int, !CampaignsDocument.supportedVersions.contains(version) {
            log.add(
                "version", "unsupported version \(version); this herald reads version(s) "
                    + CampaignsDocument.supportedVersions.map(String.init).joined(separator: ", "), fields.values["version"])
        }
        let tenants = fields["tenants"]?.list()?.compactMap(tenant) ?? []
        reportDuplicates(tenants.map(\.slug.rawValue), path: "tenants", what: "tenant slug")
        return CampaignsDocument(version: CampaignsDocument.currentVersion, tenants: tenants)
    }

    func tenant(_ reader: NodeReader) -> TenantSpec? {
        guard let fields = reader.fields(allowed: ["slug", "name", "apps"], required: ["slug", "name"], what: "a tenant") else {
            return nil
        }
        let slug = fields["slug"]?.value(Slug.init)
        let name = fields["name"]?.value { text in try XMLText.checkRequired(text, field: "name"); return text }
        let apps = fields["apps"]?.list()?.compactMap(app) ?? []
        reportDuplicates(apps.map(\.slug.rawValue), path: "\(reader.path).apps", what: "app slug")
        guard let slug, let name else { return nil }
        return TenantSpec(slug: slug, name: name, apps: apps)
    }

    func app(_ reader: NodeReader) -> AppSpec? {
        guard
            let fields = reader.fields(
                allowed: ["slug", "name", "platform", "bundleId", "defaultLocale", "locales", "baseUrl", "campaigns"],
                required: ["slug", "name", "platform", "bundleId", "defaultLocale"], what: "an app")
        else { return nil }
        let slug = fields["slug"]?.value(Slug.init)
        let name = fields["name"]?.string
        let platform = fields["platform"]?.value { text in try parseEnum(text, "platform", as: Platform.self) }
        let bundleID = fields["bundleId"]?.string
        let defaultLocale = fields["defaultLocale"]?.value(LocaleTag.init)
        let locales = fields["locales"].map(localeList) ?? []
        let baseURL = fields["baseUrl"]?.value(HTTPURL.init)
        let campaigns = fields["campaigns"]?.list()?.compactMap(campaign) ?? []
        reportDuplicates(campaigns.map(\.key.rawValue), path: "\(reader.path).campaigns", what: "campaign key")
        guard let slug, let name, let platform, let bundleID, let defaultLocale, let locales else { return nil }
        let spec = AppSpec(
            slug: slug, name: name, platform: platform, bundleID: bundleID, defaultLocale: defaultLocale,
            locales: locales + [defaultLocale], baseURL: baseURL, campaigns: campaigns)
        for problem in spec.problems() { log.add(reader.path, problem, reader.node) }
        for campaign in spec.campaigns {
            for locale in campaign.content.keys.sorted() where !spec.locales.contains(locale) {
                log.add(
                    "\(reader.path).campaigns[key=\(campaign.key)].content.\(locale)",
                    "app \(slug) does not support locale \(locale); add it to the app's locales", nil)
            }
        }
        return spec
    }

    func campaign(_ reader: NodeReader) -> CampaignSpec? {
        guard
            let fields = reader.fields(
                allowed: [
                    "key", "kind", "name", "status", "startsAt", "endsAt", "priority", "locales", "conditions", "messageKey",
                ] + Self.pushFields + Self.notificationFields + ["content"],
                required: ["key", "kind", "name"], what: "a campaign")
        else { return nil }
        let key = fields["key"]?.value(Slug.init)
        let kind = fields["kind"]?.value { text in try parseEnum(text, "kind", as: CampaignKind.self) }
        let name = fields["name"]?.string
        let status = fields["status"]?.value { text in try parseEnum(text, "status", as: CampaignStatus.self) } ?? .draft
        let startsAt = fields["startsAt"]?.date
        let endsAt = fields["endsAt"]?.date
        let priority = fields["priority"]?.int ?? 0
        let locales = fields["locales"].map(localeList)
        let messageKey = fields["messageKey"]?.value(MessageKey.init)
        // Without a kind nothing below can be checked; a bad key or name does not stop the rest.
        guard let kind else { return nil }
        let conditions = fields["conditions"].map { conditionSet($0, kind: kind) } ?? ConditionSet()
        let push = pushOptions(fields, kind: kind)
        let localNotification = localNotification(fields, kind: kind)
        var content: [LocaleTag: CampaignContent] = [:]
        for (localeText, contentReader) in fields["content"]?.entries(what: "content by locale") ?? [] {
            guard let locale = contentReader.valueOfKey(localeText, LocaleTag.init) else { continue }
            if content[locale] != nil {
                log.add(contentReader.path, "locale \(locale) is given twice", contentReader.node)
            }
            if let value = self.content(contentReader, kind: kind) { content[locale] = value }
        }
        guard let key, let name else { return nil }
        let spec = CampaignSpec(
            key: key, kind: kind, name: name, status: status, startsAt: startsAt, endsAt: endsAt, priority: priority,
            locales: locales ?? nil, conditions: conditions, messageKey: messageKey, content: content,
            localNotification: localNotification, push: push)
        for problem in spec.problems() { log.add(reader.path, problem, reader.node) }
        return spec
    }

    static let pushFields = ["pushSound", "pushBadge"]
    static let notificationFields = ["fireAt", "repeat", "badge", "sound", "launchImage", "hasAction", "userInfo"]

    /// A story's `pushSound` and `pushBadge`.
    func pushOptions(_ fields: Fields, kind: CampaignKind) -> PushOptions {
        var push = PushOptions()
        guard kind == .story else {
            for name in Self.pushFields where fields.has(name) {
                log.add("\(fields.reader.path).\(name)", "\(name) is for story campaigns, not \(kind)", nil)
            }
            return push
        }
        push.sound = fields["pushSound"]?.value(SoundName.init)
        push.badge = fields["pushBadge"]?.value(PushBadge.init)
        return push
    }

    /// A local campaign's `fireAt`, `repeat`, `badge`, `sound`, `launchImage`, `hasAction` and
    /// `userInfo`; nil without a (valid) `fireAt`.
    func localNotification(_ fields: Fields, kind: CampaignKind) -> LocalNotification? {
        guard kind == .local else {
            for name in Self.notificationFields where fields.has(name) {
                log.add("\(fields.reader.path).\(name)", "\(name) is for local campaigns, not \(kind)", nil)
            }
            return nil
        }
        let fireDate = fields["fireAt"]?.value(FireDate.init)
        var notification = LocalNotification(fireDate: fireDate ?? .instant(.distantPast))
        notification.repeatInterval = fields["repeat"]?.value(RepeatInterval.init)
        if let reader = fields["badge"], let badge = reader.int {
            _ = reader.value { _ in try LocalNotification.checkBadge(badge) }
            notification.badge = badge
        }
        notification.sound = fields["sound"]?.value(SoundName.init)
        notification.launchImage = fields["launchImage"]?.value(BundleFileName.init)
        if let flag = fields["hasAction"]?.value({ text in try Self.bool(text, field: "hasAction") }) { notification.hasAction = flag }
        for (name, valueReader) in fields["userInfo"]?.entries(what: "userInfo pairs (name: value)") ?? [] {
            guard let value = valueReader.value({ text in try LocalNotification.checkUserInfo(name: name, value: text); return text }) else {
                continue
            }
            notification.userInfo[name] = value
        }
        return fireDate == nil ? nil : notification
    }

    static func bool(_ text: String, field: String) throws(ValidationError) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw ValidationError(message: "\(field) \(quote(text)) is not true or false")
        }
    }

    /// `all:`/`any:` maps of type → value.
    func conditionSet(_ reader: NodeReader, kind: CampaignKind) -> ConditionSet {
        var set = ConditionSet()
        for (groupName, groupReader) in reader.entries(what: "conditions (all, any)") ?? [] {
            guard let group = groupReader.valueOfKey(groupName, { text in try parseEnum(text, "condition group", as: ConditionGroup.self) })
            else { continue }
            for (typeName, valueReader) in groupReader.entries(what: "\(groupName) conditions") ?? [] {
                guard let condition = valueReader.value({ text in
                    try Condition.parse(group: group, assignment: "\(typeName)=\(text)", kind: kind)
                }) else { continue }
                set.set(condition)
            }
        }
        return set
    }

    func content(_ reader: NodeReader, kind: CampaignKind) -> CampaignContent? {
        switch kind {
        case .banner:
            guard let fields = reader.fields(allowed: ["entry", "views"], required: ["entry", "views"], what: "banner content"),
                let entry = fields["entry"]?.value(Slug.init)
            else { return nil }
            let views = fields["views"]?.list()?.compactMap(view) ?? []
            return .banner(BannerContent(entry: entry, views: views))
        case .alert:
            guard
                let fields = reader.fields(
                    allowed: ["title", "message", "actionUrl", "actionButton"], required: ["title", "message"], what: "alert content"),
                let title = fields["title"]?.string, let message = fields["message"]?.string
            else { return nil }
            return .alert(
                AlertContent(
                    title: title, message: message, actionURL: fields["actionUrl"]?.value(LinkURL.init),
                    actionButton: fields["actionButton"]?.string))
        case .story:
            guard
                let fields = reader.fields(
                    allowed: ["pushTitle", "pushText", "pages"], required: ["pushText", "pages"], what: "story content"),
                let pushText = fields["pushText"]?.string
            else { return nil }
            let pages = fields["pages"]?.list()?.compactMap(page) ?? []
            return .story(StoryContent(pushTitle: fields["pushTitle"]?.string, pushText: pushText, pages: pages))
        case .local:
            guard
                let fields = reader.fields(allowed: ["body", "action"], required: ["body"], what: "local notification content"),
                let body = fields["body"]?.string
            else { return nil }
            return .local(LocalContent(body: body, action: fields["action"]?.string))
        }
    }

    func view(_ reader: NodeReader) -> BannerView? {
        guard
            let fields = reader.fields(
                allowed: ["id", "file", "html", "height", "origin"], required: ["id"], what: "a banner view"),
            let id = fields["id"]?.value(Slug.init)
        else { return nil }
        let source: BannerView.Source
        switch (fields["file"], fields["html"]) {
        case (let file?, nil):
            guard let url = file.value(HTTPURL.init) else { return nil }
            source = .file(url)
        case (nil, let html?):
            guard let text = html.string else { return nil }
            source = .html(text)
        default:
            log.add(reader.path, "a view needs exactly one of file or html", reader.node)
            return nil
        }
        return BannerView(
            id: id, source: source, height: fields["height"]?.double,
            origin: fields["origin"]?.value { text in try parseEnum(text, "origin", as: ViewOrigin.self) })
    }

    func page(_ reader: NodeReader) -> StoryPage? {
        guard
            let fields = reader.fields(
                allowed: ["image", "duration", "link", "buttonTitle", "title", "subtitle"], required: ["image"], what: "a story page"),
            let image = fields["image"]?.value(HTTPURL.init)
        else { return nil }
        return StoryPage(
            image: image, duration: fields["duration"]?.double, link: fields["link"]?.value(LinkURL.init),
            buttonTitle: fields["buttonTitle"]?.string, title: fields["title"]?.string, subtitle: fields["subtitle"]?.string)
    }

    /// `[en, de]` or a block list of locale tags; nil (logged) when any is bad.
    func localeList(_ reader: NodeReader) -> [LocaleTag]? {
        guard let items = reader.list() else { return nil }
        let tags = items.map { $0.value(LocaleTag.init) }
        var seen: Set<LocaleTag> = []
        for (item, tag) in zip(items, tags) {
            if let tag, !seen.insert(tag).inserted { log.add(item.path, "locale \(tag) is given twice", item.node) }
        }
        return tags.contains { $0 == nil } ? nil : tags.compactMap { $0 }
    }

    func reportDuplicates(_ values: [String], path: String, what: String) {
        var seen: Set<String> = []
        for value in values where !seen.insert(value).inserted {
            log.add(path, "\(what) \(value) appears twice", nil)
        }
    }
}

extension NodeReader {
    /// Validates a mapping key (a locale, a group) at this reader's path.
    func valueOfKey<T>(_ key: String, _ make: (String) throws -> T) -> T? {
        do {
            return try make(key)
        } catch let error as ValidationError {
            log.add(path, error.message, node)
        } catch {
            log.add(path, "\(error)", node)
        }
        return nil
    }
}

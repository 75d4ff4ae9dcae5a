import Foundation

/// Reads a campaigns file written exactly as `yaml()` writes it — what `herald export` gives
/// and what teams keep in git — in one pass over its lines, without a YAML node tree (the
/// general reader spends most of a large apply composing one). Every value goes through the
/// same initializers and checks as in `CampaignsFileParser`, so a file read here is the very
/// document the general reader makes of it. Anything it is not sure of — another layout, key
/// order, indentation, comments, flow mappings, a scalar YAML could read otherwise, a
/// character outside plain printable text, a value any rule refuses — gives nil, and the
/// general reader reads the file (and reports its problems with their paths).
enum CanonicalCampaignsReader {
    static func read(_ text: String) -> CampaignsDocument? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.last == UInt8(ascii: "\n"), onlyPlainText(bytes) else { return nil }
            var reader = Lines(bytes: bytes)
            return reader.document()
        }
    }

    /// Line feeds and the printable characters YAML takes as they are everywhere: no tab, CR,
    /// C0 or C1 control, DEL, byte order mark, line or paragraph separator, non-character.
    static func onlyPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte == 0x0A || (0x20...0x7E).contains(byte) else { return false }
                index += 1
                continue
            }
            // Valid UTF-8 (it came from a String): the lead byte says the length.
            var scalar: UInt32
            let length: Int
            if byte >= 0xF0 {
                scalar = UInt32(byte & 0x07)
                length = 4
            } else if byte >= 0xE0 {
                scalar = UInt32(byte & 0x0F)
                length = 3
            } else {
                scalar = UInt32(byte & 0x1F)
                length = 2
            }
            guard index + length <= bytes.count else { return false }
            for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
            switch scalar {
            case 0xA0...0xD7FF where scalar != 0x2028 && scalar != 0x2029, 0xE000...0xFFFD where scalar != 0xFEFF,
                0x10000...0x10FFFF:
                break
            default:
                return false
            }
            index += length
        }
        return true
    }
}

/// The file's lines, read front to back: each reading call takes the current line when it
/// has the expected indentation and key, and leaves it otherwise.
private struct Lines {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The start of the current line.
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: The document, as yaml() writes it

    mutating func document() -> CampaignsDocument? {
        guard let version = value(0, "version: ").flatMap(int), CampaignsDocument.supportedVersions.contains(version),
            header(0, "tenants:")
        else { return nil }
        var tenants: [TenantSpec] = []
        var slugs: Set<Slug> = []
        while let slug = value(0, "- slug: ") {
            guard let tenant = tenant(slug), slugs.insert(tenant.slug).inserted else { return nil }
            tenants.append(tenant)
        }
        guard !tenants.isEmpty, position == bytes.count else { return nil }
        return CampaignsDocument(version: CampaignsDocument.currentVersion, tenants: tenants)
    }

    mutating func tenant(_ slugText: Range<Int>) -> TenantSpec? {
        guard let slug = make(slugText, Slug.init), let name = value(2, "name: ").flatMap(string) else { return nil }
        do { try XMLText.checkRequired(name, field: "name") } catch { return nil }
        var apps: [AppSpec] = []
        if header(2, "apps:") {
            var slugs: Set<Slug> = []
            while let slug = value(2, "- slug: ") {
                guard let app = app(slug), slugs.insert(app.slug).inserted else { return nil }
                apps.append(app)
            }
            guard !apps.isEmpty else { return nil }
        }
        return TenantSpec(slug: slug, name: name, apps: apps)
    }

    mutating func app(_ slugText: Range<Int>) -> AppSpec? {
        guard let slug = make(slugText, Slug.init),
            let name = value(4, "name: ").flatMap(string),
            let platform = value(4, "platform: ").flatMap({ make($0) { try parseEnum($0, "platform", as: Platform.self) } }),
            let bundleID = value(4, "bundleId: ").flatMap(string),
            let defaultLocale = value(4, "defaultLocale: ").flatMap({ make($0, LocaleTag.init) })
        else { return nil }
        var locales: [LocaleTag] = []
        if let list = value(4, "locales: ") {
            guard let tags = localeList(list) else { return nil }
            locales = tags
        }
        var baseURL: HTTPURL?
        if let text = value(4, "baseUrl: ") {
            guard let url = make(text, HTTPURL.init) else { return nil }
            baseURL = url
        }
        var campaigns: [CampaignSpec] = []
        if header(4, "campaigns:") {
            var keys: Set<Slug> = []
            while let key = value(4, "- key: ") {
                guard let campaign = campaign(key), keys.insert(campaign.key).inserted else { return nil }
                campaigns.append(campaign)
            }
            guard !campaigns.isEmpty else { return nil }
        }
        let spec = AppSpec(
            slug: slug, name: name, platform: platform, bundleID: bundleID, defaultLocale: defaultLocale,
            locales: locales + [defaultLocale], baseURL: baseURL, campaigns: campaigns)
        guard spec.problems().isEmpty,
            spec.campaigns.allSatisfy({ $0.content.keys.allSatisfy(spec.locales.contains) })
        else { return nil }
        return spec
    }

    mutating func campaign(_ keyText: Range<Int>) -> CampaignSpec? {
        guard let key = make(keyText, Slug.init),
            let kind = value(6, "kind: ").flatMap({ make($0) { try parseEnum($0, "kind", as: CampaignKind.self) } }),
            let name = value(6, "name: ").flatMap(string)
        else { return nil }
        var status = CampaignStatus.draft
        if let text = value(6, "status: ") {
            guard let parsed = make(text, { try parseEnum($0, "status", as: CampaignStatus.self) }) else { return nil }
            status = parsed
        }
        var startsAt: Date?
        if let text = value(6, "startsAt: ") {
            guard let date = make(text, { try Timestamp.parse($0, field: "time") }) else { return nil }
            startsAt = date
        }
        var endsAt: Date?
        if let text = value(6, "endsAt: ") {
            guard let date = make(text, { try Timestamp.parse($0, field: "time") }) else { return nil }
            endsAt = date
        }
        var priority = 0
        if let text = value(6, "priority: ") {
            guard let number = int(text) else { return nil }
            priority = number
        }
        var locales: [LocaleTag]?
        if let list = value(6, "locales: ") {
            guard let tags = localeList(list) else { return nil }
            locales = tags
        }
        var messageKey: MessageKey?
        if let text = value(6, "messageKey: ") {
            guard let parsed = make(text, MessageKey.init) else { return nil }
            messageKey = parsed
        }
        var push = PushOptions()
        if let text = value(6, "pushSound: ") {
            guard let sound = make(text, SoundName.init) else { return nil }
            push.sound = sound
        }
        if let text = value(6, "pushBadge: ") {
            guard let badge = make(text, PushBadge.init) else { return nil }
            push.badge = badge
        }
        var localNotification: LocalNotification?
        if let text = value(6, "fireAt: ") {
            guard let fireDate = make(text, FireDate.init), let notification = notification(fireDate) else { return nil }
            localNotification = notification
        }
        var conditions = ConditionSet()
        if header(6, "conditions:") {
            guard let set = conditionSet(kind: kind) else { return nil }
            conditions = set
        }
        var content: [LocaleTag: CampaignContent] = [:]
        if header(6, "content:") {
            while let localeText = keyOnly(8) {
                guard let locale = try? LocaleTag(localeText), content[locale] == nil, let value = self.content(kind: kind) else {
                    return nil
                }
                content[locale] = value
            }
            guard !content.isEmpty else { return nil }
        }
        let spec = CampaignSpec(
            key: key, kind: kind, name: name, status: status, startsAt: startsAt, endsAt: endsAt, priority: priority,
            locales: locales, conditions: conditions, messageKey: messageKey, content: content,
            localNotification: localNotification, push: push)
        guard spec.problems().isEmpty else { return nil }
        return spec
    }

    /// The lines after `fireAt:` of a local campaign, in the writer's order.
    mutating func notification(_ fireDate: FireDate) -> LocalNotification? {
        var notification = LocalNotification(fireDate: fireDate)
        if let text = value(6, "repeat: ") {
            guard let interval = make(text, RepeatInterval.init) else { return nil }
            notification.repeatInterval = interval
        }
        if let text = value(6, "badge: ") {
            guard let badge = int(text), (try? LocalNotification.checkBadge(badge)) != nil else { return nil }
            notification.badge = badge
        }
        if let text = value(6, "sound: ") {
            guard let sound = make(text, SoundName.init) else { return nil }
            notification.sound = sound
        }
        if let text = value(6, "launchImage: ") {
            guard let image = make(text, BundleFileName.init) else { return nil }
            notification.launchImage = image
        }
        if header(6, "hasAction: false") { notification.hasAction = false }
        if header(6, "userInfo:") {
            while let (name, valueText) = keyAndValue(8, userInfoNames: true) {
                guard let text = string(valueText), notification.userInfo[name] == nil,
                    (try? LocalNotification.checkUserInfo(name: name, value: text)) != nil
                else { return nil }
                notification.userInfo[name] = text
            }
            guard !notification.userInfo.isEmpty else { return nil }
        }
        return notification
    }

    /// `all:` then `any:`, each with one `type: value` line per condition.
    mutating func conditionSet(kind: CampaignKind) -> ConditionSet? {
        var set = ConditionSet()
        var groups = 0
        for group in ConditionGroup.allCases where header(8, group == .all ? "all:" : "any:") {
            groups += 1
            var count = 0
            while let (type, valueText) = keyAndValue(10) {
                guard let text = string(valueText),
                    let condition = try? Condition.parse(group: group, assignment: "\(type)=\(text)", kind: kind),
                    set.value(group: group, type: condition.type) == nil
                else { return nil }
                set.set(condition)
                count += 1
            }
            guard count > 0 else { return nil }
        }
        return groups > 0 ? set : nil
    }

    mutating func content(kind: CampaignKind) -> CampaignContent? {
        switch kind {
        case .banner:
            guard let entry = value(10, "entry: ").flatMap({ make($0, Slug.init) }), header(10, "views:") else { return nil }
            var views: [BannerView] = []
            while let id = value(10, "- id: ") {
                guard let view = view(id) else { return nil }
                views.append(view)
            }
            return views.isEmpty ? nil : .banner(BannerContent(entry: entry, views: views))
        case .alert:
            guard let title = value(10, "title: ").flatMap(string), let message = value(10, "message: ").flatMap(string) else {
                return nil
            }
            var actionURL: LinkURL?
            if let text = value(10, "actionUrl: ") {
                guard let url = make(text, LinkURL.init) else { return nil }
                actionURL = url
            }
            var actionButton: String?
            if let text = value(10, "actionButton: ") {
                guard let button = string(text) else { return nil }
                actionButton = button
            }
            return .alert(AlertContent(title: title, message: message, actionURL: actionURL, actionButton: actionButton))
        case .story:
            var pushTitle: String?
            if let text = value(10, "pushTitle: ") {
                guard let title = string(text) else { return nil }
                pushTitle = title
            }
            guard let pushText = value(10, "pushText: ").flatMap(string), header(10, "pages:") else { return nil }
            var pages: [StoryPage] = []
            while let image = value(10, "- image: ") {
                guard let page = page(image) else { return nil }
                pages.append(page)
            }
            return pages.isEmpty ? nil : .story(StoryContent(pushTitle: pushTitle, pushText: pushText, pages: pages))
        case .local:
            guard let body = value(10, "body: ").flatMap(string) else { return nil }
            var action: String?
            if let text = value(10, "action: ") {
                guard let label = string(text) else { return nil }
                action = label
            }
            return .local(LocalContent(body: body, action: action))
        }
    }

    mutating func view(_ idText: Range<Int>) -> BannerView? {
        guard let id = make(idText, Slug.init) else { return nil }
        let source: BannerView.Source
        if let text = value(12, "file: ") {
            guard let url = make(text, HTTPURL.init) else { return nil }
            source = .file(url)
        } else if let text = value(12, "html: ") {
            guard let html = string(text) else { return nil }
            source = .html(html)
        } else {
            return nil
        }
        var height: Double?
        if let text = value(12, "height: ") {
            guard let number = double(text) else { return nil }
            height = number
        }
        var origin: ViewOrigin?
        if let text = value(12, "origin: ") {
            guard let parsed = make(text, { try parseEnum($0, "origin", as: ViewOrigin.self) }) else { return nil }
            origin = parsed
        }
        return BannerView(id: id, source: source, height: height, origin: origin)
    }

    mutating func page(_ imageText: Range<Int>) -> StoryPage? {
        guard let image = make(imageText, HTTPURL.init) else { return nil }
        var page = StoryPage(image: image)
        if let text = value(12, "duration: ") {
            guard let number = double(text) else { return nil }
            page.duration = number
        }
        if let text = value(12, "link: ") {
            guard let link = make(text, LinkURL.init) else { return nil }
            page.link = link
        }
        for (prefix, field) in [("buttonTitle: ", \StoryPage.buttonTitle), ("title: ", \.title), ("subtitle: ", \.subtitle)] {
            if let text = value(12, prefix) {
                guard let string = string(text) else { return nil }
                page[keyPath: field] = string
            }
        }
        return page
    }

    // MARK: Lines

    /// The end of the current line (its line feed).
    private func lineEnd() -> Int {
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return end
    }

    /// Whether the current line starts with `indent` spaces then `text`.
    private func startsWith(_ indent: Int, _ text: String) -> Bool {
        var index = position
        for _ in 0..<indent {
            guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return false }
            index += 1
        }
        for byte in text.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// `indent` spaces, `prefix` (`key: ` or `- key: `) and a value: the value's bytes.
    mutating func value(_ indent: Int, _ prefix: String) -> Range<Int>? {
        guard startsWith(indent, prefix) else { return nil }
        let start = position + indent + prefix.utf8.count
        let end = lineEnd()
        guard start < end else { return nil }
        position = end + 1
        return start..<end
    }

    /// A line that is `indent` spaces and `text`, nothing after.
    mutating func header(_ indent: Int, _ text: String) -> Bool {
        guard startsWith(indent, text), lineEnd() == position + indent + text.utf8.count else { return false }
        position = lineEnd() + 1
        return true
    }

    /// `indent` spaces and `name:` (letters, digits and dashes), nothing after: the name.
    mutating func keyOnly(_ indent: Int) -> String? {
        guard let (name, end) = name(after: indent), end < bytes.count, bytes[end] == UInt8(ascii: ":"),
            end + 1 == lineEnd()
        else { return nil }
        position = end + 2
        return name
    }

    /// `indent` spaces, `name: ` and a value.
    /// `userInfoNames`: a userInfo pair's name, which may also hold `_` and `.`.
    mutating func keyAndValue(_ indent: Int, userInfoNames: Bool = false) -> (String, Range<Int>)? {
        let lineEnd = lineEnd()
        guard let (name, end) = name(after: indent, userInfoNames: userInfoNames), end + 2 < lineEnd, bytes[end] == UInt8(ascii: ":"),
            bytes[end + 1] == UInt8(ascii: " ")
        else { return nil }
        position = lineEnd + 1
        return (name, (end + 2)..<lineEnd)
    }

    private func name(after indent: Int, userInfoNames: Bool = false) -> (String, Int)? {
        guard startsWith(indent, "") else { return nil }
        let start = position + indent
        var end = start
        while end < bytes.count,
            Self.isNameByte(bytes[end]) || (userInfoNames && (bytes[end] == UInt8(ascii: "_") || bytes[end] == UInt8(ascii: ".")))
        {
            end += 1
        }
        guard end > start else { return nil }
        return (text(start..<end), end)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    // MARK: Scalars

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The string YAML reads from a value: a double-quoted one with JSON's escapes (as
    /// JSONText.quoted writes them), or a plain one that reads as exactly its text; nil for
    /// anything else.
    func string(_ range: Range<Int>) -> String? {
        guard let first = range.first else { return nil }
        if bytes[first] == UInt8(ascii: "\"") { return quoted(range) }
        guard let last = range.last else { return nil }
        // Not an indicator first (a '-' is one only before a space), no ': ' or ' #' inside, no
        // ':' or space last; the characters were checked for the whole file.
        let firstByte = bytes[first]
        if firstByte == UInt8(ascii: "-") {
            guard range.count > 1, bytes[first + 1] != UInt8(ascii: " ") else { return nil }
        } else if Self.indicators.contains(firstByte) {
            return nil
        }
        guard bytes[last] != UInt8(ascii: " "), bytes[last] != UInt8(ascii: ":") else { return nil }
        var index = first
        while index < last {
            let pair = (bytes[index], bytes[index + 1])
            if pair == (UInt8(ascii: ":"), UInt8(ascii: " ")) || pair == (UInt8(ascii: " "), UInt8(ascii: "#")) { return nil }
            index += 1
        }
        return text(range)
    }

    private static let indicators = Set("?:,[]{}#&*!|>'\"%@` ".utf8)

    /// A double-quoted value ending the line, with only the escapes JSON and YAML read alike.
    private func quoted(_ range: Range<Int>) -> String? {
        guard range.count >= 2, let last = range.last, bytes[last] == UInt8(ascii: "\"") else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = range.lowerBound + 1
        while index < last {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return nil }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < last else { return nil }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard index + 5 < last, let code = UInt32(text((index + 2)..<(index + 6)), radix: 16),
                    !(0xD800...0xDFFF).contains(code), let scalar = Unicode.Scalar(code)
                else { return nil }
                out += Array(String(Character(scalar)).utf8)
                index += 4
            default:
                return nil
            }
            index += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `[a, b]`: locale tags, or nil.
    func localeList(_ range: Range<Int>) -> [LocaleTag]? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "["), bytes[range.upperBound - 1] == UInt8(ascii: "]")
        else { return nil }
        let inside = text((range.lowerBound + 1)..<(range.upperBound - 1))
        guard !inside.isEmpty else { return [] }
        var tags: [LocaleTag] = []
        for item in inside.split(separator: ", ", omittingEmptySubsequences: false) {
            guard !item.isEmpty, item.utf8.allSatisfy(Self.isNameByte), let tag = try? LocaleTag(String(item)) else { return nil }
            tags.append(tag)
        }
        return tags
    }

    func int(_ range: Range<Int>) -> Int? {
        string(range).flatMap { Int($0) }
    }

    func double(_ range: Range<Int>) -> Double? {
        string(range).flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A value through one of the validating initializers; nil when it refuses it.
    func make<T>(_ range: Range<Int>, _ initializer: (String) throws -> T) -> T? {
        guard let text = string(range) else { return nil }
        return try? initializer(text)
    }
}

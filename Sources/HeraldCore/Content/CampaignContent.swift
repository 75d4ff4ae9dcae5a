/// One Notable view: a page the banner shows, by URL or as inline HTML that the publisher
/// hosts next to control.json.
public struct BannerView: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        case file(HTTPURL)
        case html(String)
    }

    public var id: Slug
    public var source: Source
    /// Points; absent means full screen height on the device.
    public var height: Double?
    /// Absent (or anything but top) means bottom on the device.
    public var origin: ViewOrigin?

    public init(id: Slug, source: Source, height: Double? = nil, origin: ViewOrigin? = nil) {
        self.id = id
        self.source = source
        self.height = height
        self.origin = origin
    }

    func problems() -> [ValidationError] {
        var problems: [ValidationError] = []
        if let height, !(height > 0 && height < 100_000) {
            problems.append(ValidationError(message: "view \(id) height \(height) must be a positive number of points"))
        }
        if case .html(let html) = source {
            if html.isEmpty {
                problems.append(ValidationError(message: "view \(id) has empty HTML"))
            } else if let nul = html.unicodeScalars.firstIndex(of: "\u{0}") {
                let position = html.unicodeScalars.distance(from: html.unicodeScalars.startIndex, to: nul) + 1
                problems.append(
                    ValidationError(
                        message: "view \(id) HTML contains a NUL character (U+0000) at character \(position), "
                            + "which the database cannot store (it would be cut there): remove it"))
            }
        }
        return problems
    }
}

/// A banner in one locale: the views and the one shown first.
public struct BannerContent: Hashable, Sendable {
    public var entry: Slug
    public var views: [BannerView]

    public init(entry: Slug, views: [BannerView]) {
        self.entry = entry
        self.views = views
    }

    func problems() -> [ValidationError] {
        var problems = views.flatMap { $0.problems() }
        if views.isEmpty {
            problems.append(ValidationError(message: "a banner needs at least one view"))
        }
        var seen: Set<Slug> = []
        for view in views where !seen.insert(view.id).inserted {
            problems.append(ValidationError(message: "view id \(view.id) is used twice; view ids must be unique"))
        }
        if !views.isEmpty, !views.contains(where: { $0.id == entry }) {
            problems.append(
                ValidationError(
                    message: "entry \(quote(entry.rawValue)) names no view (views: \(views.map(\.id.rawValue).joined(separator: ", "))); "
                        + "the client would silently never show this banner"))
        }
        return problems
    }
}

/// An iNotify alert in one locale.
public struct AlertContent: Hashable, Sendable {
    public var title: String
    public var message: String
    public var actionURL: LinkURL?
    /// Label of the action button; used only with `actionURL` (the client's default is "More Info").
    public var actionButton: String?

    public init(title: String, message: String, actionURL: LinkURL? = nil, actionButton: String? = nil) {
        self.title = title
        self.message = message
        self.actionURL = actionURL
        self.actionButton = actionButton
    }

    func problems() -> [ValidationError] {
        var problems = collect {
            try XMLText.checkRequired(title, field: "title")
            try XMLText.checkRequired(message, field: "message")
        }
        if let actionButton {
            // Whether an action URL reaches the button (its own, or a fallback locale's) is
            // the campaign's rule: `CampaignSpec.problems(defaultLocale:)`.
            problems += collect { try XMLText.checkRequired(actionButton, field: "action button") }
        }
        return problems
    }
}

/// The alert a device of one locale gets, field by field, and where each field came from.
///
/// Title and message come from the first locale of the fallback chain (`pt-BR → pt →` the
/// app's default) that has content. A URL is not a language: a translation without its own
/// ActionURL takes the first one along the rest of the chain, so German users of an alert whose
/// English content opens `weather://tour` get the same action. The ActionButton label falls
/// back the same way (iNotify shows "More Info" when there is none).
public struct ResolvedAlert: Equatable, Sendable {
    public var alert: AlertContent
    /// The locale whose title and message these are.
    public var contentLocale: LocaleTag
    public var actionURLLocale: LocaleTag?
    public var actionButtonLocale: LocaleTag?

    /// nil when no locale of the chain has alert content.
    public static func resolve(_ content: [LocaleTag: CampaignContent], for locale: LocaleTag, defaultLocale: LocaleTag) -> ResolvedAlert? {
        let chain = locale.fallbackChain(defaultLocale: defaultLocale)
        // Each locale's alert looked up once (publish resolves every alert in every locale).
        let alerts = chain.map { tag -> AlertContent? in
            if case .alert(let alert)? = content[tag] { return alert }
            return nil
        }
        guard let start = alerts.firstIndex(where: { $0 != nil }), let own = alerts[start] else { return nil }
        let urlIndex = alerts[start...].firstIndex { $0?.actionURL != nil }
        let buttonIndex = alerts[start...].firstIndex { $0?.actionButton != nil }
        var resolved = own
        resolved.actionURL = urlIndex.flatMap { alerts[$0]?.actionURL }
        resolved.actionButton = resolved.actionURL == nil ? nil : buttonIndex.flatMap { alerts[$0]?.actionButton }
        return ResolvedAlert(
            alert: resolved, contentLocale: chain[start], actionURLLocale: resolved.actionURL == nil ? nil : urlIndex.map { chain[$0] },
            actionButtonLocale: resolved.actionButton == nil ? nil : buttonIndex.map { chain[$0] })
    }
}

/// One full-screen page of a Pushwoosh story.
public struct StoryPage: Hashable, Sendable {
    public var image: HTTPURL
    /// Seconds before auto-advance; absent means the client's default (about 5).
    public var duration: Double?
    public var link: LinkURL?
    public var buttonTitle: String?
    public var title: String?
    public var subtitle: String?

    public init(
        image: HTTPURL, duration: Double? = nil, link: LinkURL? = nil, buttonTitle: String? = nil, title: String? = nil,
        subtitle: String? = nil
    ) {
        self.image = image
        self.duration = duration
        self.link = link
        self.buttonTitle = buttonTitle
        self.title = title
        self.subtitle = subtitle
    }

    /// The rules every stored page keeps (the schema's), and unless `playerRules` is false,
    /// the player's: a page it would play otherwise than it says is refused at input.
    public func problems(playerRules: Bool = true) -> [ValidationError] {
        var problems: [ValidationError] = []
        if playerRules {
            problems += playerChanges().map { ValidationError(message: $0.message) }
        } else if let duration, !(duration > 0 && duration < 100_000) {
            problems.append(ValidationError(message: "page duration \(duration) must be a positive number of seconds"))
        }
        for (text, field) in [(buttonTitle, "button title"), (title, "page title"), (subtitle, "page subtitle")] {
            if let text { problems += collect { try XMLText.checkRequired(text, field: field) } }
        }
        return problems
    }

    /// Where Pushwoosh's player would play this page otherwise than it says (empty: as written).
    public func playerChanges() -> [StoryPlayerChange] {
        switch played {
        case .page(let page): page.changes
        case .dropped(let change): [change]
        }
    }

    /// The page as Pushwoosh's player shows it (or drops it).
    public var played: StoryPlayer.Outcome {
        StoryPlayer.play(
            image: image.rawValue, duration: duration, link: link?.rawValue, buttonTitle: buttonTitle, title: title, subtitle: subtitle)
    }
}

/// A story in one locale: the push's own text (also the fallback body) and its pages.
public struct StoryContent: Hashable, Sendable {
    public var pushTitle: String?
    public var pushText: String
    public var pages: [StoryPage]

    public init(pushTitle: String? = nil, pushText: String, pages: [StoryPage]) {
        self.pushTitle = pushTitle
        self.pushText = pushText
        self.pages = pages
    }

    /// `stored`: pages the database holds for this locale already, which are held only to the
    /// schema's rules (a page stored before the player's rules were known keeps its campaign
    /// editable; publish warns about it, and `activate` refuses it).
    func problems(stored: [StoryPage] = []) -> [ValidationError] {
        var problems = collect { try XMLText.checkRequired(pushText, field: "push text") }
        if let pushTitle { problems += collect { try XMLText.checkRequired(pushTitle, field: "push title") } }
        if pages.isEmpty { problems.append(ValidationError(message: "a story needs at least one page")) }
        for (index, page) in pages.enumerated() {
            problems += page.problems(playerRules: !stored.contains(page)).map { ValidationError(message: "page \(index + 1): \($0.message)") }
        }
        return problems
    }
}

public enum CampaignContent: Hashable, Sendable {
    case banner(BannerContent)
    case alert(AlertContent)
    case story(StoryContent)
    case local(LocalContent)

    public var kind: CampaignKind {
        switch self {
        case .banner: .banner
        case .alert: .alert
        case .story: .story
        case .local: .local
        }
    }

    public func problems() -> [ValidationError] {
        problems(stored: nil)
    }

    /// `stored`: this locale's content as the database holds it (see `StoryContent.problems(stored:)`).
    func problems(stored: CampaignContent?) -> [ValidationError] {
        switch self {
        case .banner(let content): return content.problems()
        case .alert(let content): return content.problems()
        case .local(let content): return content.problems()
        case .story(let content):
            guard case .story(let old)? = stored else { return content.problems() }
            return content.problems(stored: old.pages)
        }
    }
}

/// Runs checks that throw and collects the first problem of the block.
func collect(_ body: () throws -> Void) -> [ValidationError] {
    do {
        try body()
        return []
    } catch let error as ValidationError {
        return [error]
    } catch {
        return [ValidationError(message: "\(error)")]
    }
}

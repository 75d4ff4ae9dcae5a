import HeraldCore

/// One locale's content in `--json` (camelCase, acronyms as words: `actionUrl`, as every other
/// key): the fields of its kind.
public enum CampaignContentJSON: Encodable, Sendable {
    case banner(Banner)
    case alert(Alert)
    case story(Story)
    case local(Local)

    /// A local notification's words in one locale (`alertBody`, `alertAction`).
    public struct Local: Encodable, Sendable {
        public let body: String
        public let action: String?
    }

    public struct Banner: Encodable, Sendable {
        public let entry: String
        public let views: [View]
    }

    public struct View: Encodable, Sendable {
        public let id: String
        /// The page's URL, or nil when the view is inline HTML.
        public let file: String?
        public let html: String?
        public let height: Double?
        public let origin: String?
    }

    public struct Alert: Encodable, Sendable {
        public let title: String
        public let message: String
        public let actionUrl: String?
        public let actionButton: String?
    }

    public struct Story: Encodable, Sendable {
        public let pushTitle: String?
        public let pushText: String
        public let pages: [Page]
    }

    public struct Page: Encodable, Sendable {
        public let image: String
        public let duration: Double?
        public let link: String?
        public let buttonTitle: String?
        public let title: String?
        public let subtitle: String?
    }

    public init(_ content: CampaignContent) {
        switch content {
        case .banner(let banner):
            self = .banner(
                Banner(
                    entry: banner.entry.rawValue,
                    views: banner.views.map { view in
                        let (file, html): (String?, String?) =
                            switch view.source {
                            case .file(let url): (url.rawValue, nil)
                            case .html(let html): (nil, html)
                            }
                        return View(id: view.id.rawValue, file: file, html: html, height: view.height, origin: view.origin?.rawValue)
                    }))
        case .alert(let alert):
            self = .alert(
                Alert(title: alert.title, message: alert.message, actionUrl: alert.actionURL?.rawValue, actionButton: alert.actionButton))
        case .local(let words):
            self = .local(Local(body: words.body, action: words.action))
        case .story(let story):
            self = .story(
                Story(
                    pushTitle: story.pushTitle, pushText: story.pushText,
                    pages: story.pages.map { page in
                        Page(
                            image: page.image.rawValue, duration: page.duration, link: page.link?.rawValue,
                            buttonTitle: page.buttonTitle, title: page.title, subtitle: page.subtitle)
                    }))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .banner(let banner): try banner.encode(to: encoder)
        case .alert(let alert): try alert.encode(to: encoder)
        case .story(let story): try story.encode(to: encoder)
        case .local(let local): try local.encode(to: encoder)
        }
    }
}

import HeraldCore

/// One locale's content in `--json` (camelCase, acronyms as words: `actionUrl`, as every other
/// key): the fields of its kind.
enum CampaignContentJSON: Encodable {
    case banner(Banner)
    case alert(Alert)
    case story(Story)

    struct Banner: Encodable {
        let entry: String
        let views: [View]
    }

    struct View: Encodable {
        let id: String
        /// The page's URL, or nil when the view is inline HTML.
        let file: String?
        let html: String?
        let height: Double?
        let origin: String?
    }

    struct Alert: Encodable {
        let title: String
        let message: String
        let actionUrl: String?
        let actionButton: String?
    }

    struct Story: Encodable {
        let pushTitle: String?
        let pushText: String
        let pages: [Page]
    }

    struct Page: Encodable {
        let image: String
        let duration: Double?
        let link: String?
        let buttonTitle: String?
        let title: String?
        let subtitle: String?
    }

    init(_ content: CampaignContent) {
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

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .banner(let banner): try banner.encode(to: encoder)
        case .alert(let alert): try alert.encode(to: encoder)
        case .story(let story): try story.encode(to: encoder)
        }
    }
}

/// Pushwoosh's story player (PushwooshNotificationUI; docs/clients.md, "Pushwoosh stories")
/// as Herald models it: what it makes of one page of a `pw_stories` block. Input refuses every
/// page the player would change (`StoryPage.playerChanges`); publish warns about stored pages
/// it would change; `herald preview` and the review board draw pages as `play` says.
public enum StoryPlayer {
    /// `StoryPage.defaultDuration`: a page without a usable duration plays this long.
    public static let defaultDuration: Double = 5
    /// `StoryPage.maxDuration`: a longer page is cut to this.
    public static let maxDuration: Double = 30

    /// The seconds the player shows a page whose block says `duration` (nil: missing or not a
    /// number): `StoryPage.init` keeps a finite positive duration up to the maximum and gives
    /// anything else the default.
    public static func seconds(_ duration: Double?) -> Double {
        guard let duration, duration.isFinite, duration > 0 else { return defaultDuration }
        return min(duration, maxDuration)
    }

    /// A page as the block carries it, read as `StoryPayloadParser.page(from:)` reads it:
    /// nil fields are missing (or not of the type the parser takes).
    public static func play(
        image: String?, duration: Double?, link: String?, buttonTitle: String?, title: String?, subtitle: String?
    ) -> Outcome {
        guard let image else { return .dropped(.imageMissing) }
        if let problem = URLText.problem(image) { return .dropped(.imageNotAURL(image, problem)) }
        var changes: [StoryPlayerChange] = []
        let seconds = seconds(duration)
        if let duration, seconds != duration {
            changes.append(duration.isFinite && duration > maxDuration ? .durationCut(duration) : .durationDefaulted(duration))
        } else if let duration, (duration * 1000).rounded() / 1000 != duration {
            changes.append(.durationTooPrecise(duration))
        }
        // The link as the player keeps it: absent when missing or unreadable.
        var readLink = link
        if let link, let problem = URLText.problem(link) {
            changes.append(.linkNotAURL(link, problem))
            readLink = nil
        }
        let label = buttonTitle.flatMap { $0.isEmpty ? nil : $0 }
        if let readLink, label == nil {
            changes.append(.linkWithoutButton(readLink))
        } else if link == nil, let label {
            changes.append(.buttonWithoutLink(label))
        }
        let button = readLink.flatMap { link in label.map { PlayedStoryPage.Button(title: $0, link: link) } }
        return .page(
            PlayedStoryPage(
                image: image, seconds: seconds, usesDefaultDuration: duration.map { !($0.isFinite && $0 > 0) } ?? true,
                title: title.flatMap { $0.isEmpty ? nil : $0 },
                subtitle: subtitle.flatMap { $0.isEmpty ? nil : $0 }, button: button, changes: changes))
    }

    public enum Outcome: Equatable, Sendable {
        case page(PlayedStoryPage)
        /// The parser drops the page (`compactMap`): the story plays without it.
        case dropped(StoryPlayerChange)
    }
}

/// One page as the player shows it: the image, how long before it moves on, and the texts and
/// button it draws (nil: hidden).
public struct PlayedStoryPage: Equatable, Sendable {
    public struct Button: Equatable, Sendable {
        public var title: String
        public var link: String

        public init(title: String, link: String) {
            self.title = title
            self.link = link
        }
    }

    public var image: String
    /// Seconds before the player moves to the next page (or completes, after the last).
    public var seconds: Double
    /// The block gives no duration the player can use: `seconds` is its default.
    public var usesDefaultDuration: Bool
    public var title: String?
    public var subtitle: String?
    /// Shown only when the page has both a link it can read and a non-empty button title.
    public var button: Button?
    /// Where this differs from what the block says (empty for every page Herald accepts).
    public var changes: [StoryPlayerChange]

    public init(
        image: String, seconds: Double, usesDefaultDuration: Bool = false, title: String? = nil, subtitle: String? = nil, button: Button? = nil,
        changes: [StoryPlayerChange] = []
    ) {
        self.image = image
        self.seconds = seconds
        self.usesDefaultDuration = usesDefaultDuration
        self.title = title
        self.subtitle = subtitle
        self.button = button
        self.changes = changes
    }
}

/// Something the player does differently from what a page says, in words: what it does
/// (`effect`, naming the player's code) and how to write the page so it plays as written (`fix`).
public enum StoryPlayerChange: Equatable, Sendable {
    case imageMissing
    case imageNotAURL(String, URLText.Problem)
    /// Longer than `StoryPlayer.maxDuration`: cut to it.
    case durationCut(Double)
    /// Zero, negative or not finite: the default duration instead.
    case durationDefaulted(Double)
    /// Finer than a millisecond: Foundation's JSON reader need not read it back exactly.
    case durationTooPrecise(Double)
    case linkNotAURL(String, URLText.Problem)
    case buttonWithoutLink(String)
    case linkWithoutButton(String)

    /// What the page says, then what the player does with it.
    public var effect: String {
        let max = NumberText.format(StoryPlayer.maxDuration)
        let standard = NumberText.format(StoryPlayer.defaultDuration)
        switch self {
        case .imageMissing:
            return "the page has no image: Pushwoosh's player drops it (StoryPayloadParser.page(from:))"
        case .imageNotAURL(let image, let problem):
            return "image \(quote(image)) \(problem.description): Pushwoosh's player reads the image with Foundation's URL(string:), "
                + "which refuses it on iOS before 17, and drops a page whose image it cannot read (StoryPayloadParser.page(from:))"
        case .durationCut(let seconds):
            return "duration \(NumberText.format(seconds)) s is longer than Pushwoosh's player plays a page: it cuts every page to "
                + "\(max) s (StoryPage.maxDuration), so this one would move on after \(max) s"
        case .durationDefaulted(let seconds):
            return "duration \(NumberText.format(seconds)) s would play for \(standard) s: Pushwoosh's player gives a page whose duration "
                + "is zero, negative or not finite its default of \(standard) s (StoryPage.init)"
        case .durationTooPrecise(let seconds):
            return "duration \(NumberText.format(seconds)) s has more than three decimals: the device reads the payload with Foundation's "
                + "JSONSerialization, which does not read every such number back exactly, so the page could play a hair longer or shorter"
        case .linkNotAURL(let link, let problem):
            return "link \(quote(link)) \(problem.description): Pushwoosh's player reads the link with Foundation's URL(string:), "
                + "which refuses it on iOS before 17, and then treats the page as having no link, so its button never shows "
                + "(StoryPayloadParser.page(from:))"
        case .buttonWithoutLink(let title):
            return "button title \(quote(title)) without a link would never show: Pushwoosh's player shows the button only when the "
                + "page also has a link (PushwooshStoriesViewController: updateActionButton(title: page.link != nil ? page.buttonTitle : nil))"
        case .linkWithoutButton(let link):
            return "link \(quote(link)) without a button title could never be opened: Pushwoosh's player opens a page's link only from "
                + "its button, which shows only with a button title (the image itself is tap zones for previous and next page)"
        }
    }

    /// How to write the page so that it plays as written.
    public var fix: String {
        let max = NumberText.format(StoryPlayer.maxDuration)
        let standard = NumberText.format(StoryPlayer.defaultDuration)
        switch self {
        case .imageMissing: return "give the page an image"
        case .imageNotAURL(_, let problem): return problem.fix
        case .durationCut: return "give a duration of at most \(max) seconds (or split the page in two)"
        case .durationDefaulted: return "give a duration above 0 and at most \(max) seconds, or none for \(standard) s"
        case .durationTooPrecise(let seconds): return "give it to the millisecond (\(NumberText.format(Swift.max(0.001, (seconds * 1000).rounded() / 1000))))"
        case .linkNotAURL(_, let problem): return problem.fix
        case .buttonWithoutLink: return "add the link the button opens, or remove the button title"
        case .linkWithoutButton: return "add a button title, or remove the link"
        }
    }

    /// For input: what is wrong, what the player would do, and how to fix it.
    public var message: String { "\(effect); \(fix)" }

    /// What the player shows instead, in a few words, for drawings of the page.
    public var shortNote: String {
        let max = NumberText.format(StoryPlayer.maxDuration)
        let standard = NumberText.format(StoryPlayer.defaultDuration)
        switch self {
        case .imageMissing: return "no image: the player drops this page"
        case .imageNotAURL: return "image URL unreadable on iOS before 17: the player drops this page"
        case .durationCut(let seconds): return "the file says \(NumberText.format(seconds)) s: the player cuts it to \(max) s"
        case .durationDefaulted(let seconds): return "the file says \(NumberText.format(seconds)) s: the player plays \(standard) s"
        case .durationTooPrecise: return "duration finer than a millisecond: the device may read it a hair off"
        case .linkNotAURL: return "link unreadable on iOS before 17: no button"
        case .buttonWithoutLink(let title): return "button \(quote(title)) has no link: the player never shows it"
        case .linkWithoutButton(let link): return "link \(quote(link)) has no button title: no one can open it"
        }
    }
}

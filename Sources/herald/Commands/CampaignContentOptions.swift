import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs

/// The per-kind content flags of `campaign create` and `campaign update`, for one locale.
struct CampaignContentOptions: ParsableArguments {
    @Option(help: "Locale the content flags are for (default: the app's default locale).")
    var locale: String?

    @Option(help: ArgumentHelp("Alert title.", valueName: "text")) var title: String?
    @Option(help: ArgumentHelp("Alert message.", valueName: "text")) var message: String?
    @Option(
        name: .customLong("action-url"),
        help: ArgumentHelp(
            "Alert action URL (any scheme; devices that cannot open it show no alert at all; '' removes it). A translation "
                + "without one takes the default locale's.", valueName: "url"))
    var actionURL: String?
    @Option(
        name: .customLong("action-button"),
        help: ArgumentHelp("Alert action button label ('' removes it); a translation without one shows the default locale's.", valueName: "text"))
    var actionButton: String?

    @Option(
        name: .customLong("page"),
        help: ArgumentHelp(
            "Story page (repeatable, in order): 'image=URL,duration=5,link=URL,button_title=…,title=…,subtitle=…'.",
            discussion: """
                Escape a comma in a value as \\, or double-quote the value. On update, the pages given replace the \
                locale's whole page list: give every page, in order.
                """, valueName: "spec"))
    var pages: [String] = []
    @Option(name: .customLong("push-title"), help: ArgumentHelp("Story push title; '' removes it.", valueName: "text"))
    var pushTitle: String?
    @Option(name: .customLong("push-text"), help: ArgumentHelp("Story push text (also the fallback body).", valueName: "text"))
    var pushText: String?

    @Option(
        name: .customLong("view"),
        help: ArgumentHelp(
            "Banner view (repeatable): 'id=banner,file=URL|html=@path,height=88,origin=top|bottom'.",
            discussion: "On update, a view replaces the view with the same id and the other views stay (--remove-view removes one).",
            valueName: "spec"))
    var views: [String] = []
    @Option(help: ArgumentHelp("Banner entry view id (the first view shown).", valueName: "id"))
    var entry: String?

    @Option(
        help: ArgumentHelp(
            "Local notification body (alertBody): one or two sentences, without the app's name (iOS shows it).", valueName: "text"))
    var body: String?
    @Option(
        help: ArgumentHelp(
            "Local notification action (alertAction, \"slide to <action>\" on the lock screen; '' removes it: iOS says View).",
            valueName: "text"))
    var action: String?

    /// `--action` with a label: the local notification then has an action.
    var givesAction: Bool { action.map { !$0.isEmpty } ?? false }

    /// The content for the locale after applying these flags to what exists (nil: nothing given).
    /// An optional field given as '' (or named by `--clear`) is removed; a view replaces the
    /// existing view with its id (the others stay), `removingViews` removes views by id.
    func content(
        kind: CampaignKind, existing: CampaignContent?, clearing: Set<ClearableField> = [], removingViews: [String] = []
    ) throws -> CampaignContent? {
        if !removingViews.isEmpty, kind != .banner {
            throw InputError(message: "--remove-view is for banner campaigns, not \(kind)", code: ExitStatus.usage)
        }
        for field in clearing where field.kind.map({ $0 != kind }) ?? false {
            throw InputError(message: "--clear \(field.rawValue) is for \(field.kind?.rawValue ?? "") campaigns, not \(kind)", code: ExitStatus.usage)
        }
        var flags = ContentFlags()
        (flags.title, flags.message, flags.actionURL, flags.actionButton) = (title, message, actionURL, actionButton)
        (flags.pages, flags.pushTitle, flags.pushText, flags.views, flags.entry) = (pages, pushTitle, pushText, views, entry)
        (flags.body, flags.action) = (body, action)
        return try flags.content(
            kind: kind, existing: existing, clearing: Set(clearing.compactMap(\.content)), removingViews: removingViews,
            readHTML: readHTMLFile)
    }
}

/// Optional fields `campaign update --clear FIELD` removes.
enum ClearableField: String, CaseIterable, ExpressibleByArgument {
    case starts, ends, locales
    case actionURL = "action-url"
    case actionButton = "action-button"
    case pushTitle = "push-title"
    case action
    case `repeat`
    case badge, sound
    case launchImage = "launch-image"
    case userInfo = "user-info"
    case pushSound = "push-sound"
    case pushBadge = "push-badge"

    /// The content field it is; nil for fields of every campaign and notification fields.
    var content: ContentFlags.Clearable? {
        switch self {
        case .actionURL: .actionURL
        case .actionButton: .actionButton
        case .pushTitle: .pushTitle
        case .action: .action
        default: nil
        }
    }

    /// The notification field it is (a local campaign's, or a story's push), the same in every locale.
    var notification: NotificationFlags.Clearable? {
        switch self {
        case .repeat: .repeatInterval
        case .badge: .badge
        case .sound: .sound
        case .launchImage: .launchImage
        case .userInfo: .userInfo
        case .pushSound: .pushSound
        case .pushBadge: .pushBadge
        default: nil
        }
    }

    /// The campaign kind whose content has this field; nil for fields of every campaign.
    var kind: CampaignKind? {
        switch self {
        case .starts, .ends, .locales: nil
        case .actionURL, .actionButton: .alert
        case .pushTitle, .pushSound, .pushBadge: .story
        case .action, .repeat, .badge, .sound, .launchImage, .userInfo: .local
        }
    }
}

/// `html=@path` reads the view's HTML from a file.
private func readHTMLFile(_ path: String) throws -> String {
    try InputFiles.html(path, standardInput: Console.current.inputDescriptor)
}

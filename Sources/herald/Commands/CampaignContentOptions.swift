import ArgumentParser
import Foundation
import HeraldCore

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
                locale's whole page list: give every page, in order. Refused, because Pushwoosh's player would play \
                the page otherwise: a duration over 30 (it cuts it), of 0 or less (it plays 5 s) or finer than a \
                millisecond; button_title without link, or link without button_title (only both make a button); \
                image or link URLs iOS before 17 cannot parse (percent-encode them).
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

    var isEmpty: Bool {
        title == nil && message == nil && actionURL == nil && actionButton == nil && pages.isEmpty
            && pushTitle == nil && pushText == nil && views.isEmpty && entry == nil
    }

    /// The content for `locale` after applying these flags to what exists (nil: nothing given).
    /// An optional field given as '' (or named by `--clear`) is removed; a view replaces the
    /// existing view with its id (the others stay), `removingViews` removes views by id.
    func content(
        kind: CampaignKind, existing: CampaignContent?, clearing: Set<ClearableField> = [], removingViews: [String] = []
    ) throws -> CampaignContent? {
        let clearsContent = !clearing.isDisjoint(with: [.actionURL, .actionButton, .pushTitle])
        guard !isEmpty || !removingViews.isEmpty || (clearsContent && existing != nil) else { return nil }
        if !removingViews.isEmpty, kind != .banner {
            throw InputError(message: "--remove-view is for banner campaigns, not \(kind)", code: ExitStatus.usage)
        }
        try refuseFlagsOfOtherKinds(kind)
        for field in clearing where field.kind.map({ $0 != kind }) ?? false {
            throw InputError(message: "--clear \(field.rawValue) is for \(field.kind?.rawValue ?? "") campaigns, not \(kind)", code: ExitStatus.usage)
        }
        /// The new value of an optional field: cleared, given, or kept.
        func optional<T>(_ given: String?, _ field: ClearableField, old: T?, _ parse: (String) throws -> T) rethrows -> T? {
            if clearing.contains(field) || given == "" { return nil }
            return try given.map(parse) ?? old
        }
        switch kind {
        case .alert:
            var old: AlertContent?
            if case .alert(let alert) = existing { old = alert }
            guard let title = title ?? old?.title, let message = message ?? old?.message else {
                throw InputError(message: "alert content for a new locale needs both --title and --message")
            }
            return .alert(
                AlertContent(
                    title: title, message: message,
                    actionURL: try optional(actionURL, .actionURL, old: old?.actionURL) { try LinkURL($0) },
                    actionButton: optional(actionButton, .actionButton, old: old?.actionButton) { $0 }))
        case .story:
            var old: StoryContent?
            if case .story(let story) = existing { old = story }
            let pages = try pages.isEmpty ? old?.pages ?? [] : self.pages.enumerated().map { number, spec in
                do {
                    return try StoryPage.parse(keyValues: KeyValueList.parse(spec))
                } catch let error as ValidationError {
                    // Which --page, when several are given.
                    throw self.pages.count == 1 ? error : ValidationError(message: "--page \(number + 1): \(error.message)")
                }
            }
            guard let pushText = pushText ?? old?.pushText else {
                throw InputError(message: "story content for a new locale needs --push-text and at least one --page")
            }
            return .story(StoryContent(pushTitle: optional(pushTitle, .pushTitle, old: old?.pushTitle) { $0 }, pushText: pushText, pages: pages))
        case .banner:
            var old: BannerContent?
            if case .banner(let banner) = existing { old = banner }
            var views = old?.views ?? []
            for raw in removingViews {
                let id = try Slug(raw)
                guard let index = views.firstIndex(where: { $0.id == id }) else {
                    let have = views.isEmpty ? "none" : views.map(\.id.rawValue).joined(separator: ", ")
                    throw InputError(message: "there is no view \(id) to remove (views: \(have))")
                }
                views.remove(at: index)
            }
            var given: Set<Slug> = []
            for spec in self.views {
                let view = try BannerView.parse(keyValues: KeyValueList.parse(spec), readHTML: readHTMLFile)
                guard given.insert(view.id).inserted else {
                    throw InputError(message: "--view id=\(view.id) is given twice; give each view once")
                }
                // Upsert by id: a view keeps its place; a new one goes last.
                if let index = views.firstIndex(where: { $0.id == view.id }) {
                    views[index] = view
                } else {
                    views.append(view)
                }
            }
            let newEntry = try entry.map { try Slug($0) }
            if newEntry == nil, let oldEntry = old?.entry, removingViews.contains(oldEntry.rawValue) {
                throw InputError(message: "view \(oldEntry) is the entry (the first view shown): give --entry naming the view to show first")
            }
            let entry = newEntry ?? old?.entry ?? (views.count == 1 ? views.first?.id : nil)
            guard let entry else {
                throw InputError(message: "banner content needs --entry naming one of its views (the first view shown)")
            }
            return .banner(BannerContent(entry: entry, views: views))
        }
    }

    private func refuseFlagsOfOtherKinds(_ kind: CampaignKind) throws {
        let given: [(CampaignKind, String, Bool)] = [
            (.alert, "--title", title != nil), (.alert, "--message", message != nil),
            (.alert, "--action-url", actionURL != nil), (.alert, "--action-button", actionButton != nil),
            (.story, "--page", !pages.isEmpty), (.story, "--push-title", pushTitle != nil),
            (.story, "--push-text", pushText != nil),
            (.banner, "--view", !views.isEmpty), (.banner, "--entry", entry != nil),
        ]
        let wrong = given.filter { $0.2 && $0.0 != kind }
        guard wrong.isEmpty else {
            throw InputError(
                message: wrong.map { "\($0.1) is for \($0.0) campaigns, not \(kind)" }.joined(separator: "\n"))
        }
    }
}

/// Optional fields `campaign update --clear FIELD` removes.
enum ClearableField: String, CaseIterable, ExpressibleByArgument {
    case starts, ends, locales
    case actionURL = "action-url"
    case actionButton = "action-button"
    case pushTitle = "push-title"

    /// The campaign kind whose content has this field; nil for fields of every campaign.
    var kind: CampaignKind? {
        switch self {
        case .starts, .ends, .locales: nil
        case .actionURL, .actionButton: .alert
        case .pushTitle: .story
        }
    }
}

/// `html=@path` reads the view's HTML from a file.
private func readHTMLFile(_ path: String) throws -> String {
    let data: Data
    do {
        data = try BoundedInput.contents(of: path, limit: BoundedInput.htmlFileLimit)
    } catch .unreadable(let why) {
        throw InputError(message: "cannot read HTML file \(Excerpt.plain(path, limit: 200)): \(why)", code: ExitStatus.noInput)
    } catch .tooLarge {
        throw InputError(
            message: "HTML file \(Excerpt.plain(path, limit: 200)) is larger than \(BoundedInput.size(BoundedInput.htmlFileLimit)): "
                + "host a page that large yourself and give file=URL")
    }
    guard let text = String(data: data, encoding: .utf8) else {
        throw InputError(message: "HTML file \(Excerpt.plain(path, limit: 200)) is not UTF-8")
    }
    return text
}

/// The content flags of `campaign create` and `campaign update` for one locale, as typed
/// (`--title`, `--page 'image=…'`, `--view 'id=…'`, …): applied to the locale's content as it
/// is, they give its content as it will be.
public struct ContentFlags: Sendable {
    public var title: String?
    public var message: String?
    public var actionURL: String?
    public var actionButton: String?
    /// `--page` specs, in order: they replace the locale's whole page list.
    public var pages: [String] = []
    public var pushTitle: String?
    public var pushText: String?
    /// `--view` specs: each replaces the view with its id, or is added last.
    public var views: [String] = []
    public var entry: String?
    /// A local notification's words: `--body`, `--action`.
    public var body: String?
    public var action: String?

    public init() {}

    /// Optional content fields that can be removed (`--clear`, or given as '').
    public enum Clearable: Sendable {
        case actionURL, actionButton, pushTitle, action
    }

    public var isEmpty: Bool {
        title == nil && message == nil && actionURL == nil && actionButton == nil && pages.isEmpty
            && pushTitle == nil && pushText == nil && views.isEmpty && entry == nil && body == nil && action == nil
    }

    /// The flags given that belong to another kind of campaign than `kind`, by flag name.
    public func flags(notFor kind: CampaignKind) -> [(flag: String, kind: CampaignKind)] {
        let given: [(CampaignKind, String, Bool)] = [
            (.alert, "--title", title != nil), (.alert, "--message", message != nil),
            (.alert, "--action-url", actionURL != nil), (.alert, "--action-button", actionButton != nil),
            (.story, "--page", !pages.isEmpty), (.story, "--push-title", pushTitle != nil),
            (.story, "--push-text", pushText != nil),
            (.banner, "--view", !views.isEmpty), (.banner, "--entry", entry != nil),
            (.local, "--body", body != nil), (.local, "--action", action != nil),
        ]
        return given.filter { $0.2 && $0.0 != kind }.map { ($0.1, $0.0) }
    }

    /// The content after these flags are applied to `existing` (nil: nothing to change). An
    /// optional field given as '' (or in `clearing`) is removed; `removingViews` removes
    /// banner views by id. `readHTML` reads `html=@path`.
    public func content(
        kind: CampaignKind, existing: CampaignContent?, clearing: Set<Clearable> = [], removingViews: [String] = [],
        readHTML: (String) throws -> String
    ) throws -> CampaignContent? {
        guard !isEmpty || !removingViews.isEmpty || (!clearing.isEmpty && existing != nil) else { return nil }
        let wrong = flags(notFor: kind)
        guard wrong.isEmpty else {
            throw ValidationErrors(wrong.map { ValidationError(message: "\($0.flag) is for \($0.kind) campaigns, not \(kind)") })
        }
        /// The new value of an optional field: cleared, given, or kept.
        func optional<T>(_ given: String?, _ field: Clearable, old: T?, _ parse: (String) throws -> T) rethrows -> T? {
            if clearing.contains(field) || given == "" { return nil }
            return try given.map(parse) ?? old
        }
        switch kind {
        case .alert:
            var old: AlertContent?
            if case .alert(let alert) = existing { old = alert }
            guard let title = title ?? old?.title, let message = message ?? old?.message else {
                throw ValidationError(message: "alert content for a new locale needs both --title and --message")
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
                throw ValidationError(message: "story content for a new locale needs --push-text and at least one --page")
            }
            return .story(StoryContent(pushTitle: optional(pushTitle, .pushTitle, old: old?.pushTitle) { $0 }, pushText: pushText, pages: pages))
        case .banner:
            var old: BannerContent?
            if case .banner(let banner) = existing { old = banner }
            return .banner(try banner(old, removingViews: removingViews, readHTML: readHTML))
        case .local:
            var old: LocalContent?
            if case .local(let local) = existing { old = local }
            guard let body = body ?? old?.body else {
                throw ValidationError(message: "local notification content for a new locale needs --body")
            }
            return .local(LocalContent(body: body, action: optional(action, .action, old: old?.action) { $0 }))
        }
    }

    private func banner(_ old: BannerContent?, removingViews: [String], readHTML: (String) throws -> String) throws -> BannerContent {
        var views = old?.views ?? []
        for raw in removingViews {
            let id = try Slug(raw)
            guard let index = views.firstIndex(where: { $0.id == id }) else {
                let have = views.isEmpty ? "none" : views.map(\.id.rawValue).joined(separator: ", ")
                throw ValidationError(message: "there is no view \(id) to remove (views: \(have))")
            }
            views.remove(at: index)
        }
        var given: Set<Slug> = []
        for spec in self.views {
            let view = try BannerView.parse(keyValues: KeyValueList.parse(spec), readHTML: readHTML)
            guard given.insert(view.id).inserted else {
                throw ValidationError(message: "--view id=\(view.id) is given twice; give each view once")
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
            throw ValidationError(message: "view \(oldEntry) is the entry (the first view shown): give --entry naming the view to show first")
        }
        guard let entry = newEntry ?? old?.entry ?? (views.count == 1 ? views.first?.id : nil) else {
            throw ValidationError(message: "banner content needs --entry naming one of its views (the first view shown)")
        }
        return BannerContent(entry: entry, views: views)
    }
}

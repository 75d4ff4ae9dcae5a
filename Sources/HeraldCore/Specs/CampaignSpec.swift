import Foundation

/// Everything about one campaign, as the CLI, the store, the campaigns file and the
/// publisher all see it. One shape for all, so there is one set of rules.
public struct CampaignSpec: Equatable, Sendable {
    public var key: Slug
    public var kind: CampaignKind
    public var name: String
    public var status: CampaignStatus
    public var startsAt: Date?
    public var endsAt: Date?
    public var priority: Int
    /// A restriction to some of the app's locales; nil means all of them.
    public var locales: [LocaleTag]?
    public var conditions: ConditionSet
    /// Alerts only; the store assigns the default when nil.
    public var messageKey: MessageKey?
    public var content: [LocaleTag: CampaignContent]
    /// Local campaigns only (and every one has it): when the notification fires, and what it
    /// is but its words, the same in every locale.
    public var localNotification: LocalNotification?
    /// Stories only: the push's sound and badge, the same in every locale.
    public var push: PushOptions

    public init(
        key: Slug, kind: CampaignKind, name: String, status: CampaignStatus = .draft, startsAt: Date? = nil,
        endsAt: Date? = nil, priority: Int = 0, locales: [LocaleTag]? = nil, conditions: ConditionSet = ConditionSet(),
        messageKey: MessageKey? = nil, content: [LocaleTag: CampaignContent] = [:], localNotification: LocalNotification? = nil,
        push: PushOptions = PushOptions()
    ) {
        self.key = key
        self.kind = kind
        self.name = name
        self.status = status
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.priority = priority
        self.locales = locales.map { Array(Set($0)).sorted() }
        self.conditions = conditions
        self.messageKey = messageKey
        self.content = content
        self.localNotification = localNotification
        self.push = push
    }

    /// The campaign's own rules (those that need no app or clock), for input.
    public func problems() -> [ValidationError] {
        problems(stored: nil)
    }

    /// The campaign's own rules, for a change to `stored` (the campaign as the database holds
    /// it): content kept from it is held only to the rules every stored row keeps, so that a
    /// story with a page stored before the player's rules can still be renamed, paused or
    /// archived (`StoryContent.problems(stored:)`).
    public func problems(stored: CampaignSpec?) -> [ValidationError] {
        var problems = collect { try XMLText.checkRequired(name, field: "name") }
        if let startsAt, let endsAt, endsAt <= startsAt {
            problems.append(ValidationError(message: "the campaign must end after it starts (starts \(Timestamp.format(startsAt)), ends \(Timestamp.format(endsAt)))"))
        }
        if let locales, locales.isEmpty {
            problems.append(ValidationError(message: "a locale restriction needs at least one locale (omit it for all)"))
        }
        if messageKey != nil, kind != .alert {
            problems.append(ValidationError(message: "only alert campaigns have a message key; this is a \(kind) campaign"))
        }
        problems += conditions.problems(kind: kind)
        problems += notificationProblems()
        for (locale, content) in self.content.sorted(by: { $0.key < $1.key }) {
            if content.kind != kind {
                problems.append(ValidationError(message: "content for \(locale) is \(content.kind) content, but the campaign is a \(kind)"))
                continue
            }
            problems += content.problems(stored: stored?.content[locale]).map { ValidationError(message: "content \(locale): \($0.message)") }
        }
        return problems
    }

    /// Rules that need the app's default locale: an alert's action button is shown only with
    /// an action URL, and a locale gets the URL of its own content or of its fallbacks.
    public func problems(defaultLocale: LocaleTag) -> [ValidationError] {
        guard kind == .alert else { return [] }
        var problems: [ValidationError] = []
        for (locale, content) in content.sorted(by: { $0.key < $1.key }) {
            guard case .alert(let alert) = content, alert.actionButton != nil, alert.actionURL == nil else { continue }
            if ResolvedAlert.resolve(self.content, for: locale, defaultLocale: defaultLocale)?.alert.actionURL == nil {
                problems.append(
                    ValidationError(
                        message: "content \(locale): an action button needs an action URL, in \(locale) or the default locale "
                            + "\(defaultLocale) (the client ignores the button otherwise)"))
            }
        }
        return problems
    }
}

extension CampaignSpec {
    /// A local campaign's notification, and the push options only stories have.
    fileprivate func notificationProblems() -> [ValidationError] {
        var problems: [ValidationError] = []
        if !push.isEmpty, kind != .story {
            problems.append(ValidationError(message: "only story campaigns have a push sound and badge; this is a \(kind) campaign"))
        }
        guard kind == .local else {
            if localNotification != nil {
                problems.append(
                    ValidationError(message: "only local campaigns have a fire time, repeat, badge, sound and userInfo; this is a \(kind) campaign"))
            }
            return problems
        }
        guard let notification = localNotification else {
            problems.append(
                ValidationError(message: "a local notification needs a fire time: give --fire-at (fireAt in a campaigns file), e.g. 2026-12-24T09:00"))
            return problems
        }
        problems += notification.problems()
        if !notification.hasAction {
            for (locale, content) in self.content.sorted(by: { $0.key < $1.key }) {
                guard case .local(let words) = content, let action = words.action else { continue }
                problems.append(
                    ValidationError(
                        message: "content \(locale): action \(quote(action)) is given, but the notification has no action (hasAction false, "
                            + "--no-action): remove the action, or give the notification one"))
            }
        }
        return problems
    }
}

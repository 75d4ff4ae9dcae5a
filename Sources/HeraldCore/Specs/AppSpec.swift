/// One app of a tenant: its identity, its locales and where its files are served, with its campaigns.
public struct AppSpec: Equatable, Sendable {
    public var slug: Slug
    public var name: String
    public var platform: Platform
    public var bundleID: String
    public var defaultLocale: LocaleTag
    /// Sorted, unique, and containing the default locale.
    public var locales: [LocaleTag]
    public var baseURL: HTTPURL?
    /// Sorted by key.
    public var campaigns: [CampaignSpec]
    /// Whether the app has a local campaign in any status (a publish's snapshot says, where
    /// `campaigns` holds only the active ones): its locales then get local-notifications files
    /// even when none is live, so that devices cancel what was withdrawn. Not in campaigns files.
    public var publishesLocalNotifications = false

    public init(
        slug: Slug, name: String, platform: Platform, bundleID: String, defaultLocale: LocaleTag, locales: [LocaleTag],
        baseURL: HTTPURL? = nil, campaigns: [CampaignSpec] = []
    ) {
        self.slug = slug
        self.name = name
        self.platform = platform
        self.bundleID = bundleID
        self.defaultLocale = defaultLocale
        self.locales = Array(Set(locales)).sorted()
        self.baseURL = baseURL
        self.campaigns = campaigns.sorted { $0.key < $1.key }
    }

    public func problems() -> [ValidationError] {
        var problems = collect { try XMLText.checkRequired(name, field: "app name") }
        let bundleParts = bundleID.split(separator: ".", omittingEmptySubsequences: false)
        let bundleOK =
            bundleParts.count >= 2
            && bundleParts.allSatisfy { part in !part.isEmpty && part.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" } }
        if !bundleOK {
            problems.append(
                ValidationError(message: "invalid bundle id \(quote(bundleID)): use reverse-DNS form such as com.acme.weather"))
        }
        if !locales.contains(defaultLocale) {
            problems.append(
                ValidationError(
                    message: "default locale \(defaultLocale) is not among the app's locales (\(locales.map(\.rawValue).joined(separator: ", ")))"))
        }
        var keys: Set<Slug> = []
        for campaign in campaigns where !keys.insert(campaign.key).inserted {
            problems.append(ValidationError(message: "campaign key \(campaign.key) appears twice in app \(slug)"))
        }
        // iNotify sorts message keys case-insensitively: two that differ only in case have no order.
        var messageKeys: [String: CampaignSpec] = [:]
        for campaign in campaigns {
            guard let key = campaign.messageKey else { continue }
            if let other = messageKeys[key.rawValue.lowercased()] {
                problems.append(
                    ValidationError(
                        message: "message keys \(other.messageKey?.rawValue ?? "") (campaign \(other.key)) and \(key) (campaign \(campaign.key)) "
                            + "differ only in case: iNotify sorts keys case-insensitively, so devices would show them in no defined order; "
                            + "give one another key"))
            } else {
                messageKeys[key.rawValue.lowercased()] = campaign
            }
        }
        for campaign in campaigns { problems += campaign.problems(defaultLocale: defaultLocale) }
        return problems
    }
}

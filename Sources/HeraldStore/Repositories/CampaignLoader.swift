import Foundation
import HeraldCore
import PostgresClient
import Synchronization

/// Loads whole campaigns in six queries whatever their number: campaigns, conditions and
/// one per content kind (queries/campaigns.sql). The same loader serves `show`, `export` and
/// the publisher's snapshot.
struct CampaignLoader {
    let connection: Connection

    /// The campaigns of `apps`: all of them, only the one with `key`, or only the active ones.
    /// `alongside`: how to open a second connection, and the snapshot of this one's open
    /// REPEATABLE READ transaction; two of the four content statements then run there, on
    /// another of the server's processes, while this connection runs the others (the same
    /// rows: one snapshot). The second connection is opened on its own thread, meanwhile; when
    /// it cannot be (no connection left, say), this one runs them too.
    func load(
        apps: [Int64], key: Slug? = nil, activeOnly: Bool = false,
        alongside: (connector: HeraldDatabase.Connector, snapshot: TransactionSnapshot)? = nil
    ) throws -> [CampaignRecord] {
        // The apps' array literal is made once for all six statements (a publish passes every app).
        let selection = LoadedCampaigns(apps: EncodedParameter(apps), key: key?.rawValue, activeOnly: activeOnly)
        // Five fixed queries after the campaigns', each selecting the same campaigns by the
        // same filter (one transaction: the same rows). A join on the filter, not a list of
        // ids: tens of thousands of ids in an array cost the server more.
        // Each part is decoded on another core while the next one is fetched; the campaigns'
        // own columns too, from the first query on (decoded last, they held up the snapshot).
        let decoded = DecodedParts()
        let decoding = DispatchGroup()
        defer { decoding.wait() }
        let parts: [(index: Int, query: Query)] = [
            (0, .loadConditions), (1, .loadBanners), (2, .loadAlerts), (3, .loadStories), (5, .loadLocals),
        ]
        // Banners and stories (the two the server sorts) on the second connection, if any.
        let elsewhere: Set<Int> = alongside == nil ? [] : [1, 3]
        var second: BackgroundWork<Bool>?
        if let alongside {
            let moved = parts.filter { elsewhere.contains($0.index) }
            second = BackgroundWork {
                guard let database = try? alongside.connector.connect() else { return false }
                return try database.asOperator(.repeatableRead, readOnly: true, importing: alongside.snapshot) { session in
                    for part in moved { try Self.fetch(part, on: session.connection, selection, into: decoded, group: decoding) }
                    return true
                }
            }
        }
        defer { _ = try? second?.wait() }  // its thread is done before this returns, whatever happens here
        let rows = try connection.query(.loadCampaigns, selection)
        guard !rows.isEmpty else { return [] }
        DispatchQueue.global().async(group: decoding) {
            decoded.set(4) { .campaigns(Self.inAppAndKeyOrder(try Self.decodeCampaigns(rows))) }
        }
        for part in parts where !elsewhere.contains(part.index) {
            try Self.fetch(part, on: connection, selection, into: decoded, group: decoding)
        }
        if let second, try second.wait() == false {
            for part in parts where elsewhere.contains(part.index) {
                try Self.fetch(part, on: connection, selection, into: decoded, group: decoding)
            }
        }
        decoding.wait()
        var conditions: [Int64: Result<ConditionSet, ValidationError>] = [:]
        // Banners, alerts, stories, local notifications: a campaign's content is its entry in the
        // last of them that has one.
        var contents: [ContentByCampaign] = []
        var notifications: [Int64: LocalNotification] = [:]
        var campaigns: [CampaignRecord] = []
        for part in try decoded.results() {
            switch part {
            case .conditions(let found): conditions = found
            case .content(let found): contents.append(found)
            case .locals(let found, let words):
                notifications = found
                contents.append(words)
            case .campaigns(let found): campaigns = found
            }
        }
        for index in campaigns.indices {
            let id = campaigns[index].id
            campaigns[index].spec.conditions = try conditions[id]?.get() ?? ConditionSet()
            campaigns[index].spec.content = contents.reversed().lazy.compactMap { $0[id] }.first ?? [:]
            campaigns[index].spec.localNotification = notifications[id]
        }
        return campaigns
    }

    /// Runs `part`'s statement on `connection`, then decodes its rows on another core.
    private static func fetch(
        _ part: (index: Int, query: Query), on connection: Connection, _ selection: LoadedCampaigns,
        into decoded: DecodedParts, group: DispatchGroup
    ) throws {
        let rows = try connection.query(part.query, selection)
        DispatchQueue.global().async(group: group) { decoded.set(part.index) { try decode(part.index, rows) } }
    }

    /// Part `index` of a load (conditions, banners, alerts, stories, local notifications) from its rows.
    private static func decode(_ index: Int, _ rows: QueryResult) throws -> DecodedParts.Part {
        switch index {
        case 0: .conditions(try decodeConditions(rows))
        case 1: .content(try decodeBanners(rows))
        case 2: .content(try decodeAlerts(rows))
        case 5: try decodeLocals(rows)
        default: .content(try decodeStories(rows))
        }
    }

    /// `campaigns` by app, then key: the order `show` and `export` list them in and the
    /// publisher reads them in. The statement returns them in no order; they usually come
    /// in this order already (checked first: then nothing is moved).
    private static func inAppAndKeyOrder(_ campaigns: [CampaignRecord]) -> [CampaignRecord] {
        func precedes(_ first: Int, _ second: Int) -> Bool {
            let (a, b) = (campaigns[first], campaigns[second])
            return a.appID != b.appID ? a.appID < b.appID : a.spec.key.rawValue < b.spec.key.rawValue
        }
        if campaigns.indices.dropFirst().allSatisfy({ precedes($0 - 1, $0) }) { return campaigns }
        return campaigns.indices.sorted(by: precedes).map { campaigns[$0] }
    }

    /// Each row of a content statement with its campaign and locale (each decoded once), in
    /// campaign, locale and `position` order when `byPosition` (a view's or page's place; a
    /// story without pages has one row, without a position). The statements return rows in
    /// no order; they usually come in this order already (apply writes a campaign's content in
    /// one go), which is checked first: then nothing is sorted.
    private static func forEachContentRow(
        _ rows: QueryResult, byPosition: Bool, _ body: (_ campaign: Int64, _ locale: LocaleTag, Row) throws -> Void
    ) throws {
        let campaign = rows.column("campaign_id"), locale = rows.column("locale"), position = rows.column("position")
        var locales = LocaleTags()
        var keys: [(campaign: Int64, locale: LocaleTag, position: Int)] = []
        keys.reserveCapacity(rows.count)
        var inOrder = true
        for row in rows {
            let key = (
                try row.decode(campaign, as: Int64.self), try locales.tag(try row.decode(locale, as: String.self)),
                byPosition ? try row.decode(position, as: Int?.self) ?? -1 : 0
            )
            if inOrder, let last = keys.last, !(last < key) { inOrder = false }
            keys.append(key)
        }
        let order = inOrder || !byPosition ? nil : keys.indices.sorted { keys[$0] < keys[$1] }
        for index in rows.indices {
            let position = order?[index] ?? index
            try body(keys[position].campaign, keys[position].locale, rows[position])
        }
    }

    /// The campaigns' own columns; their conditions and content are filled in from the other parts.
    private static func decodeCampaigns(_ rows: QueryResult) throws -> [CampaignRecord] {
        let column = (
            id: rows.column("id"), key: rows.column("key"), kind: rows.column("kind"), name: rows.column("name"),
            status: rows.column("status"), startsAt: rows.column("starts_at"), endsAt: rows.column("ends_at"),
            priority: rows.column("priority"), locales: rows.column("locales"), messageKey: rows.column("message_key"),
            appID: rows.column("app_id"), createdAt: rows.column("created_at"), updatedAt: rows.column("updated_at"),
            pushSound: rows.column("push_sound"), pushBadge: rows.column("push_badge"))
        // A restriction's text (`{de,en}`) gives the same locales on every campaign that has
        // it: each distinct text is parsed and validated once, and its sorted, unique form is
        // the one CampaignSpec made from it the first time.
        var restrictions: [String: [LocaleTag]] = [:]
        var campaigns: [CampaignRecord] = []
        campaigns.reserveCapacity(rows.count)
        for row in rows {
            let id: Int64 = try row.decode(column.id)
            let key = try Slug(try row.decode(column.key, as: String.self))
            let kind: CampaignKind = try decodeEnum(row, column.kind)
            let name: String = try row.decode(column.name)
            let status: CampaignStatus = try decodeEnum(row, column.status)
            let startsAt: Date? = try row.decode(column.startsAt)
            let endsAt: Date? = try row.decode(column.endsAt)
            let priority: Int = try row.decode(column.priority)
            let restriction = try row.decode(column.locales, as: String?.self)
            let known = restriction.flatMap { restrictions[$0] }
            let locales = known == nil ? try row.decode(column.locales, as: [String]?.self)?.map { try LocaleTag($0) } : nil
            var spec = CampaignSpec(
                key: key, kind: kind, name: name, status: status, startsAt: startsAt, endsAt: endsAt, priority: priority,
                locales: locales, messageKey: try row.decode(column.messageKey, as: String?.self).map { try MessageKey($0) })
            spec.push = PushOptions(
                sound: try row.decode(column.pushSound, as: String?.self).map { try SoundName($0) },
                badge: try row.decode(column.pushBadge, as: String?.self).map { try PushBadge($0) })
            if let known {
                spec.locales = known
            } else if let restriction, let made = spec.locales {
                restrictions[restriction] = made
            }
            campaigns.append(
                CampaignRecord(
                    id: id, appID: try row.decode(column.appID), spec: spec,
                    createdAt: try row.decode(column.createdAt), updatedAt: try row.decode(column.updatedAt)))
        }
        return campaigns
    }

    /// Each campaign's conditions as a set, or why they make none (thrown for the campaign
    /// when the load gets to it, as building the set there did).
    private static func decodeConditions(_ rows: QueryResult) throws -> [Int64: Result<ConditionSet, ValidationError>] {
        let grp = rows.column("grp"), typeColumn = rows.column("type"), valueColumn = rows.column("value")
        let campaignID = rows.column("campaign_id")
        var lists: [Int64: [Condition]] = [:]
        // Rows come in no order, but a campaign's usually together: its list is then stored once.
        var open: (id: Int64, conditions: [Condition])?
        func close() {
            if let open { lists[open.id, default: []] += open.conditions }
        }
        for row in rows {
            let group: ConditionGroup = try decodeEnum(row, grp)
            let type: ConditionType = try decodeEnum(row, typeColumn)
            let value = try ConditionValue(jsonText: try row.decode(valueColumn), for: type)
            let id: Int64 = try row.decode(campaignID)
            let condition = Condition(group: group, type: type, value: value)
            if open?.id == id {
                open?.conditions.append(condition)
            } else {
                close()
                open = (id, [condition])
            }
        }
        close()
        return lists.mapValues { list in
            do throws(ValidationError) {
                return .success(try ConditionSet(list))
            } catch {
                return .failure(error)
            }
        }
    }

    typealias ContentByCampaign = [Int64: [LocaleTag: CampaignContent]]

    private static func decodeBanners(_ rows: QueryResult) throws -> ContentByCampaign {
        let entryView = rows.column("entry_view"), fileURL = rows.column("file_url"), inlineHTML = rows.column("inline_html")
        let originColumn = rows.column("origin"), viewID = rows.column("view_id"), height = rows.column("height")
        var banners = ContentGroups<BannerContent>(wrap: CampaignContent.banner) {
            if case .banner(let banner) = $0 { banner } else { nil }
        }
        try forEachContentRow(rows, byPosition: true) { id, locale, row in
            let entry = try Slug(try row.decode(entryView, as: String.self))
            let source: BannerView.Source =
                if let file = try row.decode(fileURL, as: String?.self) {
                    .file(try HTTPURL(file))
                } else {
                    .html(try row.decode(inlineHTML, as: String.self))
                }
            let origin = try row.decode(originColumn, as: String?.self).flatMap(ViewOrigin.init(rawValue:))
            let view = BannerView(
                id: try Slug(try row.decode(viewID, as: String.self)), source: source, height: try row.decode(height), origin: origin)
            // Views in position order; the entry of the banner's last row (every row has it).
            banners.update(id: id, locale: locale) { banner in
                if banner == nil {
                    banner = BannerContent(entry: entry, views: [view])
                } else {
                    banner?.entry = entry
                    banner?.views.append(view)
                }
            }
        }
        return banners.finish()
    }

    private static func decodeAlerts(_ rows: QueryResult) throws -> ContentByCampaign {
        let title = rows.column("title"), message = rows.column("message"), actionURL = rows.column("action_url")
        let actionButton = rows.column("action_button")
        var alerts = ContentGroups<AlertContent>(wrap: CampaignContent.alert) {
            if case .alert(let alert) = $0 { alert } else { nil }
        }
        try forEachContentRow(rows, byPosition: false) { id, locale, row in
            let alert = AlertContent(
                title: try row.decode(title),
                message: try row.decode(message),
                actionURL: try row.decode(actionURL, as: String?.self).map { try LinkURL($0) },
                actionButton: try row.decode(actionButton))
            // The last row of a campaign and locale wins.
            alerts.update(id: id, locale: locale) { $0 = alert }
        }
        return alerts.finish()
    }

    private static func decodeStories(_ rows: QueryResult) throws -> ContentByCampaign {
        let pushTitle = rows.column("push_title"), pushText = rows.column("push_text"), imageColumn = rows.column("image")
        let duration = rows.column("duration"), link = rows.column("link"), buttonTitle = rows.column("button_title")
        let title = rows.column("title"), subtitle = rows.column("subtitle")
        var stories = ContentGroups<StoryContent>(wrap: CampaignContent.story) {
            if case .story(let story) = $0 { story } else { nil }
        }
        try forEachContentRow(rows, byPosition: true) { id, locale, row in
            try stories.update(id: id, locale: locale) { story in
                // The push texts of a story's first row; a row without an image is a story without pages.
                if story == nil {
                    story = StoryContent(pushTitle: try row.decode(pushTitle), pushText: try row.decode(pushText), pages: [])
                }
                if let image = try row.decode(imageColumn, as: String?.self) {
                    story?.pages.append(
                        StoryPage(
                            image: try HTTPURL(image),
                            duration: try row.decode(duration),
                            link: try row.decode(link, as: String?.self).map { try LinkURL($0) },
                            buttonTitle: try row.decode(buttonTitle),
                            title: try row.decode(title),
                            subtitle: try row.decode(subtitle)))
                }
            }
        }
        return stories.finish()
    }

    /// Each local campaign's notification, and its words by locale.
    private static func decodeLocals(_ rows: QueryResult) throws -> DecodedParts.Part {
        let campaignID = rows.column("campaign_id"), fireAt = rows.column("fire_at"), wallClock = rows.column("fire_wall_clock")
        let repeatColumn = rows.column("repeat_interval"), badge = rows.column("badge"), sound = rows.column("sound")
        let launchImage = rows.column("launch_image"), hasAction = rows.column("has_action")
        let infoNames = rows.column("info_names"), infoValues = rows.column("info_values")
        let locale = rows.column("locale"), body = rows.column("body"), action = rows.column("action")
        var notifications: [Int64: LocalNotification] = [:]
        var words: ContentByCampaign = [:]
        var locales = LocaleTags()
        for row in rows {
            let id: Int64 = try row.decode(campaignID)
            if notifications[id] == nil {
                let fireDate: FireDate =
                    if let instant = try row.decode(fireAt, as: Date?.self) {
                        .instant(instant)
                    } else {
                        try FireDate(try row.decode(wallClock, as: String.self))
                    }
                let names = try row.decode(infoNames, as: [String].self)
                let values = try row.decode(infoValues, as: [String].self)
                notifications[id] = LocalNotification(
                    fireDate: fireDate,
                    repeatInterval: try row.decode(repeatColumn, as: String?.self).map { try RepeatInterval($0) },
                    badge: try row.decode(badge), sound: try row.decode(sound, as: String?.self).map { try SoundName($0) },
                    launchImage: try row.decode(launchImage, as: String?.self).map { try BundleFileName($0) },
                    hasAction: try row.decode(hasAction),
                    userInfo: Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first }))
            }
            guard let tag = try row.decode(locale, as: String?.self) else { continue }
            words[id, default: [:]][try locales.tag(tag)] = .local(
                LocalContent(body: try row.decode(body), action: try row.decode(action)))
        }
        return .locals(notifications, words)
    }
}

/// One kind of content read row by row, by campaign and locale. The loader reads the rows of
/// one campaign and locale one after another (`forEachContentRow`), so each is looked up and stored
/// once; a row out of that order would still join what came before it for its campaign and locale.
private struct ContentGroups<Item> {
    private var groups: CampaignLoader.ContentByCampaign = [:]
    private var open: (id: Int64, locale: LocaleTag)?
    private var item: Item?
    private let wrap: (Item) -> CampaignContent
    private let unwrap: (CampaignContent) -> Item?

    init(wrap: @escaping (Item) -> CampaignContent, unwrap: @escaping (CampaignContent) -> Item?) {
        self.wrap = wrap
        self.unwrap = unwrap
    }

    /// `body` gets the content of `id` and `locale` so far (nil: none yet) to change.
    mutating func update(id: Int64, locale: LocaleTag, _ body: (inout Item?) throws -> Void) rethrows {
        if open?.id != id || open?.locale != locale {
            close()
            open = (id, locale)
            item = groups[id]?[locale].flatMap(unwrap)
        }
        try body(&item)
    }

    private mutating func close() {
        if let open, let item { groups[open.id, default: [:]][open.locale] = wrap(item) }
        open = nil
        item = nil
    }

    mutating func finish() -> CampaignLoader.ContentByCampaign {
        close()
        return groups
    }
}

/// `decodeEnum` for a column found once.
private func decodeEnum<E: RawRepresentable>(_ row: Row, _ column: Column, as type: E.Type = E.self) throws -> E
where E.RawValue == String {
    let text = try row.decode(column, as: String.self)
    guard let value = E(rawValue: text) else {
        throw StoreError.database("column \(column.name) holds \"\(text)\", which this herald does not know")
    }
    return value
}

/// Locale tags by the text a column holds: a read has a few locales on thousands of rows, so
/// each distinct text is validated once (the same text always gives the same tag or error).
private struct LocaleTags {
    private var known: [String: LocaleTag] = [:]

    mutating func tag(_ text: String) throws(ValidationError) -> LocaleTag {
        if let tag = known[text] { return tag }
        let tag = try LocaleTag(text)
        // Bounded: a table full of distinct texts is validated row by row as before.
        if known.count < 64 { known[text] = tag }
        return tag
    }
}

/// The six decoded parts of a load, each set by one concurrent iteration.
private final class DecodedParts: Sendable {
    enum Part {
        case conditions([Int64: Result<ConditionSet, ValidationError>])
        case content(CampaignLoader.ContentByCampaign)
        /// Local campaigns' notifications and words.
        case locals([Int64: LocalNotification], CampaignLoader.ContentByCampaign)
        case campaigns([CampaignRecord])
    }

    private let parts = Mutex<[Int: Result<Part, any Error>]>([:])

    func set(_ index: Int, _ make: () throws -> Part) {
        let result = Result { try make() }
        parts.withLock { $0[index] = result }
    }

    /// In order; the first failure is thrown.
    func results() throws -> [Part] {
        let ordered = parts.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
        return try ordered.map { try $0.get() }
    }
}

import Foundation
import HeraldCore
import PostgresClient
import Synchronization

/// Loads whole campaigns in five queries whatever their number: campaigns, conditions and
/// one per content kind (queries/campaigns.sql). The same loader serves `show`, `export` and
/// the publisher's snapshot.
struct CampaignLoader {
    let connection: Connection

    /// The campaigns of `apps`: all of them, only the one with `key`, or only the active ones.
    func load(apps: [Int64], key: Slug? = nil, activeOnly: Bool = false) throws -> [CampaignRecord] {
        let parameters: [any PostgresEncodable] = [apps.map(String.init), key?.rawValue, activeOnly]
        let rows = try connection.query(Query.loadCampaigns.sql, parameters)
        guard !rows.isEmpty else { return [] }
        // Four fixed queries, one after another on the connection, each selecting the same
        // campaigns by the same filter (one transaction: the same rows). A join on the filter,
        // not a list of ids: tens of thousands of ids in an array cost the server more.
        // Each part is decoded on another core while the next one is fetched; the campaigns'
        // own columns too, from the first query on (decoded last, they held up the snapshot).
        let decoded = DecodedParts()
        let decoding = DispatchGroup()
        defer { decoding.wait() }
        DispatchQueue.global().async(group: decoding) {
            decoded.set(4) { .campaigns(try Self.decodeCampaigns(rows)) }
        }
        for (part, query) in [Query.loadConditions, .loadBanners, .loadAlerts, .loadStories].enumerated() {
            let rows = try connection.query(query.sql, parameters)
            DispatchQueue.global().async(group: decoding) {
                decoded.set(part) {
                    switch part {
                    case 0: .conditions(try Self.decodeConditions(rows))
                    case 1: .content(try Self.decodeBanners(rows))
                    case 2: .content(try Self.decodeAlerts(rows))
                    default: .content(try Self.decodeStories(rows))
                    }
                }
            }
        }
        decoding.wait()
        var conditions: [Int64: [Condition]] = [:]
        var content: ContentByCampaign = [:]
        var campaigns: [CampaignRecord] = []
        for part in try decoded.results() {
            switch part {
            case .conditions(let found): conditions = found
            case .content(let found): content.merge(found) { $1 }
            case .campaigns(let found): campaigns = found
            }
        }
        for index in campaigns.indices {
            let id = campaigns[index].id
            campaigns[index].spec.conditions = try ConditionSet(conditions[id] ?? [])
            campaigns[index].spec.content = content[id] ?? [:]
        }
        return campaigns
    }

    /// The campaigns' own columns; their conditions and content are filled in from the other parts.
    private static func decodeCampaigns(_ rows: QueryResult) throws -> [CampaignRecord] {
        try rows.map { row in
            let id: Int64 = try row.decode("id")
            let spec = CampaignSpec(
                key: try Slug(try row.decode("key", as: String.self)),
                kind: try decodeEnum(row, "kind"),
                name: try row.decode("name"),
                status: try decodeEnum(row, "status"),
                startsAt: try row.decode("starts_at"),
                endsAt: try row.decode("ends_at"),
                priority: try row.decode("priority"),
                locales: try row.decode("locales", as: [String]?.self)?.map { try LocaleTag($0) },
                messageKey: try row.decode("message_key", as: String?.self).map { try MessageKey($0) })
            return CampaignRecord(
                id: id, appID: try row.decode("app_id"), spec: spec,
                createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
        }
    }

    private static func decodeConditions(_ rows: QueryResult) throws -> [Int64: [Condition]] {
        var result: [Int64: [Condition]] = [:]
        for row in rows {
            let group: ConditionGroup = try decodeEnum(row, "grp")
            let type: ConditionType = try decodeEnum(row, "type")
            let value = try ConditionValue(jsonText: try row.decode("value"), for: type)
            result[try row.decode("campaign_id"), default: []].append(Condition(group: group, type: type, value: value))
        }
        return result
    }

    typealias ContentByCampaign = [Int64: [LocaleTag: CampaignContent]]

    private static func decodeBanners(_ rows: QueryResult) throws -> ContentByCampaign {
        var entries: [Int64: [LocaleTag: Slug]] = [:]
        var views: [Int64: [LocaleTag: [BannerView]]] = [:]
        for row in rows {
            let id: Int64 = try row.decode("campaign_id")
            let locale = try LocaleTag(try row.decode("locale", as: String.self))
            entries[id, default: [:]][locale] = try Slug(try row.decode("entry_view", as: String.self))
            let source: BannerView.Source =
                if let file = try row.decode("file_url", as: String?.self) {
                    .file(try HTTPURL(file))
                } else {
                    .html(try row.decode("inline_html", as: String.self))
                }
            let origin = try row.decode("origin", as: String?.self).flatMap(ViewOrigin.init(rawValue:))
            views[id, default: [:]][locale, default: []].append(
                BannerView(
                    id: try Slug(try row.decode("view_id", as: String.self)), source: source,
                    height: try row.decode("height"), origin: origin))
        }
        var result: ContentByCampaign = [:]
        for (id, byLocale) in entries {
            for (locale, entry) in byLocale {
                result[id, default: [:]][locale] = .banner(
                    BannerContent(entry: entry, views: views[id]?[locale] ?? []))
            }
        }
        return result
    }

    private static func decodeAlerts(_ rows: QueryResult) throws -> ContentByCampaign {
        var result: ContentByCampaign = [:]
        for row in rows {
            let alert = AlertContent(
                title: try row.decode("title"),
                message: try row.decode("message"),
                actionURL: try row.decode("action_url", as: String?.self).map { try LinkURL($0) },
                actionButton: try row.decode("action_button"))
            result[try row.decode("campaign_id"), default: [:]][try LocaleTag(try row.decode("locale", as: String.self))] =
                .alert(alert)
        }
        return result
    }

    private static func decodeStories(_ rows: QueryResult) throws -> ContentByCampaign {
        var result: ContentByCampaign = [:]
        var stories: [Int64: [LocaleTag: StoryContent]] = [:]
        for row in rows {
            let id: Int64 = try row.decode("campaign_id")
            let locale = try LocaleTag(try row.decode("locale", as: String.self))
            var story = try stories[id]?[locale]
                ?? StoryContent(pushTitle: row.decode("push_title"), pushText: row.decode("push_text"), pages: [])
            if let image = try row.decode("image", as: String?.self) {
                story.pages.append(
                    StoryPage(
                        image: try HTTPURL(image),
                        duration: try row.decode("duration"),
                        link: try row.decode("link", as: String?.self).map { try LinkURL($0) },
                        buttonTitle: try row.decode("button_title"),
                        title: try row.decode("title"),
                        subtitle: try row.decode("subtitle")))
            }
            stories[id, default: [:]][locale] = story
        }
        for (id, byLocale) in stories {
            for (locale, story) in byLocale { result[id, default: [:]][locale] = .story(story) }
        }
        return result
    }
}

/// The five decoded parts of a load, each set by one concurrent iteration.
private final class DecodedParts: Sendable {
    enum Part {
        case conditions([Int64: [Condition]])
        case content(CampaignLoader.ContentByCampaign)
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

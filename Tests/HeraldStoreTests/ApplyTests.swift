import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient
import PropertyBased
import Testing

/// The set-based apply against the campaign-by-campaign one it replaced (ReferenceApplier):
/// the same files, applied one after another to two databases, give the same plans (or the
/// same refusal), the same exports and the same audit rows; and each file that applies leaves
/// the database exactly as it says.
@Suite struct SetBasedApplyTests {
    static let now = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z

    /// Every file of a real-looking sequence: the example, then edits of it.
    @Test func theExampleAndEditsOfItWriteWhatTheReferenceApplyWrote() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
        let text = try String(contentsOf: example, encoding: .utf8)
        let edits: [(String, String)] = [
            ("", ""),  // the example as it is
            ("name: Spring sale", "name: Spring sale!"),  // a rename
            ("endsAt: 2027-06-01T00:00:00Z", "endsAt: 2027-07-01T00:00:00Z"),  // a schedule
            ("messageKey: 2026/05/01", "messageKey: 2026/05/02"),  // a new message key
            ("any: {onWifi: true, lastDisplayMinimumLaunches: 5}", "any: {onWifi: false, neverDisplayed: true}"),  // conditions
            ("de: {title: Willkommen, message: Danke fürs Installieren}", "de: {title: Hallo, message: Danke}"),  // content
            ("locales: [de, en, pt-BR]", "locales: [de, en, fr, pt-BR]"),  // a locale added to the app
        ]
        try withTwoDatabases { pair in
            var current = text
            for (old, new) in edits {
                if !old.isEmpty {
                    #expect(current.contains(old), "\(old)")
                    current = current.replacingOccurrences(of: old, with: new)
                }
                let document = try CampaignsDocument.parse(current, fileName: "campaigns.yaml").get()
                let outcome = try pair.applyBoth(document)
                #expect(outcome.new == outcome.reference, "\(new)")
                #expect(outcome.new.succeeded, "\(outcome.new)")
                try pair.expectSameState()
            }
            // Dropping a campaign archives it; the unchanged file changes nothing.
            let withoutTour = try CampaignsDocument.parse(current, fileName: "campaigns.yaml").get()
            var dropped = withoutTour
            dropped.tenants[0].apps[0].campaigns.removeAll { $0.key.rawValue == "tour" }
            for document in [dropped, dropped, withoutTour] {
                let outcome = try pair.applyBoth(document)
                #expect(outcome.new == outcome.reference)
                try pair.expectSameState()
            }
            let again = try pair.applyBoth(withoutTour)
            #expect(again.new == .applied([]))
        }
    }

    /// Random sequences of campaigns files (two apps, six campaign keys, values from small
    /// pools so that renames, schedule and content changes, locales added and removed,
    /// campaigns dropped and re-added, conditions and message keys changing all come up, and
    /// some files are refused): after each file both appliers agree, and a file that applies
    /// leaves the tenant exactly as it says (the export is the file's canonical form, plus
    /// the campaigns it no longer lists, archived, and the apps it does not list, untouched).
    /// Each sequence has a tenant of its own in the same two databases.
    @Test func randomSequencesOfFilesLeaveTheDatabaseAsTheLastFileSays() async throws {
        try await HeraldFixtures.withMigratedDatabase { newConfiguration in
            try await HeraldFixtures.withMigratedDatabase { referenceConfiguration in
                let new = try HeraldDatabase(configuration: newConfiguration, actor: "apply-test")
                let reference = try HeraldDatabase(configuration: referenceConfiguration, actor: "apply-test")
                await propertyCheck(count: 8, input: Gen.int(in: 0...Int(Int32.max)).array(of: 2...6)) { seeds in
                    do {
                        let tenant = try Slug("t-" + UUID().uuidString.prefix(12).lowercased())
                        let pair = Pair(
                            new: new, reference: reference, newConfiguration: newConfiguration,
                            referenceConfiguration: referenceConfiguration, tenant: tenant)
                        try Self.check(seeds, pair)
                    } catch {
                        Issue.record(error, "seeds \(seeds)")
                    }
                }
            }
        }
    }

    static func check(_ seeds: [Int], _ pair: Pair) throws {
        var model = TenantModel()
        for (index, seed) in seeds.enumerated() {
            var random = SplitMix(seed: UInt64(seed))
            let document = try RandomCampaignsFile.document(&random, tenant: pair.tenant)
            let before = try pair.writes()
            let outcome = try pair.applyBoth(document)
            #expect(outcome.new == outcome.reference, "seeds \(seeds), file \(index)")
            try pair.expectSameState("seeds \(seeds), file \(index)")
            if outcome.new.succeeded {
                model.applied(document.tenants[0], now: Self.now)
                #expect(try pair.export(pair.new) == model.yaml(), "seeds \(seeds), file \(index)")
                // The same file again: nothing to do, nothing written.
                let applied = try pair.writes()
                let again = try pair.new.transaction { try CampaignsApplier(now: Self.now).apply(document, in: $0) }
                #expect(again.isEmpty, "seeds \(seeds), file \(index): \(again)")
                #expect(try pair.writes() == applied, "seeds \(seeds), file \(index): the same file again wrote something")
            } else {
                #expect(try pair.writes() == before, "seeds \(seeds), file \(index): a refused file wrote something")
            }
        }
    }

    // MARK: Support

    enum Outcome: Equatable, CustomStringConvertible {
        case applied([ApplyStep])
        case refused(String)

        var succeeded: Bool {
            if case .applied = self { return true }
            return false
        }

        var description: String {
            switch self {
            case .applied(let steps): steps.map(\.description).joined(separator: "\n")
            case .refused(let message): "refused: \(message)"
            }
        }
    }

    /// Two databases fed the same files: one by the set-based apply, one by the reference.
    struct Pair {
        let new: HeraldDatabase
        let reference: HeraldDatabase
        let newConfiguration: ConnectionConfiguration
        let referenceConfiguration: ConnectionConfiguration
        /// The tenant the files are about (the rest of the databases is compared too, as a
        /// whole, by fingerprints).
        let tenant: Slug

        func applyBoth(_ document: CampaignsDocument) throws -> (new: Outcome, reference: Outcome) {
            func outcome(_ body: () throws -> [ApplyStep]) -> Outcome {
                do {
                    return .applied(try body())
                } catch {
                    return .refused("\(error)")
                }
            }
            return (
                outcome { try new.transaction { try CampaignsApplier(now: SetBasedApplyTests.now).apply(document, in: $0) } },
                outcome { try reference.transaction { try ReferenceApplier(now: SetBasedApplyTests.now).apply(document, in: $0) } }
            )
        }

        /// The tenant as `herald export` writes it ("" before it exists).
        func export(_ database: HeraldDatabase) throws -> String {
            let tenants = try database.asOperator(readOnly: true) { try $0.tenants.list() }
            guard tenants.contains(where: { $0.slug == tenant }) else { return "" }
            let spec = try database.inTenant(tenant, readOnly: true) { try $0.spec() }
            return CampaignsDocument(tenants: [spec]).yaml()
        }

        /// The same export, and the same audit rows (ids and times aside: identities are
        /// spent differently by a refused file, which the set-based apply refuses before writing).
        func expectSameState(_ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try export(new) == export(reference), "\(context)", sourceLocation: sourceLocation)
            let newAudit = try AuditRows.normalized(newConfiguration, tenant: tenant)
            let referenceAudit = try AuditRows.normalized(referenceConfiguration, tenant: tenant)
            #expect(newAudit.count == referenceAudit.count, "\(context)", sourceLocation: sourceLocation)
            let missing = referenceAudit.subtracting(newAudit)
            let extra = newAudit.subtracting(referenceAudit)
            #expect(missing.isEmpty && extra.isEmpty, "\(context) missing \(missing) extra \(extra)", sourceLocation: sourceLocation)
            // Rows rewritten with nothing changed leave no audit row, but a new updated_at:
            // the same rows were last written by the same applies.
            #expect(
                try touches(newConfiguration) == touches(referenceConfiguration), "\(context)", sourceLocation: sourceLocation)
        }

        /// What the new database's writes left: every write is audited, and a row written
        /// again unchanged gets a new updated_at.
        func writes() throws -> [String] {
            let audited: Int = try Connection(configuration: newConfiguration).query("SELECT count(*) AS n FROM audit_log")[0].decode("n")
            return ["\(audited) audit rows"] + (try touches(newConfiguration))
        }

        /// The tenant, its apps and campaigns grouped by the transaction that last wrote them
        /// (its now(), which every row it touched carries in updated_at), oldest first.
        func touches(_ configuration: ConnectionConfiguration) throws -> [String] {
            let connection = try Connection(configuration: configuration)
            return try connection.query(
                """
                SELECT string_agg(name, ' ' ORDER BY name) AS names
                FROM (SELECT c.tenant_id, c.updated_at, 'campaign:' || a.slug || '/' || c.key AS name
                      FROM campaigns c JOIN apps a ON a.id = c.app_id
                      UNION ALL SELECT tenant_id, updated_at, 'app:' || slug FROM apps
                      UNION ALL SELECT id, updated_at, 'tenant:' || slug FROM tenants) touched
                WHERE tenant_id = (SELECT id FROM tenants WHERE slug = $1)
                GROUP BY updated_at ORDER BY updated_at
                """, [tenant.rawValue]
            ).map { try $0.decode("names", as: String.self) }
        }
    }

    func withTwoDatabases(_ body: (Pair) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { newConfiguration in
            try HeraldFixtures.withMigratedDatabase { referenceConfiguration in
                try body(
                    Pair(
                        new: try HeraldDatabase(configuration: newConfiguration, actor: "apply-test"),
                        reference: try HeraldDatabase(configuration: referenceConfiguration, actor: "apply-test"),
                        newConfiguration: newConfiguration, referenceConfiguration: referenceConfiguration,
                        tenant: try Slug("acme")))
            }
        }
    }
}

/// The audit log as a multiset of rows, each with its ids replaced by names (campaign ids by
/// app/key, app ids by slug) and the row-keeping columns left out (ids, sequence numbers and
/// the transaction's times), so two databases that saw the same changes compare equal.
enum AuditRows {
    struct Multiset: Equatable, CustomStringConvertible {
        var counts: [String: Int] = [:]
        var count: Int { counts.values.reduce(0, +) }
        func subtracting(_ other: Multiset) -> [String] {
            counts.flatMap { row, count in Array(repeating: row, count: max(0, count - (other.counts[row] ?? 0))) }.sorted()
        }
        var description: String { counts.keys.sorted().joined(separator: "\n") }
    }

    static func normalized(_ configuration: ConnectionConfiguration, tenant: Slug) throws -> Multiset {
        // As the superuser, past row-level security.
        let connection = try Connection(configuration: configuration)
        var names: [String: [String: String]] = ["campaign": [:], "app": [:], "tenant": [:]]
        for row in try connection.query(
            "SELECT c.id::text AS id, a.slug || '/' || c.key AS name FROM campaigns c JOIN apps a ON a.id = c.app_id")
        {
            names["campaign"]?[try row.decode("id")] = try row.decode("name", as: String.self)
        }
        for row in try connection.query("SELECT id::text AS id, slug::text AS name FROM apps") {
            names["app"]?[try row.decode("id")] = try row.decode("name", as: String.self)
        }
        for row in try connection.query("SELECT id::text AS id, slug::text AS name FROM tenants") {
            names["tenant"]?[try row.decode("id")] = try row.decode("name", as: String.self)
        }
        func normalize(_ json: String?, entity: String) throws -> String {
            guard let json, var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                return "-"
            }
            for column in ["created_at", "updated_at", "assigned_at", "seq"] { object[column] = nil }
            func name(_ column: String, _ kind: String) {
                guard let value = object[column] else { return }
                let id = "\(value)"
                object[column] = names[kind]?[id] ?? "\(kind)#?"
            }
            name("tenant_id", "tenant")
            name("app_id", "app")
            name("campaign_id", "campaign")
            switch entity {
            case "campaigns": name("id", "campaign")
            case "apps": name("id", "app")
            case "tenants": name("id", "tenant")
            default: break
            }
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        var rows = Multiset()
        for row in try connection.query(
            """
            SELECT action, entity, entity_id, actor, before::text AS before, after::text AS after FROM audit_log
            WHERE tenant_id = (SELECT id FROM tenants WHERE slug = $1) ORDER BY id
            """, [tenant.rawValue])
        {
            let entity: String = try row.decode("entity")
            let text = [
                try row.decode("action", as: String.self), entity, try row.decode("entity_id", as: String?.self) ?? "-",
                try row.decode("actor", as: String.self),
                try normalize(row.decode("before", as: String?.self), entity: entity),
                try normalize(row.decode("after", as: String?.self), entity: entity),
            ].joined(separator: " ")
            rows.counts[text, default: 0] += 1
        }
        return rows
    }
}

/// What the tenant should hold after the files that applied, as the rules say: each listed
/// app as the file gives it; its campaigns as listed, the ones no longer listed archived as
/// they were; an alert without a message key keeps its key, or when new, gets the default
/// (the day it starts, with -2, -3… when taken); apps not listed stay as they were.
struct TenantModel {
    var slug: Slug?
    var name = ""
    var apps: [Slug: AppSpec] = [:]
    var takenKeys: [Slug: Set<String>] = [:]

    mutating func applied(_ tenant: TenantSpec, now: Date) {
        slug = tenant.slug
        name = tenant.name
        for app in tenant.apps {
            var campaigns = Dictionary(uniqueKeysWithValues: (apps[app.slug]?.campaigns ?? []).map { ($0.key, $0) })
            var taken = takenKeys[app.slug] ?? []
            for campaign in app.campaigns {
                var spec = campaign
                if spec.kind == .alert, spec.messageKey == nil {
                    spec.messageKey = campaigns[campaign.key]?.messageKey
                        ?? MessageKey.defaultKey(for: campaign.startsAt ?? now, taken: taken)
                }
                if let key = spec.messageKey { taken.insert(key.rawValue) }
                campaigns[campaign.key] = spec
            }
            let listed = Set(app.campaigns.map(\.key))
            for key in campaigns.keys where !listed.contains(key) { campaigns[key]?.status = .archived }
            var stored = app
            stored.campaigns = campaigns.values.sorted { $0.key < $1.key }
            apps[app.slug] = stored
            takenKeys[app.slug] = taken
        }
    }

    func yaml() -> String {
        guard let slug else { return "" }
        let tenant = TenantSpec(slug: slug, name: name, apps: apps.values.sorted { $0.slug < $1.slug })
        return CampaignsDocument(tenants: [tenant]).yaml()
    }
}

/// Campaigns files for one tenant drawn from small pools: apps weather and news (locales en,
/// de, fr, and pt-BR in most files; the default en or de), campaign keys a–b (banners), c–d
/// (alerts), e (a story) and x (a banner, or in some files another kind, which is refused),
/// a few names, times, locales, conditions, message keys and contents. Most files keep the
/// rules; about one in eight breaks one on purpose (content or a restriction in a locale the
/// app lacks, an end before the start, an activation that could not be published, a kind that
/// changes, a message key given to two campaigns), and some are refused because of what came
/// before (a message key used earlier, content of a campaign to archive in a locale removed).
enum RandomCampaignsFile {
    enum Fault: CaseIterable {
        case unsupportedContent, unsupportedRestriction, endBeforeStart, unpublishableActivation, kindChange, sharedMessageKey
    }

    static let dates: [Date?] = [nil, date("2026-05-01T00:00:00Z"), date("2026-06-15T08:30:00Z")]
    static let ends: [Date?] = [nil, nil, date("2026-07-01T00:00:00Z"), date("2026-09-01T00:00:00Z")]

    static func date(_ text: String) -> Date? { Timestamp.parse(text) }

    static func document(_ random: inout SplitMix, tenant: Slug) throws -> CampaignsDocument {
        let fault = random.chance(12) ? random.pick(Fault.allCases) : nil
        var apps: [AppSpec] = []
        for slug in ["weather", "news"] where random.chance(85) { apps.append(try app(slug, &random)) }
        if apps.isEmpty { apps.append(try app("weather", &random)) }
        if let fault { try breakRule(fault, in: &apps[random.int(0...(apps.count - 1))], &random) }
        return CampaignsDocument(tenants: [TenantSpec(slug: tenant, name: random.pick(["Acme", "Acme Corp"]), apps: apps)])
    }

    static func app(_ slug: String, _ random: inout SplitMix) throws -> AppSpec {
        let defaultLocale = try LocaleTag(random.chance(80) ? "en" : "de")
        var locales = try ["en", "de", "fr"].map { try LocaleTag($0) }
        if random.chance(70) { locales.append(try LocaleTag("pt-BR")) }
        var campaigns: [CampaignSpec] = []
        for key in ["a", "b", "c", "d", "e", "f", "x"] where random.chance(70) {
            campaigns.append(try campaign(key, locales: locales, defaultLocale: defaultLocale, &random))
        }
        return AppSpec(
            slug: try Slug(slug), name: random.pick([slug.capitalized, slug.capitalized + " 2"]),
            platform: random.chance(85) ? .ios : .macos, bundleID: random.pick(["com.acme.\(slug)", "com.acme.\(slug)2"]),
            defaultLocale: defaultLocale, locales: locales,
            baseURL: random.chance(50) ? try HTTPURL("https://static.example.com/\(slug)") : nil, campaigns: campaigns)
    }

    static func campaign(_ key: String, locales: [LocaleTag], defaultLocale: LocaleTag, _ random: inout SplitMix) throws
        -> CampaignSpec
    {
        let kind: CampaignKind =
            switch key {
            case "c", "d": .alert
            case "e": .story
            case "f": .local
            default: .banner
            }
        let status: CampaignStatus = random.pick([.draft, .draft, .draft, .paused, .paused, .active, .active, .active, .archived])
        var restriction: [LocaleTag]?
        if random.chance(30) {
            restriction = locales.filter { _ in random.chance(60) }
            if restriction?.isEmpty == true || status == .active { restriction?.append(defaultLocale) }
        }
        var content: [LocaleTag: CampaignContent] = [:]
        for locale in locales where random.chance(locale.rawValue == "pt-BR" ? 15 : 65) {
            content[locale] = try self.content(kind, &random)
        }
        if status == .active, content[defaultLocale] == nil { content[defaultLocale] = try self.content(kind, &random) }
        var messageKey: MessageKey?
        if kind == .alert, random.chance(40) {
            // Mostly the campaign's own keys (a few, so it goes back to an old one now and then).
            messageKey = try MessageKey("\(key)-\(random.pick(["1", "2", "3", "4", "5", "6", "1"]))")
        }
        var push = PushOptions()
        if kind == .story {
            push.sound = random.chance(50) ? try SoundName(random.pick(["default", "Chime.caf"])) : nil
            push.badge = random.chance(50) ? try PushBadge(random.pick(["0", "3", "+1", "-1"])) : nil
        }
        let notification = kind == .local ? try self.notification(&random) : nil
        if notification?.hasAction == false {
            // Words without an action: a notification without one has no label to show.
            for (locale, words) in content { if case .local(var local) = words { local.action = nil; content[locale] = .local(local) } }
        }
        return CampaignSpec(
            key: try Slug(key), kind: kind, name: random.pick([key.uppercased(), "\(key.uppercased()) renamed"]), status: status,
            startsAt: random.pick(dates), endsAt: random.pick(ends), priority: random.int(0...2), locales: restriction,
            conditions: try conditions(kind, &random), messageKey: messageKey, content: content, localNotification: notification,
            push: push)
    }

    /// A local campaign's notification: instants and wall-clock times, each field now and then.
    static func notification(_ random: inout SplitMix) throws -> LocalNotification {
        var notification = LocalNotification(fireDate: try FireDate(random.pick(["2030-12-24T09:00", "2030-12-24T08:00:00Z", "2031-01-01T00:00"])))
        if random.chance(50) { notification.repeatInterval = random.pick([.day, .week, .year]) }
        if random.chance(40) { notification.badge = random.int(0...3) }
        if random.chance(50) { notification.sound = try SoundName(random.pick(["default", "Bell.wav"])) }
        if random.chance(30) { notification.launchImage = try BundleFileName("Launch.png") }
        if random.chance(20) { notification.hasAction = false }
        if random.chance(50) { notification.userInfo["screen"] = random.pick(["radar", "forecast"]) }
        if random.chance(30) { notification.userInfo["source"] = "herald & co" }
        return notification
    }

    static func breakRule(_ fault: Fault, in app: inout AppSpec, _ random: inout SplitMix) throws {
        let spanish = try LocaleTag("es")
        guard !app.campaigns.isEmpty else { return }
        let index = random.int(0...(app.campaigns.count - 1))
        switch fault {
        case .unsupportedContent:
            app.campaigns[index].content[spanish] = try content(app.campaigns[index].kind, &random)
        case .unsupportedRestriction:
            app.campaigns[index].locales = [spanish]
        case .endBeforeStart:
            app.campaigns[index].startsAt = date("2026-06-15T08:30:00Z")
            app.campaigns[index].endsAt = date("2026-05-20T00:00:00Z")
        case .unpublishableActivation:
            app.campaigns[index].status = .active
            app.campaigns[index].content = [:]
        case .kindChange:
            guard let x = app.campaigns.firstIndex(where: { $0.key.rawValue == "x" }) else { return }
            let kind = random.pick([CampaignKind.alert, .story])
            let conditions = kind == .alert ? try conditions(.alert, &random) : ConditionSet()
            let content = try Dictionary(uniqueKeysWithValues: app.campaigns[x].content.keys.map { ($0, try self.content(kind, &random)) })
            app.campaigns[x] = CampaignSpec(
                key: app.campaigns[x].key, kind: kind, name: app.campaigns[x].name, status: app.campaigns[x].status,
                conditions: conditions, content: content)
        case .sharedMessageKey:
            for alert in app.campaigns.indices where app.campaigns[alert].kind == .alert {
                app.campaigns[alert].messageKey = try MessageKey("shared")
            }
        }
    }

    static func conditions(_ kind: CampaignKind, _ random: inout SplitMix) throws -> ConditionSet {
        var set = ConditionSet()
        let choices: [String] =
            switch kind {
            case .banner:
                [random.pick(["onWifi=true", "onWifi=false"]), "neverDisplayed=true", "lastDisplayMinimumLaunches=\(random.int(1...3))",
                 random.pick(["appVersionLessThan=2.4", "appVersionLessThan=3.0.1"]), "flagNotSet=seen"]
            case .alert: [random.pick(["minAppVersion=1.0", "minAppVersion=1.2"]), random.pick(["maxAppVersion=3.0", "maxAppVersion=4"])]
            case .story, .local: []
            }
        for assignment in choices where random.chance(35) {
            let group: ConditionGroup = kind == .banner && random.chance(50) ? .any : .all
            set.set(try Condition.parse(group: group, assignment: assignment, kind: kind))
        }
        return set
    }

    static func content(_ kind: CampaignKind, _ random: inout SplitMix) throws -> CampaignContent {
        switch kind {
        case .banner:
            var views = [
                BannerView(
                    id: try Slug("main"), source: .file(try HTTPURL(random.pick(["https://cdn.example.com/a.html", "https://cdn.example.com/b.html"]))),
                    height: random.pick([nil, 88, 120.5]), origin: random.pick([nil, .top, .bottom]))
            ]
            if random.chance(50) {
                views.append(BannerView(id: try Slug("full"), source: .html(random.pick(["<h1>Hi</h1>", "<p>Hi & bye</p>"]))))
            }
            if random.chance(30) { views.reverse() }
            return .banner(BannerContent(entry: try Slug(random.pick(views.map(\.id.rawValue))), views: views))
        case .alert:
            let url = random.chance(50) ? try LinkURL(random.pick(["app://x", "https://example.com/y"])) : nil
            return .alert(
                AlertContent(
                    title: random.pick(["Hello", "Hi <you>"]), message: random.pick(["Welcome", "Welcome & enjoy"]), actionURL: url,
                    actionButton: url != nil && random.chance(50) ? "Go" : nil))
        case .story:
            var pages = [
                StoryPage(
                    image: try HTTPURL(random.pick(["https://cdn.example.com/1.jpg", "https://cdn.example.com/2.jpg"])),
                    duration: random.pick([nil, 5, 2.5]), title: random.pick([nil, "Radar"]))
            ]
            if random.chance(40) { pages.append(StoryPage(image: try HTTPURL("https://cdn.example.com/3.jpg"), link: try LinkURL("app://p"), buttonTitle: "Open")) }
            return .story(StoryContent(pushTitle: random.pick([nil, "New"]), pushText: random.pick(["See what's new", "Look"]), pages: pages))
        case .local:
            return .local(LocalContent(body: random.pick(["Rain soon.", "Snow <tonight> & more."]), action: random.pick([nil, "See"])))
        }
    }
}

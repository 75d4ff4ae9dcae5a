import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

@Suite struct CampaignRepositoryTests {
    /// A database with tenant acme and app weather, for the body.
    func withApp(_ body: (HeraldDatabase, AppRecord) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: "store-test")
            _ = try database.asOperator { try $0.tenants.create(slug: try Slug("acme"), name: "Acme") }
            let app = try database.inTenant(try Slug("acme")) { try $0.apps.create(try StoreFixtures.app("weather")) }
            try body(database, app)
        }
    }

    @Test(arguments: ["banner", "alert", "story", "story with push", "local", "local at an instant"])
    func everyKindRoundTripsExactly(kind: String) throws {
        try withApp { database, app in
            var spec =
                switch kind {
                case "banner": try StoreFixtures.banner("c1")
                case "alert": try StoreFixtures.alert("c1", messageKey: "promo/1")
                case "local", "local at an instant": try StoreFixtures.local("c1")
                default: try StoreFixtures.story("c1")
                }
            if kind == "story with push" { spec.push = PushOptions(sound: try SoundName("default"), badge: try PushBadge("-2")) }
            if kind == "local at an instant" {
                spec.localNotification?.fireDate = try FireDate("2030-12-24T09:00:00+05:30")
                spec.localNotification?.hasAction = false
                spec.localNotification?.userInfo = [:]
                spec.content[try LocaleTag("en")] = .local(LocalContent(body: "Rain."))
            }
            let created = try database.inTenant(try Slug("acme")) { try $0.campaigns.create(spec, in: app) }
            #expect(created.spec == spec)
            let reloaded = try database.inTenant(try Slug("acme")) { try $0.campaigns.find(spec.key, in: app) }
            #expect(reloaded.spec == spec)
            // Saving the same spec writes nothing.
            let changed = try database.inTenant(try Slug("acme")) { try $0.campaigns.save(spec, in: app) }
            #expect(changed.isEmpty)
        }
    }

    /// The loader's statements return rows in no order, and an update writes a row's new
    /// version after the others: campaigns still load by app and key, views and pages by position.
    @Test func rowsMovedByUpdatesStillLoadInOrder() throws {
        try withApp { database, app in
            let specs = [
                try StoreFixtures.banner("a"), try StoreFixtures.banner("b"), try StoreFixtures.story("c"), try StoreFixtures.banner("d"),
            ]
            for spec in specs { _ = try database.inTenant(try Slug("acme")) { try $0.campaigns.create(spec, in: app) } }
            let stored = try Connection(configuration: database.configuration)
            func column(_ sql: SQL, _ name: String) throws -> [String] {
                try stored.query(sql).map { try $0.decode(name, as: String.self) }
            }
            // New versions of campaign a, of every banner's first view and of the story's first page.
            try stored.execute("UPDATE campaigns SET name = name WHERE key = 'a'")
            try stored.execute("UPDATE banner_views SET view_id = view_id WHERE position = 0")
            try stored.execute("UPDATE story_pages SET image = image WHERE position = 0")
            // As stored, they now come back out of order, and a new session reads them as stored
            // (tables this small would otherwise be read through their indexes, in order).
            try #require(try column("SELECT key FROM campaigns", "key") != ["a", "b", "c", "d"])
            try #require(try column("SELECT position::text AS p FROM banner_views WHERE locale = 'en'", "p") != ["0", "1", "0", "1", "0", "1"])
            try #require(try column("SELECT position::text AS p FROM story_pages", "p") != ["0", "1"])
            try stored.execute(
                """
                DO $$ BEGIN
                    EXECUTE format('ALTER DATABASE %I SET enable_indexscan = off', current_database());
                    EXECUTE format('ALTER DATABASE %I SET enable_bitmapscan = off', current_database());
                END $$
                """)
            let reading = try HeraldDatabase(configuration: database.configuration, actor: "store-test")
            let loaded = try reading.inTenant(try Slug("acme")) { try $0.campaigns.load(appIDs: [app.id]) }
            #expect(loaded.map(\.spec) == specs)
        }
    }

    @Test func defaultMessageKeysAreTheStartDateWithSuffixesWhenTaken() throws {
        try withApp { database, app in
            let start = try #require(ISO8601DateFormatter().date(from: "2026-05-01T10:00:00Z"))
            let keys = try database.inTenant(try Slug("acme")) { session in
                try ["a", "b", "c"].map { key in
                    try session.campaigns.create(try StoreFixtures.alert(key, startsAt: start), in: app).spec.messageKey?.rawValue
                }
            }
            #expect(keys == ["2026/05/01", "2026/05/01-2", "2026/05/01-3"])
        }
    }

    /// However many alerts a day gets, their default keys sort in creation order (iNotify
    /// shows the newest first): the 10th is -b10, not -10 (which sorts before -2).
    @Test func theTenthAlertOfADaySortsAfterTheNinth() throws {
        try withApp { database, app in
            let start = try #require(ISO8601DateFormatter().date(from: "2026-05-01T10:00:00Z"))
            let keys = try database.inTenant(try Slug("acme")) { session in
                try (1...11).map { number in
                    try session.campaigns.create(try StoreFixtures.alert("a\(number)", startsAt: start), in: app).spec.messageKey?.rawValue ?? ""
                }
            }
            #expect(Array(keys.suffix(3)) == ["2026/05/01-9", "2026/05/01-b10", "2026/05/01-b11"])
            #expect(keys == keys.sorted { $0.caseInsensitiveCompare($1) == .orderedAscending })
        }
    }

    /// 7. iNotify sorts keys case-insensitively: promoA and PROMOA have no order, so an app
    /// never gets both, in HeraldCore's rules and in the database.
    @Test func messageKeysThatDifferOnlyInCaseAreRefused() throws {
        try withApp { database, app in
            let acme = try Slug("acme")
            try database.inTenant(acme) { _ = try $0.campaigns.create(try StoreFixtures.alert("first", messageKey: "promoA"), in: app) }
            let refused = #expect(performing: {
                try database.inTenant(acme) { try $0.campaigns.create(try StoreFixtures.alert("second", messageKey: "PROMOA"), in: app) }
            }, throws: isStoreError(.conflict)) as? StoreError
            #expect(refused?.description.contains("differs from that one only in case") == true)
            // Straight into the table, past Herald's code: the database says the same.
            let direct = #expect(performing: {
                try database.asOperator { session in
                    try session.connection.execute(
                        """
                        INSERT INTO alert_message_keys (tenant_id, app_id, campaign_id, message_key)
                        SELECT tenant_id, app_id, campaign_id, 'Promoa' FROM alert_message_keys WHERE message_key = 'promoA'
                        """)
                }
            }, throws: isStoreError(.conflict)) as? StoreError
            #expect(direct?.description.contains("only in case") == true)
            // A default key follows the day's keys in any case.
            let start = try #require(ISO8601DateFormatter().date(from: "2026-05-01T10:00:00Z"))
            try database.inTenant(acme) { session in
                _ = try session.campaigns.create(try StoreFixtures.alert("third", messageKey: "2026/05/01-B10"), in: app)
                let key = try session.campaigns.create(try StoreFixtures.alert("fourth", startsAt: start), in: app).spec.messageKey
                #expect(key?.rawValue == "2026/05/01-b11")
            }
        }
    }

    @Test func messageKeysAndCampaignKeysAreNeverReusedEvenAfterArchive() throws {
        try withApp { database, app in
            let acme = try Slug("acme")
            try database.inTenant(acme) { session in
                var alert = try session.campaigns.create(try StoreFixtures.alert("hello", messageKey: "2026/01/01"), in: app).spec
                alert.messageKey = try MessageKey("2026/01/02")
                #expect(try session.campaigns.save(alert, in: app) == ["messageKey"])
                try session.campaigns.setStatus(alert.key, .archived, in: app)
            }
            // The old key, the new key and the campaign key all stay taken.
            for messageKey in ["2026/01/01", "2026/01/02"] {
                #expect(performing: {
                    try database.inTenant(acme) {
                        try $0.campaigns.create(try StoreFixtures.alert("other", messageKey: messageKey), in: app)
                    }
                }, throws: isStoreError(.conflict))
            }
            let reuse = #expect(performing: {
                try database.inTenant(acme) { try $0.campaigns.create(try StoreFixtures.story("hello"), in: app) }
            }, throws: isStoreError(.conflict)) as? StoreError
            #expect(reuse?.description.contains("never reused") == true)
            // Going back to an old message key is refused as well.
            #expect(performing: {
                try database.inTenant(acme) { session in
                    var alert = try session.campaigns.find(try Slug("hello"), in: app).spec
                    alert.messageKey = try MessageKey("2026/01/01")
                    try session.campaigns.save(alert, in: app)
                }
            }, throws: isStoreError(.conflict))
        }
    }

    @Test func theDatabaseRefusesToDeleteOrRekeyCampaigns() throws {
        try withApp { database, app in
            let acme = try Slug("acme")
            try database.inTenant(acme) { _ = try $0.campaigns.create(try StoreFixtures.banner("spring"), in: app) }
            #expect(performing: {
                try database.asOperator { try $0.connection.execute("DELETE FROM campaigns") }
            }, throws: isStoreError(.permissionDenied))
            let rekey = #expect(performing: {
                try database.asOperator { try $0.connection.execute("UPDATE campaigns SET key = 'autumn'") }
            }, throws: isStoreError(.invalid)) as? StoreError
            #expect(rekey?.description.contains("devices remember") == true)
            #expect(performing: {
                try database.asOperator { try $0.connection.execute("DELETE FROM alert_message_keys") }
            }, throws: isStoreError(.permissionDenied))
        }
    }

    @Test func saveWritesOnlyWhatChangedAndTheAuditLogSaysWho() throws {
        try withApp { database, app in
            let acme = try Slug("acme")
            let changed = try database.inTenant(acme) { session in
                var spec = try session.campaigns.create(try StoreFixtures.banner("spring"), in: app).spec
                spec.name = "Spring!"
                spec.content[try LocaleTag("de")] = nil
                spec.conditions.set(try Condition.parse(group: .all, assignment: "neverDisplayed=true", kind: .banner))
                return try session.campaigns.save(spec, in: app)
            }
            #expect(changed == ["name", "conditions", "content.de"])
            let entries = try database.inTenant(acme, readOnly: true) { try $0.audit.entries(since: nil) }
            #expect(entries.allSatisfy { $0.actor == "store-test" })
            #expect(entries.contains { $0.entity == "campaigns" && $0.action == "update" && $0.entityID == "spring" })
            // Child rows are named by their campaign's key and what they are.
            #expect(entries.contains { $0.entity == "banner_contents" && $0.action == "delete" && $0.entityID == "spring de" })
            #expect(!entries.contains { $0.entity == "banner_contents" && $0.action == "delete" && $0.entityID == "spring en" })
            #expect(entries.contains { $0.entity == "campaign_conditions" && $0.entityID == "spring all.neverDisplayed" })
        }
    }

    @Test func activationRefusesWhatCouldNotBePublished() throws {
        try withApp { database, app in
            let acme = try Slug("acme")
            var bare = try StoreFixtures.story("bare")
            bare.content = [:]
            _ = try database.inTenant(acme) { try $0.campaigns.create(bare, in: app) }
            let error = #expect(performing: {
                try database.inTenant(acme) { try $0.campaigns.setStatus(try Slug("bare"), .active, in: app) }
            }, throws: isStoreError(.invalid)) as? StoreError
            #expect(error?.description.contains("cannot activate bare") == true)
            let status = try database.inTenant(acme) { try $0.campaigns.find(try Slug("bare"), in: app).spec.status }
            #expect(status == .draft)
        }
    }

    @Test func contentInALocaleTheAppDoesNotSupportIsRefused() throws {
        try withApp { database, app in
            var spec = try StoreFixtures.alert("hello")
            spec.content[try LocaleTag("fr")] = .alert(AlertContent(title: "Salut", message: "Bienvenue", actionURL: nil, actionButton: nil))
            let error = #expect(performing: {
                try database.inTenant(try Slug("acme")) { try $0.campaigns.create(spec, in: app) }
            }, throws: isStoreError(.invalid)) as? StoreError
            #expect(error?.description.contains("fr") == true)
        }
    }

    /// The schema holds the local and push rules itself, whatever writes the rows.
    @Test func theSchemaRefusesWhatHeraldsRulesRefuse() throws {
        try withApp { database, app in
            for spec in [try StoreFixtures.local("l1"), try StoreFixtures.banner("b1"), try StoreFixtures.story("s1")] {
                _ = try database.inTenant(try Slug("acme")) { try $0.campaigns.create(spec, in: app) }
            }
            let connection = try Connection(configuration: database.configuration)
            func id(_ key: String) throws -> Int64 { try connection.query("SELECT id FROM campaigns WHERE key = $1", [key])[0].decode("id") }
            let (local, banner, story) = (try id("l1"), try id("b1"), try id("s1"))
            let refused: [(SQL, [any PostgresEncodable])] = [
                ("UPDATE local_notifications SET badge = 100000 WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET badge = -1 WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET sound = 'Bell.mp3' WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET sound = '../Bell.caf' WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET launch_image = '.hidden.png' WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET fire_at = now() WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET fire_wall_clock = NULL WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET user_info = '{\"key\": \"other\"}' WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET user_info = '{\"n\": 1}' WHERE campaign_id = $1", [local]),
                ("UPDATE local_notifications SET user_info = '{\"1bad\": \"x\"}' WHERE campaign_id = $1", [local]),
                ("INSERT INTO local_notifications (tenant_id, campaign_id, fire_at) SELECT tenant_id, id, now() FROM campaigns WHERE id = $1", [banner]),
                ("INSERT INTO local_contents (tenant_id, campaign_id, locale, body) SELECT tenant_id, id, 'en', 'x' FROM campaigns WHERE id = $1", [story]),
                ("UPDATE local_contents SET body = '' WHERE campaign_id = $1", [local]),
                ("UPDATE campaigns SET push_sound = 'default' WHERE id = $1", [banner]),
                ("UPDATE campaigns SET push_badge = '+0' WHERE id = $1", [story]),
                ("UPDATE campaigns SET push_badge = '100000' WHERE id = $1", [story]),
            ]
            for (sql, parameters) in refused {
                // Refused by a constraint (not by the rows policy, nor by matching no row).
                #expect("\(sql)") { try connection.execute(sql, parameters) } throws: { "\($0)".contains("violates") }
            }
            // And takes what they allow.
            try connection.execute("UPDATE campaigns SET push_sound = 'Chime.wav', push_badge = '-3' WHERE id = $1", [story])
            try connection.execute("UPDATE local_notifications SET badge = 99999, sound = 'default' WHERE campaign_id = $1", [local])
            let badge: Int64 = try connection.query("SELECT badge::bigint AS b FROM local_notifications WHERE campaign_id = $1", [local])[0].decode("b")
            #expect(badge == 99_999)
        }
    }
}

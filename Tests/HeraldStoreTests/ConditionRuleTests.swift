import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import PropertyBased
import Testing

/// The condition rules are said twice, in HeraldCore (ConditionType, KindCapabilities,
/// ConditionValue, Version) and in the schema's CHECKs (campaign_conditions, the version_text
/// domain): the database must accept a row exactly when HeraldCore accepts what it reads back.
/// Every kind × group × type (and some names that are no type) × value is sent to the database.
@Suite struct ConditionRuleTests {
    /// Condition values as JSON, valid and invalid for each kind of value: booleans, whole
    /// numbers (to Int.max and past it), flag names (with control characters and non-ASCII
    /// text), versions (1 to 64 printable ASCII characters, no space at either end), and
    /// values of the wrong JSON type for each.
    static let samples: [String] = [
        "true", "false", "null", "[]", "{}", "[true]",
        "0", "5", "86400", "-1", "1.5", "5.0", "1e3", "1E2", "-0", "0.5e1",
        "9223372036854775807", "9223372036854775808", "99999999999999999999", "1e30",
        #""hideSpringSale""#, #""a b""#, #""é""#, #""😀""#, #""""#, #"" ""#, #""a\nb""#, #""\t""#, #""\u0001""#,
        #""\u001f""#, #""\u007f""#, #""\u0080""#, #""\u2028""#, #""x\"y""#, #""x\\y""#,
        #""2.4.0""#, #""2.10b1""#, #""2.9.9-beta""#, #""10.0 (1234)""#, #""0""#, #""02.4""#, #""~""#, #""!""#,
        #"" 2.4""#, #""2.4 ""#, #""2.4\t""#, #""\t2.4""#, #""2. 4""#, "\"" + String(repeating: "9", count: 64) + "\"",
        "\"" + String(repeating: "9", count: 65) + "\"", "\"" + String(repeating: "9", count: 63) + " \"", #""5""#, #""true""#,
    ]
    /// Every type, and names that are none (a type's name in another case, nothing).
    static let types = ConditionType.allCases.map(\.rawValue) + ["unknownType", "onwifi", "MinAppVersion", ""]

    @Test func theDatabaseAcceptsAConditionExactlyWhenHeraldCoreDoes() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let table = try ConditionTable(configuration)
            var disagreements: [String] = []
            var accepted = 0
            for kind in CampaignKind.allCases {
                for group in ConditionGroup.allCases {
                    for type in Self.types {
                        for sample in Self.samples {
                            let database = try table.accepts(kind, group, type, json: sample)
                            let heraldCore = try Self.heraldCoreAccepts(kind, group, type, stored: table.stored(sample))
                            if database != heraldCore {
                                disagreements.append(
                                    "\(kind) \(group) \(type.isEmpty ? "\"\"" : type) \(sample): the database "
                                        + (database ? "accepts it, HeraldCore refuses it" : "refuses it, HeraldCore accepts it"))
                            }
                            if database { accepted += 1 }
                        }
                    }
                }
            }
            #expect(disagreements == [])
            // Not a comparison of two refusals: each type takes some of the samples.
            #expect(accepted > 50)
        }
    }

    /// Versions over generated strings: HeraldCore's `Version` and the schema's rule (in a
    /// version condition and in the version_text domain) accept the same ones.
    @Test func theDatabaseAcceptsAVersionExactlyWhenHeraldCoreDoes() async throws {
        try await HeraldFixtures.withMigratedDatabase { configuration in
            let table = try ConditionTable(configuration)
            // Printable ASCII at both ends of its range, spaces, controls, a quote and a backslash, non-ASCII.
            let alphabet = Array("0123456789.-b ~!\"\\\t\n\u{7F}é")
            let strings = Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...70).map { String($0.map { alphabet[$0] }) }
            let edges = ["", " ", "a", " a", "a ", String(repeating: "9", count: 64), String(repeating: "9", count: 65), "~", "!"]
            let check = { (text: String) throws in
                let heraldCore = (try? Version(text)) != nil
                #expect(try table.acceptsVersion(text) == heraldCore, "version_text \(String(reflecting: text))")
                for (kind, type) in [(CampaignKind.banner, ConditionType.appVersionLessThan), (.alert, .maxAppVersion)] {
                    let json = JSONText.quoted(text)
                    #expect(try table.accepts(kind, .all, type.rawValue, json: json) == heraldCore, "\(type) \(String(reflecting: text))")
                }
            }
            for edge in edges { try check(edge) }
            await propertyCheck(count: 300, input: strings) { text in
                do { try check(text) } catch { Issue.record(error, "\(String(reflecting: text))") }
            }
        }
    }

    /// What HeraldCore says of a condition whose value reads back from the database as `stored`.
    static func heraldCoreAccepts(_ kind: CampaignKind, _ group: ConditionGroup, _ name: String, stored: String) -> Bool {
        guard let type = ConditionType(rawValue: name) else { return false }
        do {
            try KindCapabilities.check(type, group: group, kind: kind)
            _ = try ConditionValue(jsonText: stored, for: type)
            return true
        } catch {
            return false
        }
    }
}

/// `campaign_conditions` of a campaign of each kind, on its own connection (the superuser's,
/// past row-level security), each statement in a transaction of its own.
private final class ConditionTable {
    let connection: Connection
    var campaigns: [CampaignKind: Int64] = [:]
    private var storedForms: [String: String] = [:]

    init(_ configuration: ConnectionConfiguration) throws {
        connection = try Connection(configuration: configuration)
        let tenant: Int64 = try connection.query("INSERT INTO tenants (slug, name) VALUES ('rules', 'Rules') RETURNING id")[0].decode("id")
        try connection.execute("SELECT set_config('herald.tenant_id', $1, false)", [tenant])
        let app: Int64 = try connection.query(
            """
            INSERT INTO apps (slug, name, platform, bundle_id, default_locale, locales)
            VALUES ('app', 'App', 'ios', 'com.example.app', 'en', '{en}') RETURNING id
            """)[0].decode("id")
        for kind in CampaignKind.allCases {
            campaigns[kind] = try connection.query(
                "INSERT INTO campaigns (app_id, key, kind, name) VALUES ($1, $2::text, $2::text::campaign_kind, $2::text) RETURNING id",
                [app, kind.rawValue]
            )[0].decode("id")
        }
    }

    /// Whether the row is accepted (written over the one before of the same group and type, so
    /// that the update is checked as an insert would be); false when a CHECK refuses it.
    func accepts(_ kind: CampaignKind, _ group: ConditionGroup, _ type: String, json: String) throws -> Bool {
        do {
            try connection.execute(
                """
                INSERT INTO campaign_conditions (campaign_id, kind, grp, type, value)
                VALUES ($1, $2::campaign_kind, $3::condition_group, $4, $5::jsonb)
                ON CONFLICT (tenant_id, campaign_id, grp, type) DO UPDATE SET value = EXCLUDED.value
                """, [campaigns[kind], kind.rawValue, group.rawValue, type, json])
            return true
        } catch let error as PostgresError where error.sqlState == .checkViolation {
            return false
        }
    }

    /// Whether the version_text domain takes `text`.
    func acceptsVersion(_ text: String) throws -> Bool {
        do {
            try connection.execute("SELECT $1::version_text", [text])
            return true
        } catch let error as PostgresError where error.sqlState == .checkViolation {
            return false
        }
    }

    /// The text PostgreSQL keeps for `json` (`1e3` is kept as `1000`): what Herald reads back.
    func stored(_ json: String) throws -> String {
        if let known = storedForms[json] { return known }
        let text: String = try connection.query("SELECT $1::jsonb::text AS stored", [json])[0].decode("stored")
        storedForms[json] = text
        return text
    }
}

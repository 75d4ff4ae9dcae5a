import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// `herald app key create|list|revoke`: a key shown once and stored as a hash, each tenant's
/// keys its own (PostgreSQL holds a tenant operator to them), a key of one tenant storing
/// nothing in another.
@Suite struct AppKeyTests {
    /// The example's acme/weather, and tenant globex with an app weather and a campaign of its own.
    static func twoTenants(_ database: ConnectionConfiguration) throws -> HeraldCLI {
        let herald = HeraldCLI(database: database)
        try herald.succeed(["apply", "-f", CollectorFixture.example.path])
        try herald.succeed(["tenant", "create", "globex", "--name", "Globex"])
        try herald.succeed(
            ["app", "create", "weather", "--tenant", "globex", "--name", "Weather", "--bundle-id", "com.globex.weather",
             "--default-locale", "en"])
        try herald.succeed(
            ["campaign", "create", "only-globex", "--tenant", "globex", "--app", "weather", "--kind", "alert", "--name", "G",
             "--title", "Hi", "--message", "There"])
        return herald
    }

    @Test func aKeyIsShownOnceAndOnlyItsHashIsKept() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = try Self.twoTenants(database)
            let created = try herald.succeed(["app", "key", "create", "weather", "--tenant", "acme", "--name", "ios 3.2"])
            let key = String(created.stdout.split(separator: "\n").last ?? "")
            #expect(key.hasPrefix("hrk_") && key.count == 47, "\(created)")
            let json = try herald.succeed(["app", "key", "create", "weather", "--tenant", "acme", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["id"] as? Int == 2 && (object["key"] as? String)?.hasPrefix("hrk_") == true, "\(json)")

            let connection = try Connection(configuration: database)
            let rows = try connection.query("SELECT encode(key_hash, 'hex') AS hash, key_hint, name, created_by FROM app_keys ORDER BY id")
            #expect(try rows[0].decode("hash", as: String.self) == sha256(key))
            #expect(try rows[0].decode("key_hint", as: String.self) == String(key.prefix(10)))
            #expect(try rows[0].decode("name", as: String.self) == "ios 3.2")
            #expect(try rows[0].decode("created_by", as: String.self) == "cli-test")
            // Nowhere in the database is the key itself.
            #expect(!(try HeraldFixtures.fingerprint(database)).contains(String(key.dropFirst(4))))
            // The dump of every row would not show it either: only the listing's hint.
            let list = try herald.succeed(["app", "key", "list", "weather", "--tenant", "acme"])
            #expect(list.stdout.contains(String(key.prefix(10)) + "…") && !list.stdout.contains(key), "\(list)")
            let listed = try herald.succeed(["app", "key", "list", "weather", "--tenant", "acme", "--json"])
            #expect(listed.stdout.contains("\"keyHint\"") && !listed.stdout.contains(key), "\(listed)")

            let revoked = try herald.succeed(["app", "key", "revoke", "weather", "1", "--tenant", "acme"])
            #expect(revoked.stdout.contains("revoked key 1 of acme/weather"), "\(revoked)")
            let twice = try herald.succeed(["app", "key", "revoke", "weather", "1", "--tenant", "acme"])
            #expect(twice.stdout.contains("was revoked already"), "\(twice)")
            let missing = try herald.run(["app", "key", "revoke", "weather", "99", "--tenant", "acme"])
            #expect(missing.status == 65 && missing.stderr.contains("app key \"99 of acme/weather\" does not exist"), "\(missing)")
            // Another tenant's key is not there for acme (the same app slug, another app).
            let globexKey = try herald.succeed(["app", "key", "create", "weather", "--tenant", "globex", "--json"])
            let globexID = try #require(try JSONSerialization.jsonObject(with: Data(globexKey.stdout.utf8)) as? [String: Any])["id"] as? Int
            let across = try herald.run(["app", "key", "revoke", "weather", String(globexID ?? 0), "--tenant", "acme"])
            #expect(across.status == 65, "\(across)")
            // A revoked key stays revoked, whatever an UPDATE says.
            try connection.execute("SET ROLE herald_operator")
            try connection.execute("UPDATE app_keys SET revoked_at = NULL, revoked_by = NULL WHERE id = 1")
            #expect(try connection.query("SELECT revoked_at IS NOT NULL AS r FROM app_keys WHERE id = 1")[0].decode("r", as: Bool.self))
        }
    }

    @Test func aTenantOperatorManagesItsOwnKeysAndPostgresHoldsItThere() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = try Self.twoTenants(database)
            _ = try herald.succeed(["app", "key", "create", "weather", "--tenant", "globex"])
            let role = "acme_keys_\(UInt32.random(in: 0...UInt32.max))"
            try herald.succeed(["tenant", "grant-operator", "acme", "--role", role, "--password-from-stdin"], stdin: "pw\n")
            defer { _ = try? herald.run(["tenant", "revoke-operator", "acme", "--role", role]) }
            let name: String = try Connection(configuration: database).query("SELECT current_database() AS n")[0].decode("n")
            let operatorConfiguration = try PostgresTestServer.shared().server.configuration(database: name, user: role)
            let team = HeraldCLI(database: operatorConfiguration)
            let made = try team.succeed(["app", "key", "create", "weather", "--json"])
            #expect(made.stdout.contains("\"key\""), "\(made)")
            let listed = try team.succeed(["app", "key", "list", "weather", "--json"])
            #expect(listed.stdout.contains("\"createdBy\" : \"\(role)\""), "\(listed)")
            let refused = try team.run(["app", "key", "list", "weather", "--tenant", "globex"])
            #expect(refused.status == 77, "\(refused)")
            // Straight SQL as the operator's login: only acme's keys, and globex's cannot be touched.
            let connection = try Connection(configuration: operatorConfiguration)
            try connection.execute("SET ROLE herald_tenant")
            try connection.execute("SELECT set_config('herald.tenant_id', (SELECT id::text FROM tenants WHERE slug = 'acme'), false)")
            let tenants: [String] = try connection.query("SELECT DISTINCT tenant_id::text AS t FROM app_keys").map { try $0.decode("t") }
            let acme: String = try Connection(configuration: database).query("SELECT id::text AS t FROM tenants WHERE slug = 'acme'")[0].decode("t")
            #expect(tenants == [acme])
            let changed = try connection.execute("UPDATE app_keys SET revoked_at = now(), revoked_by = 'x' WHERE tenant_id <> \(UnsafeSQL(acme))")
            #expect(changed == 0)
            #expect(throws: (any Error).self) { try connection.execute("DELETE FROM app_keys") }
            let globexRevoked = try CollectorFixture.count(
                database, "SELECT count(*)::int AS n FROM app_keys k JOIN tenants t ON t.id = k.tenant_id WHERE t.slug = 'globex' AND revoked_at IS NOT NULL")
            #expect(globexRevoked == 0)
        }
    }

    @Test func aKeyOfOneTenantStoresNothingInAnother() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            _ = try Self.twoTenants(database)
            let acmeKey = try CollectorFixture.newKey(database, tenant: "acme", app: "weather")
            let globexKey = try CollectorFixture.newKey(database, tenant: "globex", app: "weather")
            let collector = try RunningCollector(database: database)
            // globex's key naming acme, or leaving the tenant out for acme's campaign: nothing lands in acme.
            let acmeEvents = CollectorFixture.events(3)
            let named = acmeEvents.replacingOccurrences(of: "{", with: #"{"tenant":"acme","#)
            let reply = try collector.post(named, key: globexKey)
            #expect(reply.status == 200 && reply.accepted == 0 && reply.rejected.count == 3, "\(reply)")
            let unnamed = try collector.post(acmeEvents, key: globexKey)
            #expect(unnamed.status == 200 && unnamed.accepted == 0, "\(unnamed)")
            // "unknown", never "belongs to another tenant": a device learns nothing of other tenants.
            for item in unnamed.rejected {
                let reason = item["reason"] as? String ?? ""
                #expect(reason.hasPrefix("unknown campaign") && !reason.contains("acme"), "\(reason)")
            }
            #expect(try CollectorFixture.stored(database).ids == 0)
            // acme's key stores in acme; globex's own campaign takes globex's key.
            #expect(try collector.post(acmeEvents, key: acmeKey).accepted == 3)
            let globexEvent = CollectorFixture.events(1, first: 50).replacingOccurrences(of: "tour", with: "only-globex")
                .replacingOccurrences(of: "welcome", with: "only-globex").replacingOccurrences(of: "spring-sale", with: "only-globex")
            #expect(try collector.post(globexEvent, key: globexKey).accepted == 1)
            let perTenant: [String] = try Connection(configuration: database).query(
                "SELECT t.slug::text || '=' || count(*) AS n FROM event_ids e JOIN tenants t ON t.id = e.tenant_id GROUP BY t.slug ORDER BY 1"
            ).map { try $0.decode("n") }
            #expect(perTenant == ["acme=3", "globex=1"])
        }
    }

    private func sha256(_ text: String) throws -> String {
        let connection = try Connection(configuration: try PostgresTestServer.shared().configuration(database: "postgres"))
        return try connection.query("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS h", [text])[0].decode("h")
    }
}

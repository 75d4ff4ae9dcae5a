import Foundation
import HeraldTestSupport
import Testing

/// One JSON style for scripts: every command that prints something takes `--json`, every
/// key is camelCase with acronyms as words (`baseUrl`, `entityId`), and an empty array is `[]`.
/// Documented in docs/json.md.
@Suite struct JSONStyleTests {
    /// Keys whose values are maps keyed by data (locales, condition types named by the
    /// clients such as `iOSVersionLessThan`), not by Herald's field names.
    static let dataKeyedMaps: Set<String> = ["content", "localeContent", "conditions"]

    /// Every key that breaks the style, with where it is.
    static func badKeys(_ value: Any, at path: String = "$") -> [String] {
        if let array = value as? [Any] {
            return array.enumerated().flatMap { badKeys($0.element, at: "\(path)[\($0.offset)]") }
        }
        guard let object = value as? [String: Any] else { return [] }
        return object.flatMap { key, child -> [String] in
            var bad: [String] = []
            let camel = key.range(of: #"^[a-z][a-zA-Z0-9]*$"#, options: .regularExpression) != nil
            let acronym = key.range(of: #"[A-Z]{2}"#, options: .regularExpression) != nil
            if !camel || acronym { bad.append("\(path).\(key)") }
            if !dataKeyedMaps.contains(key) { bad += badKeys(child, at: "\(path).\(key)") }
            return bad
        }
    }

    @Test func everyJSONOutputHasOneStyle() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme", "HERALD_APP": "weather"])
                let site = root.appendingPathComponent("site").path
                let export = root.appendingPathComponent("export.yaml").path
                let operatorRole = "json_ops_\(UInt32.random(in: 0...UInt32.max))"
                let commands: [([String], String?)] = [
                    (["migrate", "--json"], nil),
                    (["migrate", "--status", "--json"], nil),
                    (["tenant", "list", "--json"], nil),  // empty: []
                    (["apply", "-f", EventsCommandTests.example.path, "--json"], nil),
                    (["validate", "-f", EventsCommandTests.example.path, "--json"], nil),
                    (["tenant", "create", "globex", "--name", "Globex", "--json"], nil),
                    (["tenant", "show", "acme", "--json"], nil),
                    (["app", "list", "--json"], nil),
                    (["app", "show", "weather", "--json"], nil),
                    (["app", "update", "weather", "--name", "Weather!", "--json"], nil),
                    (["app", "create", "radar", "--name", "Radar", "--bundle-id", "com.acme.radar", "--default-locale", "en", "--json"], nil),
                    (["campaign", "create", "hello", "--kind", "alert", "--name", "Hello", "--title", "Hi", "--message", "Yo", "--action-url", "https://x.example", "--json"], nil),
                    (["campaign", "list", "--json"], nil),
                    (["campaign", "show", "spring-sale", "--json"], nil),
                    (["campaign", "show", "tour", "--json"], nil),
                    (["campaign", "update", "hello", "--name", "Hello!", "--json"], nil),
                    (["campaign", "condition", "add", "hello", "--all", "minAppVersion=1.0", "--json"], nil),
                    (["campaign", "condition", "remove", "hello", "--all", "minAppVersion", "--json"], nil),
                    (["campaign", "activate", "hello", "--json"], nil),
                    (["campaign", "pause", "hello", "--json"], nil),
                    (["campaign", "archive", "hello", "--json"], nil),
                    (["export", "-o", export, "--json"], nil),
                    (["audit", "--json"], nil),
                    (["publish", "--out", site, "--json"], nil),
                    (["publish", "--history", "--json"], nil),
                    (["preview", "--locale", "de", "--app-version", "2.3.1", "--os-version", "17.4", "--json"], nil),
                    (["events", "ingest", "-", "--json"], EventsCommandTests.events(12)),
                    (["report", "campaigns", "--since", "2026-11-01", "--until", "2026-11-30", "--json"], nil),
                    (["report", "daily", "--since", "2026-11-01", "--until", "2026-11-30", "--json"], nil),
                    (["events", "prune", "--before", "2020-01-01", "--json"], nil),
                    (["db", "status", "--json"], nil),
                    (["db", "url", "--json"], nil),
                    (["board", "--out", root.appendingPathComponent("review").path, "--json"], nil),
                    (["whoami", "--json"], nil),
                    (["tenant", "grant-operator", "acme", "--role", operatorRole, "--json"], nil),
                    (["tenant", "operators", "acme", "--json"], nil),
                    (["tenant", "revoke-operator", "acme", "--role", operatorRole, "--json"], nil),
                ]
                for (arguments, stdin) in commands {
                    let result = try herald.run(arguments, stdin: stdin)
                    let name = "herald " + arguments.joined(separator: " ")
                    #expect(result.status == 0, "\(name)\n\(result)")
                    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
                    #expect(Self.badKeys(parsed).isEmpty, "\(name): \(Self.badKeys(parsed))")
                    #expect(result.stdout.range(of: #"\[\s*\n\s*\n\s*\]"#, options: .regularExpression) == nil, "\(name): an empty array over lines")
                }
                // The audit's row images are objects, not JSON inside a string.
                let audit = try #require(try JSONSerialization.jsonObject(with: Data(herald.succeed(["audit", "--json"]).stdout.utf8)) as? [[String: Any]])
                let created = try #require(audit.first { $0["entity"] as? String == "campaigns" && $0["action"] as? String == "insert" })
                #expect((created["after"] as? [String: Any])?["key"] != nil, "\(created)")
                #expect(created["before"] is NSNull || created["before"] == nil)
                // Condition values are the values the clients read, not JSON inside a string.
                let banner = try #require(try JSONSerialization.jsonObject(with: Data(herald.succeed(["campaign", "show", "spring-sale", "--json"]).stdout.utf8)) as? [String: Any])
                let conditions = try #require(banner["conditions"] as? [String: [String: Any]])
                #expect(conditions["all"]?["appVersionLessThan"] as? String == "2.4.0")
                #expect(conditions["any"]?["onWifi"] as? Bool == true)
                #expect(conditions["any"]?["lastDisplayMinimumLaunches"] as? Int == 5)
                // A report's --json is --format json.
                let report = ["report", "campaigns", "--since", "2026-11-01", "--until", "2026-11-30"]
                #expect(try herald.succeed(report + ["--json"]).stdout == herald.succeed(report + ["--format", "json"]).stdout)
                #expect(try herald.run(report + ["--json", "--format", "csv"]).status == 64)
            }
        }
    }

    @Test func invalidFileVerdictIsJSONToo() throws {
        let result = try InProcessHerald(database: nil).run(["validate", "-f", "-", "--json"], stdin: "version: 1\ntenants: [{slug: Bad Slug}]\n")
        #expect(result.status == 65, "\(result)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(verdict["valid"] as? Bool == false)
        #expect(((verdict["problems"] as? [[String: Any]])?.count ?? 0) > 0)
    }
}

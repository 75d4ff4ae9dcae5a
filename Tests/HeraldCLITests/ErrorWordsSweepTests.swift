import Foundation
import HeraldTestSupport
import Testing

/// Every command's refusals, swept: each bad input, missing thing and unreachable database
/// is said in Herald's own words with a sysexits code, and nothing a library made — Foundation's
/// `Error Domain=…`, Swift's `\u{…}` escapes or `Optional(…)`, a bare SQLSTATE, libpq's or
/// YAML's own text — reaches the person.
@Suite struct ErrorWordsSweepTests {
    /// Text that only a library (or a Swift `description`) writes.
    static let internals = [
        "Error Domain", "NSCocoaErrorDomain", "NSPOSIXErrorDomain", "UserInfo=", "\\u{", "Optional(", "DecodingError",
        "Swift.", "HeraldStore.", "HeraldJobs.", "PostgresClient.", "StoreError", "JobError(", "PQ", "libpq", "yaml_",
        "Yams", "SQLSTATE", "fatal error", "(null)",
    ]

    /// A five-character SQLSTATE printed as a prefix (`42601: syntax error`), which only the
    /// fallback for an unforeseen database error may do.
    static func printsSQLSTATE(_ text: String) -> Bool {
        text.range(of: #"\b[0-9A-Z]{5}: "#, options: .regularExpression) != nil
    }

    static func check(_ arguments: [String], _ result: CommandResult, expecting codes: Set<Int32>) {
        let shown = "herald \(arguments.joined(separator: " ")) → \(result.status)\n\(result.stderr)"
        #expect(codes.contains(result.status), "\(shown)")
        #expect(!result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "said nothing: \(shown)")
        let printed = result.stdout + result.stderr
        for text in internals {
            #expect(!printed.contains(text), "‘\(text)’ reached the person: \(shown)")
        }
        #expect(!printsSQLSTATE(printed), "a bare SQLSTATE: \(shown)")
        #expect(!printed.contains("\t"), "a raw tab: \(shown)")
    }

    @Test func badInputAndMissingThingsAreSaidInWords() throws {
        try withTemporaryDirectory { folder in
            let deep = folder.appendingPathComponent("deep.yaml")
            try String(repeating: "[", count: 20_000).write(to: deep, atomically: true, encoding: .utf8)
            let broken = folder.appendingPathComponent("broken.yaml")
            try "tenant: acme\napps:\n  - slug: weather\n   name: [unclosed\n".write(to: broken, atomically: true, encoding: .utf8)
            let binary = folder.appendingPathComponent("binary.yaml")
            try Data([0xFF, 0xFE, 0x00, 0x41, 0xC3]).write(to: binary)
            let events = folder.appendingPathComponent("events.jsonl")
            try "{not json\n".write(to: events, atomically: true, encoding: .utf8)
            let file = folder.appendingPathComponent("a-file")
            try "x".write(to: file, atomically: true, encoding: .utf8)

            try InProcessHerald.withAcmeWeather { herald, _ in
                try herald.succeed([
                    "campaign", "create", "hello", "--app", "weather", "--kind", "alert", "--name", "Hello", "--title", "Hi",
                    "--message", "There",
                ])
                let cases: [([String], Set<Int32>)] = [
                    (["tenant", "create", "Not A Slug", "--name", "X"], [64, 65]),
                    (["tenant", "create", "acme", "--name", "Again"], [65, 73]),
                    (["tenant", "show", "nobody"], [65, 66]),
                    (["tenant", "grant-operator", "--tenant", "nobody", "--role", "r1"], [65, 66]),
                    (["tenant", "grant-operator", "--role", "Robert'); DROP"], [64, 65]),
                    (["app", "show", "nope"], [65, 66]),
                    (["app", "create", "weather", "--name", "W", "--bundle-id", "b", "--default-locale", "en"], [65, 73]),
                    (["app", "create", "w2", "--name", "W", "--bundle-id", "b", "--default-locale", "xx-!!"], [64, 65]),
                    (["app", "update", "weather", "--base-url", "ftp://\u{0}x"], [64, 65]),
                    (["app", "update", "weather", "--remove-locale", "en"], [64, 65]),
                    (["app", "key", "revoke", "weather", "not-a-number"], [64, 65]),
                    (["campaign", "show", "missing", "--app", "weather"], [65, 66]),
                    (["campaign", "show", "hello", "--app", "nope"], [65, 66]),
                    (["campaign", "create", "x", "--app", "weather", "--kind", "toast", "--name", "X"], [64, 65]),
                    (["campaign", "create", "hello", "--app", "weather", "--kind", "alert", "--name", "X", "--title", "a", "--message", "b"], [65, 73]),
                    (["campaign", "update", "hello", "--app", "weather", "--starts", "tomorrowish"], [64, 65]),
                    (["campaign", "update", "hello", "--app", "weather", "--starts", "0001-01-01T00:00:00Z"], [64, 65]),
                    (["campaign", "update", "hello", "--app", "weather", "--locale", "fr", "--title", "Salut"], [64, 65]),
                    (["campaign", "update", "hello", "--app", "weather", "--action-url", "not a url"], [64, 65]),
                    (["campaign", "activate", "missing", "--app", "weather"], [65, 66]),
                    (["campaign", "condition", "add", "hello", "--app", "weather", "--type", "nonsense", "--value", "1"], [64, 65]),
                    (["campaign", "list", "--status", "sleeping"], [64, 65]),
                    (["apply", "-f", "/nonexistent/campaigns.yaml"], [66]),
                    (["apply", "-f", folder.path], [65, 66]),
                    (["apply", "-f", deep.path], [65]),
                    (["apply", "-f", broken.path], [65]),
                    (["apply", "-f", binary.path], [65]),
                    (["validate", "-f", broken.path], [65]),
                    (["validate", "-f", "/nonexistent.yaml"], [66]),
                    (["export", "--app", "nope"], [65, 66]),
                    (["export", "--output", "/proc/herald-export.yaml"], [73]),
                    (["audit", "--since", "the day before"], [64, 65]),
                    (["audit", "--limit", "0"], [64]),
                    (["audit", "--campaign", "Bad Key"], [64, 65]),
                    (["publish", "--out", ""], [64]),
                    (["publish", "--out", "/proc/herald-site"], [73]),
                    (["publish", "--out", file.path], [64, 73]),
                    (["publish", "--out", folder.appendingPathComponent("s").path, "--at", "noon-ish"], [64, 65]),
                    (["publish", "--history", "--limit", "0"], [64]),
                    (["publish", "--rollback", "999999", "--out", folder.appendingPathComponent("s").path], [65, 66]),
                    (["preview", "--app", "weather", "--locale", "e n!", "--app-version", "1.0", "--os-version", "17"], [64, 65]),
                    (["preview", "--app", "nope", "--locale", "en", "--app-version", "1.0", "--os-version", "17"], [65, 66]),
                    (["board", "--out", "/proc/herald-board"], [73]),
                    (["board", "--out", folder.appendingPathComponent("b").path, "--days", "-3"], [64]),
                    (["events", "ingest", "/nonexistent.jsonl"], [66]),
                    (["events", "ingest", events.path, "--format", "xml"], [64, 65]),
                    (["events", "prune", "--before", "soonish"], [64, 65]),
                    (["report", "sideways"], [64, 65]),
                    (["report", "device"], [64, 65]),
                    (["report", "daily", "--since", "2026-13-40"], [64, 65]),
                    (["collect", "--listen", "nowhere:notaport"], [64, 65]),
                    (["migrate", "--bogus-flag"], [64]),
                ]
                for (arguments, codes) in cases {
                    Self.check(arguments, try herald.run(arguments), expecting: codes)
                }
            }
        }
    }

    /// The collector's own limits are refused (64) before it looks for a database: a wrong flag
    /// is said as such even with the database away.
    @Test func theCollectorsLimitsAreCheckedBeforeTheDatabase() throws {
        let herald = InProcessHerald(
            database: nil, environment: ["HERALD_DATABASE_URL": "postgresql:///herald?host=/nonexistent-socket-folder"])
        for arguments in [
            ["collect", "--connections", "9"], ["collect", "--max-events-per-commit", "0"], ["collect", "--read-timeout", "0"],
            ["collect", "--key-rate", "0"],
        ] {
            Self.check(arguments, try herald.run(arguments), expecting: [64])
        }
        // A negative number is read as one, and refused as one (not as a value left out).
        for (flag, value) in [("--key-rate", "-5"), ("--key-burst", "-1"), ("--read-timeout", "-3"), ("--connections", "-2")] {
            let result = try herald.run(["collect", flag, value])
            #expect(result.status == 64 && result.stderr.contains("\(flag) must be") && result.stderr.contains("not \(value)"), "\(result)")
        }
    }

    /// With the database away, every command that needs it says so (69) in one sentence.
    @Test func anUnreachableDatabaseIsSaidInWords() throws {
        let herald = InProcessHerald(
            database: nil, environment: ["HERALD_DATABASE_URL": "postgresql:///herald?host=/nonexistent-socket-folder", "HERALD_TENANT": "acme"])
        try withTemporaryDirectory { folder in
            let out = folder.appendingPathComponent("site").path
            for arguments in [
                ["migrate"], ["migrate", "--status"], ["tenant", "list"], ["tenant", "create", "acme", "--name", "Acme"],
                ["app", "list"], ["campaign", "list"], ["campaign", "show", "hello", "--app", "weather"], ["export"], ["audit"],
                ["publish", "--out", out], ["publish", "--history"],
                ["board", "--out", folder.appendingPathComponent("board").path], ["report", "campaigns"], ["whoami"],
                ["preview", "--app", "weather", "--locale", "en", "--app-version", "1.0", "--os-version", "17"],
                ["events", "prune", "--before", "2026-01-01"],
            ] {
                Self.check(arguments, try herald.run(arguments), expecting: [69])
            }
        }
    }
}

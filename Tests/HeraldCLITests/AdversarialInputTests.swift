import Foundation
import HeraldTestSupport
import PostgresClient
import Synchronization
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Hostile input thrown at the CLI, category by category. An input *held* when herald either
/// took it and kept it exactly (stored, published and exported as given) or refused it with
/// the right exit code and a short, terminal-safe message, changing nothing; and never
/// crashed, hung, said "unexpected database error" (70) or echoed control characters.
/// `scripts/adversarial-inputs` runs this suite and prints the tried/held counts.
@Suite struct AdversarialInputTests {
    // MARK: Tally

    /// Tried and held inputs of one category, with what did not hold.
    final class Tally: @unchecked Sendable {
        let category: String
        private let state = Mutex((tried: 0, held: 0, failures: [String]()))

        init(_ category: String) { self.category = category }

        /// Records one input: `problem` nil when it held.
        func record(_ input: String, _ problem: String?) {
            state.withLock { state in
                state.tried += 1
                if let problem {
                    state.failures.append("\(input.debugDescription.prefix(120)): \(problem.prefix(600))")
                } else {
                    state.held += 1
                }
            }
        }

        /// Prints the line `scripts/adversarial-inputs` collects, and fails the test on any input that did not hold.
        func finish(sourceLocation: SourceLocation = #_sourceLocation) {
            let (tried, held, failures) = state.withLock { ($0.tried, $0.held, $0.failures) }
            let line = "adversarial: \(category): tried \(tried), held \(held)\n"
            if ProcessInfo.processInfo.environment["HERALD_ADVERSARIAL_REPORT"] == "1" {
                FileHandle.standardError.write(Data((line + failures.map { "  did not hold: \($0)\n" }.joined()).utf8))
            }
            #expect(tried > 0 && held == tried, "\(line)\(failures.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }

    // MARK: What every run must respect

    /// Text a terminal would act on: C0 controls but tab and newline, DEL, C1 controls, and the
    /// bidirectional overrides and isolates.
    static func terminalHazard(_ text: String) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A: continue
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                return "prints U+\(String(scalar.value, radix: 16, uppercase: true)) raw"
            default: continue
            }
        }
        return nil
    }

    /// What no run may do, whatever its input: crash, exit 70, print an endless or unsafe error.
    static func unsafe(_ result: CommandResult, expecting statuses: Set<Int32>, humanOutput: Bool = false) -> String? {
        if !statuses.contains(result.status) { return "exit \(result.status), expected \(statuses.sorted()): \(result.stderr.prefix(400))" }
        if let hazard = terminalHazard(result.stderr) { return "stderr \(hazard)" }
        if result.stderr.split(separator: "\n").contains(where: { $0.utf8.count > 1100 }) { return "stderr has a line over 1100 bytes" }
        if humanOutput, let hazard = terminalHazard(result.stdout) { return "stdout \(hazard)" }
        return nil
    }

    /// A tenant `acme` with app `weather` (en, de) on a fresh database.
    func withApp(_ body: (InProcessHerald, ConnectionConfiguration) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme", "HERALD_APP": "weather"])
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            try herald.succeed([
                "app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather", "--default-locale", "en",
                "--locales", "en,de", "--base-url", "https://static.example.com/acme/weather",
            ])
            try body(herald, database)
        }
    }

    // MARK: Text fields

    /// Injection and control characters for every text field.
    static let hostileTexts: [String] = [
        "'); DROP TABLE campaigns; --", "' OR '1'='1", "Robert\"); DELETE FROM tenants;--", "$1 $2 %s %n %x {{7*7}} ${jndi:ldap://x}",
        "</string><key>Title</key><string>pwned", "<![CDATA[x]]>", "]]>", "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>&e;",
        "&amp; &lt; &#0; &#x1F;", "\",\"evil\":\"1", "\\\"}, {\"injected\": true, \"x\": \"", "<script>alert(1)</script>",
        "javascript:alert(document.cookie)", "\n- key: evil\n  kind: alert", "*alias &anchor !!python/object:os.system",
        "---\n...\n%YAML 1.1", "$(rm -rf /) `id` ; | && ||", "../../../../etc/passwd", "C:\\Windows\\System32", "a\tb\nc\rd\r\ne",
        "\r", "trailing newline\n", "\u{1B}[2J\u{1B}[31mred", "\u{1B}]0;title\u{07}", "bell\u{07}", "nul-ish \u{1}\u{2}\u{1F}",
        "del \u{7F}", "c1 \u{80}\u{85}\u{9B}\u{9F}", "line\u{2028}sep\u{2029}para", "\u{FEFF}bom first", "bidi \u{202E}txt.exe",
        "zero\u{200B}width\u{200D}joiner", "e\u{301}\u{301}\u{301}", "🎉👩‍👩‍👧‍👦🏳️‍🌈", "\u{E000}\u{F8FF}\u{10FFFF}", "漢字 عربى עברית",
        "   ", " leading and trailing ", String(repeating: "long ", count: 20_000), "yes", "null", "~", "0x1F", "1e3", "2026-05-01",
    ]

    /// Escapes a value for `--view`/`--page` (`\`, `,` and `"` get a backslash).
    static func keyValue(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "," || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// What XML text (and so the database's xml_text) refuses: C0 controls but tab, LF and
    /// CR; and text that is only whitespace is refused as empty.
    static func xmlRefuses(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
            || text.unicodeScalars.contains { ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || $0.value == 0xFFFE || $0.value == 0xFFFF }
    }

    /// A flag name (`flagNotSet`) refuses control characters and DEL.
    static func flagRefuses(_ text: String) -> Bool {
        text.isEmpty || text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    @Test func hostileTextInEveryTextField() throws {
        let tally = Tally("text fields (injection, control characters)")
        let roundTrip = Tally("text fields: publish, export and apply again")
        try withApp { herald, database in
            let superuser = try Connection(configuration: database)
            var accepted: [(key: String, text: String, kind: String)] = []
            for (index, text) in Self.hostileTexts.enumerated() {
                let value = Self.keyValue(text)
                let runs: [(String, [String], Bool)] = [
                    (
                        "alert", [
                            "--kind", "alert", "--name=\(text)", "--title=\(text)", "--message=\(text)", "--action-url", "app://x",
                            "--action-button=\(text)", "--message-key", "k\(index)",
                        ], Self.xmlRefuses(text)
                    ),
                    (
                        "story", [
                            "--kind", "story", "--name=\(text)", "--push-title=\(text)", "--push-text=\(text)", "--page",
                            "image=https://cdn.example.com/1.jpg,button_title=\(value),title=\(value),subtitle=\(value),link=app://p",
                        ], Self.xmlRefuses(text)
                    ),
                    (
                        "banner", ["--kind", "banner", "--name=\(text)", "--view", "id=v,html=\(value)", "--entry", "v", "--all", "flagNotSet=\(text)"],
                        Self.xmlRefuses(text) || Self.flagRefuses(text)
                    ),
                ]
                for (kind, arguments, refused) in runs {
                    let key = "\(kind)-\(index)"
                    let result = try herald.run(["campaign", "create", key] + arguments)
                    var problem = Self.unsafe(result, expecting: refused ? [65] : [0])
                    if problem == nil, refused, try Self.campaignExists(superuser, key) { problem = "refused, yet stored" }
                    if problem == nil, !refused {
                        accepted.append((key, text, kind))
                        problem = try Self.storedTextProblem(superuser, key: key, kind: kind, text: text)
                    }
                    tally.record("\(kind) \(text)", problem)
                }
            }
            // Every accepted text shows, lists, publishes, exports and applies again exactly.
            let show = try herald.run(["campaign", "list"])
            tally.record("campaign list", Self.unsafe(show, expecting: [0], humanOutput: true))
            for (key, text, _) in accepted.prefix(12) {
                let shown = try herald.run(["campaign", "show", key])
                tally.record("campaign show \(text)", Self.unsafe(shown, expecting: [0], humanOutput: true))
            }
            try withTemporaryDirectory { root in
                let out = root.appendingPathComponent("site")
                // Drafts are not published: activate everything through a campaigns file, then publish.
                let drafts = try herald.succeed(["export"]).stdout
                let activated = try herald.run(["apply", "-f", "-"], stdin: drafts.replacingOccurrences(of: "\n      status: draft\n", with: "\n      status: active\n"))
                roundTrip.record("activate through apply", Self.unsafe(activated, expecting: [0]))
                let again = try herald.run(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z"])
                roundTrip.record("publish active", Self.unsafe(again, expecting: [0]))
                for (key, text, kind) in accepted {
                    roundTrip.record("published \(kind) \(text)", try Self.publishedProblem(out, key: key, kind: kind, text: text))
                }
            }
            let exported = try herald.run(["export"])
            roundTrip.record("export", Self.unsafe(exported, expecting: [0]))
            let applied = try herald.run(["apply", "-f", "-"], stdin: exported.stdout)
            roundTrip.record("apply the export", Self.unsafe(applied, expecting: [0]) ?? (applied.stdout == "no changes\n" ? nil : "changed: \(applied.stdout.prefix(300))"))
            let reexported = try herald.run(["export"])
            roundTrip.record("export again", reexported.stdout == exported.stdout ? nil : "the second export differs")
        }
        tally.finish()
        roundTrip.finish()
    }

    static func campaignExists(_ connection: Connection, _ key: String) throws -> Bool {
        try connection.query("SELECT count(*) AS n FROM campaigns WHERE key = $1", [key])[0].decode("n", as: Int.self) > 0
    }

    /// Whether every text field of campaign `key` holds `text`, read as the superuser.
    static func storedTextProblem(_ connection: Connection, key: String, kind: String, text: String) throws -> String? {
        let sql: SQL =
            switch kind {
            case "alert":
                "SELECT ARRAY[c.name, a.title, a.message, a.action_button] AS v FROM campaigns c JOIN alert_contents a ON a.campaign_id = c.id WHERE c.key = $1"
            case "story":
                """
                SELECT ARRAY[c.name, s.push_title, s.push_text, p.button_title, p.title, p.subtitle] AS v FROM campaigns c
                JOIN story_contents s ON s.campaign_id = c.id JOIN story_pages p ON p.campaign_id = c.id WHERE c.key = $1
                """
            default:
                """
                SELECT ARRAY[c.name, v.inline_html, k.value #>> '{}'] AS v FROM campaigns c JOIN banner_views v ON v.campaign_id = c.id
                JOIN campaign_conditions k ON k.campaign_id = c.id WHERE c.key = $1
                """
            }
        let rows = try connection.query(sql, [key])
        guard rows.count == 1 else { return "\(rows.count) rows stored" }
        let values = try rows[0].decode("v", as: [String].self)
        return values.allSatisfy { $0 == text } ? nil : "stored \(values.map(\.debugDescription))"
    }

    /// Whether the published files give the devices `text` exactly (an XML parser for the plist).
    static func publishedProblem(_ out: URL, key: String, kind: String, text: String) throws -> String? {
        let locale = out.appendingPathComponent("acme/weather/en")
        switch kind {
        case "alert":
            let data = try Data(contentsOf: locale.appendingPathComponent("notifications.plist"))
            guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: [String: String]] else {
                return "the plist does not parse"
            }
            let index = key.split(separator: "-").last.map(String.init) ?? ""
            guard plist["k\(index)"] != nil else { return "alert k\(index) is not in the plist" }
            // The text as an XML 1.0 parser gives it (Foundation's plist reader on Linux drops a
            // leading U+FEFF of its own accord): title, message and button.
            return XMLStrings(data).strings.filter { $0 == text }.count >= 3 ? nil : "an XML parser reads the text differently"
        case "story":
            let data = try Data(contentsOf: locale.appendingPathComponent("stories/\(key).json"))
            // Foundation's JSON reader on Linux drops a string's leading U+FEFF itself: look at the bytes.
            if text.hasPrefix("\u{FEFF}") { return data.range(of: Data(text.utf8)) != nil ? nil : "the story lost the text" }
            guard let story = try JSONSerialization.jsonObject(with: data) as? [String: [String: [[String: Any]]]],
                let page = story["pw_stories"]?["pages"]?.first
            else { return "the story does not parse" }
            return page["title"] as? String == text && page["subtitle"] as? String == text && page["button_title"] as? String == text
                ? nil : "the story says \(page)"
        default:
            let data = try Data(contentsOf: locale.appendingPathComponent("control.json"))
            if text.hasPrefix("\u{FEFF}") {
                let html = try Data(contentsOf: locale.appendingPathComponent("views/\(key)/v.html"))
                return data.range(of: Data(text.utf8)) != nil && html == Data(text.utf8) ? nil : "the banner lost the text"
            }
            guard let control = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]], let banner = control[key],
                let conditions = banner["conditions"] as? [String: [String: Any]]
            else { return "control.json does not hold \(key)" }
            let html = try String(contentsOf: locale.appendingPathComponent("views/\(key)/v.html"), encoding: .utf8)
            return conditions["all"]?["flagNotSet"] as? String == text && html == text ? nil : "published \(conditions), html \(html.debugDescription)"
        }
    }

    /// Every `<string>` of a plist as an XML 1.0 parser reports it.
    final class XMLStrings: NSObject, XMLParserDelegate {
        private(set) var strings: [String] = []
        private var current: String?

        init(_ data: Data) {
            super.init()
            let parser = XMLParser(data: data)
            parser.delegate = self
            _ = parser.parse()
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == "string" { current = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "string", let current { strings.append(current) }
            current = nil
        }
    }

    // MARK: Identifiers

    static let hostileIdentifiers: [String] = [
        "acme'; DROP TABLE tenants; --", "../etc", "acme/../../x", "ACME", "acme ", " acme", "-acme", "a\u{1B}[2J", "ac\u{0301}me",
        "аcme" /* Cyrillic а */, String(repeating: "a", count: 64), String(repeating: "a", count: 100_000), "", "*", "%", "acme\n",
        "$(id)", "acme;rm -rf /", "😀",
    ]

    @Test func hostileIdentifiersAreRefusedEverywhere() throws {
        let tally = Tally("identifiers (slugs, locales, keys, flags)")
        try withApp { herald, database in
            let before = try HeraldFixtures.fingerprint(database)
            for id in Self.hostileIdentifiers {
                let attempts: [([String], Set<Int32>)] = [
                    (["tenant", "create", id, "--name", "X"], [64, 65]),
                    (["app", "create", id, "--name", "X", "--bundle-id", "com.x.y", "--default-locale", "en"], [64, 65]),
                    (["app", "create", "x", "--name", "X", "--bundle-id", id, "--default-locale", "en"], [64, 65]),
                    (["app", "create", "x", "--name", "X", "--bundle-id", "com.x.y", "--default-locale", id], [64, 65]),
                    (["campaign", "create", id, "--kind", "alert", "--name", "X"], [64, 65]),
                    (["campaign", "create", "x", "--kind", id, "--name", "X"], [64, 65]),
                    (["campaign", "create", "x", "--kind", "alert", "--name", "X", "--locales", id], [64, 65]),
                    (["campaign", "create", "x", "--kind", "banner", "--name", "X", "--all", "\(id)=1"], [64, 65]),
                    (["campaign", "show", id], [64, 65]),
                    (["campaign", "list", "--tenant", id], [64, 65]),
                    (["report", "campaigns", "--tenant", id], [64, 65]),
                    (["preview", "--app", id, "--locale", "en", "--app-version", "1.0", "--os-version", "17.0"], [64, 65]),
                    (["preview", "--locale", id, "--app-version", id, "--os-version", "17.0"], [64, 65]),
                ]
                for (arguments, statuses) in attempts {
                    // A valid identifier may be taken (65) or create something: only the hostile ones count.
                    let result = try herald.run(arguments)
                    tally.record(arguments.joined(separator: " "), Self.unsafe(result, expecting: statuses))
                }
            }
            let after = try HeraldFixtures.fingerprint(database)
            tally.record("the database after all of them", after == before ? nil : "the database changed")
        }
        tally.finish()
    }

    // MARK: File arguments

    @Test func pathTricksInFileArguments() throws {
        let tally = Tally("file arguments (path tricks)")
        try withApp { herald, database in
            try withTemporaryDirectory { root in
                let valid = root.appendingPathComponent("valid.yaml")
                let exported = try herald.succeed(["export"]).stdout
                try Data(exported.utf8).write(to: valid)
                let loop = root.appendingPathComponent("loop")
                try? FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
                let binary = root.appendingPathComponent("binary")
                try Data((0..<4096).map { UInt8($0 % 256) }).write(to: binary)
                let latin1 = root.appendingPathComponent("latin1.yaml")
                try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xE9, 0x0A]).write(to: latin1)
                let unreadable = root.appendingPathComponent("unreadable.yaml")
                try Data(exported.utf8).write(to: unreadable)
                chmod(unreadable.path, 0)
                let htmlWithNUL = root.appendingPathComponent("nul.html")
                try Data("<p>a\u{0}b</p>".utf8).write(to: htmlWithNUL)
                let longName = root.appendingPathComponent(String(repeating: "x", count: 250)).path + "/" + String(repeating: "y", count: 5000)
                let weird = root.appendingPathComponent("we\u{1B}[2Jird\nname.yaml").path
                // Root reads every file: an unreadable one is only hostile to other users.
                let unreadablePaths = geteuid() == 0 ? [] : ["/etc/shadow", unreadable.path]
                let hostilePaths = [
                    "/nonexistent/campaigns.yaml", root.path, "/dev/zero", "/dev/null", loop.path, binary.path, latin1.path, longName, weird,
                    "/proc/self/environ", "../../../../../../etc/passwd", "", "-",
                ] + unreadablePaths
                let before = try HeraldFixtures.fingerprint(database)
                for path in hostilePaths {
                    // An endless device is a stream like any other to `events ingest`: it reads it, in
                    // bounded memory, for as long as it flows; the file commands refuse it at 128 MB.
                    let commands = [["validate", "-f", path], ["apply", "-f", path]] + (path == "/dev/zero" ? [] : [["events", "ingest", path, "--quiet"]])
                    for command in commands {
                        let result = try herald.run(command, stdin: "")
                        // 0 only for what reads as nothing at all: empty standard input or /dev/null as events.
                        let statuses: Set<Int32> = command[0] == "events" && (path == "-" || path == "/dev/null") ? [0] : [64, 65, 66]
                        tally.record(command.joined(separator: " "), Self.unsafe(result, expecting: statuses))
                    }
                    // A relative path to a readable file is the operator's to read: not a trick for html=@.
                    guard !path.hasPrefix("../") else { continue }
                    let html = try herald.run(["campaign", "create", "h", "--kind", "banner", "--name", "H", "--view", "id=v,html=@\(path)"])
                    tally.record("html=@\(path)", Self.unsafe(html, expecting: [64, 65, 66]))
                }
                let nul = try herald.run(["campaign", "create", "h", "--kind", "banner", "--name", "H", "--view", "id=v,html=@\(htmlWithNUL.path)"])
                tally.record("html with NUL", Self.unsafe(nul, expecting: [65]) ?? (nul.stderr.contains("NUL") ? nil : "no word of the NUL"))
                tally.record("the database after reading them", try HeraldFixtures.fingerprint(database) == before ? nil : "the database changed")

                // Outputs: a folder, a device that is full, a folder that does not exist, the input itself.
                let events = root.appendingPathComponent("events.ndjson")
                let line = #"{"event_id":"00000000-0000-4000-8000-000000000001","tenant":"acme","app":"weather","campaign":"nope","device":"d","kind":"click","at":"2026-11-10T12:00:00Z","locale":"en","app_version":"1"}"#
                try Data((line + "\n").utf8).write(to: events)
                for (arguments, statuses) in [
                    (["export", "-o", root.path], Set<Int32>([73])),
                    (["export", "-o", "/nonexistent/x.yaml"], [73]), (["events", "ingest", events.path, "--rejects", root.path], [73]),
                    (["events", "ingest", events.path, "--rejects", "/nonexistent/r.ndjson"], [73]),
                    (["events", "ingest", events.path, "--rejects", events.path], [64, 65, 73]),
                    (["publish", "--out", valid.path], [73]), (["publish", "--out", "/proc/herald"], [73]),
                    (["publish", "--rollback", "999", "--out", root.appendingPathComponent("site").path], [65]),
                ] as [([String], Set<Int32>)] {
                    let result = try herald.run(arguments)
                    tally.record(arguments.joined(separator: " "), Self.unsafe(result, expecting: statuses))
                }
                // A pipe (or /dev/stdout) is written into, never replaced by a file of the same name.
                let fifo = root.appendingPathComponent("fifo")
                mkfifo(fifo.path, 0o600)
                let received = Mutex(Data())
                let reader = Thread {
                    if let handle = FileHandle(forReadingAtPath: fifo.path) { received.withLock { $0 = handle.readDataToEndOfFile() } }
                }
                reader.start()
                let toFIFO = try herald.run(["export", "-o", fifo.path])
                // Should export not have opened it, the reader still waits: let it go.
                usleep(50_000)
                if !reader.isFinished { close(open(fifo.path, O_WRONLY | O_NONBLOCK)) }
                while !reader.isFinished { usleep(1_000) }
                var info = stat()
                let stillFIFO = stat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
                let now = try herald.succeed(["export"]).stdout
                tally.record(
                    "export -o FIFO",
                    Self.unsafe(toFIFO, expecting: [0]) ?? (!stillFIFO ? "the FIFO was replaced by a file" : received.withLock { $0 } == Data(now.utf8) ? nil : "the FIFO got something else"))
                let inputKept = try String(contentsOf: events, encoding: .utf8) == line + "\n"
                tally.record("--rejects naming the input", inputKept ? nil : "the input file was overwritten")
                tally.record("the exported file is untouched", try String(contentsOf: valid, encoding: .utf8) == exported ? nil : "changed")
            }
        }
        tally.finish()
    }

    // MARK: Campaigns files

    static func campaignsFile(_ campaign: String) -> String {
        """
        version: 1
        tenants:
        - slug: acme
          name: Acme
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.acme.weather
            defaultLocale: en
            locales: [de, en]
            baseUrl: https://static.example.com/acme/weather
            campaigns:
            - key: c
              kind: alert
              name: C
              messageKey: "2026/01/01"
        \(campaign)

        """
    }

    /// (what, file bytes, whether it is valid; nil: what only the database refuses, so
    /// `validate` may pass it and `apply` must refuse it).
    static var hostileFiles: [(String, [UInt8], Bool?)] {
        func text(_ what: String, _ text: String, valid: Bool? = false) -> (String, [UInt8], Bool?) { (what, Array(text.utf8), valid) }
        func alert(_ what: String, title: String, valid: Bool? = false) -> (String, [UInt8], Bool?) {
            text(what, campaignsFile("      content:\n        en: {title: \(title), message: m}"), valid: valid)
        }
        let many = (0..<500).map { "  - {key: c\($0), kind: alert, name: C, messageKey: \"k\($0)\", content: {en: {title: t, message: m}}}" }
        let laughs = (1...9).map { "l\($0): &l\($0) [" + Array(repeating: "*l\($0 - 1)", count: 9).joined(separator: ",") + "]" }
        return [
            text("empty", ""), text("whitespace", " \n\t\n"), text("null", "null"), text("a scalar", "hello"), text("a list", "[1, 2]"),
            ("binary garbage", (0..<2048).map { UInt8(($0 * 7919) % 256) }, false), ("not UTF-8", [0x76, 0x3A, 0x20, 0xFF, 0xFE, 0x0A], false),
            ("UTF-16", [0xFF, 0xFE] + Array("version: 1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), false),
            text("deep flow nesting", String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)),
            text("deep block nesting", (0..<2000).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")),
            text("billion laughs", "l0: &l0 lol\n" + laughs.joined(separator: "\n") + "\nversion: 1\ntenants: *l9\n"),
            text(
                "alias bomb shaped like a campaigns file",
                "version: 1\nx-p: &p {image: \"https://c.example.com/1.jpg\"}\nx-c: &c {key: c, kind: story, name: C, content: {en: {pushText: t, pages: ["
                    + Array(repeating: "*p", count: 999).joined(separator: ",") + "]}}}\nx-a: &a {slug: a, name: A, platform: ios, bundleId: a.b, defaultLocale: en, campaigns: ["
                    + Array(repeating: "*c", count: 999).joined(separator: ",") + "]}\ntenants: [{slug: t, name: T, apps: [" + Array(repeating: "*a", count: 999).joined(separator: ",") + "]}]\n"),
            text("an alias to itself", "a: &a [*a]\n"), text("an undefined alias", "version: 1\ntenants: *nope\n"),
            text("two documents", "version: 1\ntenants: []\n---\nversion: 1\ntenants: []\n"),
            text("a YAML 1.2 directive", "%YAML 1.2\n---\nversion: 1\ntenants: []\n", valid: true),
            text("python object tag", "version: 1\ntenants: !!python/object/apply:os.system [\"id\"]\n"),
            text("binary tag", "version: !!binary aGVsbG8=\ntenants: []\n"),
            text("merge key", "version: 1\nbase: &b {slug: acme}\ntenants: [{<<: *b, name: A}]\n"),
            text("version as a string", "version: \"1\"\ntenants: []\n", valid: true), text("version 1.0", "version: 1.0\ntenants: []\n"),
            text("a huge version", "version: 99999999999999999999999\ntenants: []\n"), text("version -0", "version: -0\ntenants: []\n"),
            text("repeated top key", "version: 1\nversion: 1\ntenants: []\n"),
            text("repeated condition type", campaignsFile("      conditions: {all: {minAppVersion: \"1.0\", minAppVersion: \"2.0\"}}")),
            text("repeated locale", campaignsFile("      content:\n        en: {title: a, message: b}\n        en: {title: c, message: d}")),
            alert("a NUL escape", title: "\"a\\0b\""), alert("a \\u0000 escape", title: "\"a\\u0000b\""), alert("raw DEL", title: "\"a\u{7F}b\""),
            alert("raw C1", title: "\"a\u{9B}b\""), alert("raw U+2028", title: "a\u{2028}b"), alert("a lone surrogate escape", title: "\"\\ud800\""),
            alert("escaped DEL, C1, U+2028", title: "\"a\\u007F\\u009B\\u2028b\"", valid: true), alert("a control escape", title: "\"a\\u0001b\""),
            alert("ESC in the title", title: "\"\\e[2J\""), alert("a JSON surrogate pair escape in YAML", title: "\"\\ud83c\\udf89\""),
            alert("a 1 MB title", title: String(repeating: "x", count: 1_000_000), valid: true),
            text("a 1 MB key", campaignsFile("      " + String(repeating: "k", count: 1_000_000) + ": 1")),
            text("a 4 MB line", "{\"version\": 1, \"tenants\": [{\"slug\": \"acme\", \"name\": \"" + String(repeating: "A", count: 4_000_000) + "\u{1}\"}]}"),
            text("500 campaigns", campaignsFile("") + many.joined(separator: "\n").replacingOccurrences(of: "  - {", with: "    - {") + "\n", valid: true),
            text("priority 1e400", campaignsFile("      priority: 1e400")), text("priority 2^64", campaignsFile("      priority: 18446744073709551616")),
            text("a height of .nan", campaignsFile("").replacingOccurrences(of: "kind: alert", with: "kind: banner").replacingOccurrences(of: "      messageKey: \"2026/01/01\"\n", with: "      content: {en: {entry: v, views: [{id: v, file: \"https://x.example.com\", height: .nan}]}}\n")),
            text("a start of 2026-13-45", campaignsFile("      startsAt: 2026-13-45")), text("a start in year 0", campaignsFile("      startsAt: 0000-01-01T00:00:00Z"), valid: nil),
            text("key ../x", campaignsFile("").replacingOccurrences(of: "key: c", with: "key: ../x")),
            text("locale ../../x", campaignsFile("      content: {../../x: {title: a, message: b}}")),
            text("message key ../../etc", campaignsFile("").replacingOccurrences(of: "\"2026/01/01\"", with: "\"../../etc\"")),
            text("an image file:///etc/passwd", campaignsFile("").replacingOccurrences(of: "kind: alert", with: "kind: story").replacingOccurrences(of: "      messageKey: \"2026/01/01\"\n", with: "      content: {en: {pushText: t, pages: [{image: \"file:///etc/passwd\"}]}}\n")),
            text("an image with user:pass@", campaignsFile("").replacingOccurrences(of: "kind: alert", with: "kind: story").replacingOccurrences(of: "      messageKey: \"2026/01/01\"\n", with: "      content: {en: {pushText: t, pages: [{image: \"https://user:pass@evil.example.com/x.jpg\"}]}}\n")),
            text("an action URL with a space", campaignsFile("      content: {en: {title: a, message: b, actionUrl: \"app://x y\"}}")),
            text("a tenant slug with SQL", "version: 1\ntenants: [{slug: \"acme'; DROP TABLE tenants;--\", name: A}]\n"),
            text("an unknown key", campaignsFile("      evil: true")), text("a mapping as a key", "version: 1\n? {a: 1}\n: 2\ntenants: []\n"),
        ]
    }

    @Test func malformedHugeAndHostileCampaignsFiles() throws {
        let tally = Tally("campaigns files (malformed, huge, hostile)")
        try withApp { herald, database in
            try withTemporaryDirectory { root in
                for (index, (what, bytes, valid)) in Self.hostileFiles.enumerated() {
                    let file = root.appendingPathComponent("f\(index).yaml")
                    try Data(bytes).write(to: file)
                    let clock = ContinuousClock()
                    var validated = CommandResult(status: -1, stdout: "", stderr: "")
                    let elapsed = clock.measure { validated = (try? herald.run(["validate", "-f", file.path])) ?? validated }
                    var problem = Self.unsafe(validated, expecting: valid.map { $0 ? [0] : [65] } ?? [0, 65])
                    if problem == nil, elapsed > .seconds(20) { problem = "validate took \(elapsed)" }
                    if problem == nil {
                        let before = try HeraldFixtures.fingerprint(database)
                        let applied = try herald.run(["apply", "-f", file.path, "--dry-run"])
                        problem = Self.unsafe(applied, expecting: valid == true ? [0] : [65])
                        if problem == nil, try HeraldFixtures.fingerprint(database) != before { problem = "apply --dry-run changed the database" }
                    }
                    tally.record(what, problem)
                }
            }
        }
        tally.finish()
    }

    // MARK: Event lines

    @Test func hostileEventLines() throws {
        let tally = Tally("event lines (NDJSON and CSV)")
        try withApp { herald, database in
            try herald.succeed(["campaign", "create", "sale", "--kind", "alert", "--name", "Sale", "--title", "T", "--message", "M", "--message-key", "k"])
            var serial = 0
            func event(_ overrides: [String: String] = [:]) -> String {
                serial += 1
                var fields = [
                    "event_id": String(format: "00000000-0000-4000-8000-%012d", serial), "tenant": "acme", "app": "weather", "campaign": "sale",
                    "device": "d-1", "kind": "click", "at": "2026-11-10T12:00:00Z", "locale": "en", "app_version": "1.0",
                ]
                for (key, value) in overrides { fields[key] = value }
                return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}"
            }
            // (what, line, whether it is stored)
            let lines: [(String, String, Bool)] = [
                ("a valid event", event(), true), ("garbage", "garbage", false), ("an empty object", "{}", false), ("a JSON list", "[1,2]", false),
                ("a nested object", event(["device": "x"]).replacingOccurrences(of: "\"device\":\"x\"", with: "\"device\":{\"a\":1}"), false),
                ("a number for a string", event().replacingOccurrences(of: "\"kind\":\"click\"", with: "\"kind\":5"), false),
                ("a repeated field", event().replacingOccurrences(of: "}", with: ",\"kind\":\"dismiss\"}"), false),
                ("SQL in the device", event(["device": "d'); DROP TABLE delivery_events;--"]), true),
                ("ESC in the device", event(["device": "\\u001b[2J"]), true), ("NUL in the device", event(["device": "a\\u0000b"]), false),
                ("a raw control in a string", event(["device": "a\u{1}b"]), false), ("a lone surrogate", event(["device": "\\ud800"]), false),
                ("a 129-character device", event(["device": String(repeating: "d", count: 129)]), false),
                ("a 1 MB device", event(["device": String(repeating: "d", count: 1_000_000)]), false),
                ("SQL in the tenant", event(["tenant": "acme'--"]), false), ("another tenant", event(["tenant": "other"]), false),
                ("path in the campaign", event(["campaign": "../../x"]), false), ("a bad UUID", event(["event_id": "1' OR '1'='1"]), false),
                ("year 0001", event(["at": "0001-01-01T00:00:00Z"]), false), ("year 9999", event(["at": "9999-12-31T23:59:59Z"]), true),
                ("no zone", event(["at": "2026-11-10T12:00:00"]), false), ("a zone of +14:00", event(["at": "2026-11-10T12:00:00+14:00"]), true),
                ("a bad kind", event(["kind": "click'; --"]), false), ("a bad locale", event(["locale": "en\\n"]), false),
                ("a 65-character app version", event(["app_version": String(repeating: "1", count: 65)]), false),
                ("an emoji device", event(["device": "📱-1"]), true), ("a CRLF line", event() + "\r", true), ("an empty line", "", false),
                ("a 10 MB line", "{\"device\":\"" + String(repeating: "x", count: 10_000_000) + "\u{1}\"}", false),
                ("invalid UTF-8", "{\"device\":\"\u{FFFD}\u{FFFD}\"}", false),
            ]
            try withTemporaryDirectory { root in
                let input = root.appendingPathComponent("events.ndjson")
                var bytes = Data(lines.map(\.1).joined(separator: "\n").utf8)
                bytes.append(contentsOf: [0x0A, 0xFF, 0xFE, 0x0A])  // and a line that is not UTF-8 at all
                try bytes.write(to: input)
                let rejectsFile = root.appendingPathComponent("rejects.ndjson")
                let result = try herald.run(["events", "ingest", input.path, "--rejects", rejectsFile.path, "--json"])
                let whole = Self.unsafe(result, expecting: [65])
                let rejected = try String(contentsOf: rejectsFile, encoding: .utf8).split(separator: "\n").compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["line"] as? Int
                }
                let stored: Int = try Connection(configuration: database).query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
                for (index, (what, _, valid)) in lines.enumerated() {
                    let isRejected = rejected.contains(index + 1)
                    let problem = whole ?? (valid == isRejected && !(what == "an empty line") ? (valid ? "rejected" : "stored") : nil)
                    tally.record(what, problem)
                }
                tally.record("a line that is not UTF-8", whole ?? (rejected.contains(lines.count + 1) ? nil : "not rejected"))
                tally.record("the stored count", stored == lines.filter(\.2).count ? nil : "\(stored) stored")
                // Without --rejects the reasons go to stderr: bounded and escaped.
                let loud = try herald.run(["events", "ingest", input.path])
                tally.record("rejections on stderr", Self.unsafe(loud, expecting: [65]))

                // CSV: formula and quote tricks.
                let csv = root.appendingPathComponent("events.csv")
                let header = "event_id,tenant,app,campaign,device,kind,at,locale,app_version"
                let rows = [
                    "00000000-0000-4000-8000-100000000001,acme,weather,sale,\"=cmd|' /C calc'!A0\",click,2026-11-10T12:00:00Z,en,1.0",
                    "00000000-0000-4000-8000-100000000002,acme,weather,sale,\"a\"\"b,c\",click,2026-11-10T12:00:00Z,en,1.0",
                    "00000000-0000-4000-8000-100000000003,acme,weather,sale,\"unterminated,click,2026-11-10T12:00:00Z,en,1.0",
                    "00000000-0000-4000-8000-100000000004,acme,weather,sale,d,click,2026-11-10T12:00:00Z,en,1.0,extra,fields",
                ]
                try Data(([header] + rows).joined(separator: "\n").utf8).write(to: csv)
                let csvResult = try herald.run(["events", "ingest", csv.path, "--format", "csv"])
                tally.record("CSV formula, quotes, unterminated quote, extra fields", Self.unsafe(csvResult, expecting: [0, 65]))
            }
        }
        tally.finish()
    }
}

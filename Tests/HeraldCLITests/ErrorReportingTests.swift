import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// Every kind of bad input: one clear line per problem, the sysexits code, and a database
/// left exactly as it was (compared row by row through a fingerprint).
@Suite struct ErrorReportingTests {
    /// Runs `arguments` on a database holding tenant acme with app weather (en, de) and a
    /// draft alert `welcome`; checks exit code, that stderr says each of `messages`, and
    /// that nothing changed.
    func expectRefusal(
        _ arguments: [String], status: Int32, saying messages: [String], after setup: [[String]] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try InProcessHerald.withAcmeWeather { herald, database in
            try herald.succeed([
                "campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "Welcome",
                "--title", "Hi", "--message", "Welcome", "--message-key", "2026/01/01",
            ])
            for step in setup { try herald.succeed(step) }
            let before = try HeraldFixtures.fingerprint(database)
            let result = try herald.run(arguments)
            #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
            for message in messages {
                #expect(result.stderr.contains(message), "\(result)", sourceLocation: sourceLocation)
            }
            #expect(!result.stderr.contains("SQLSTATE"), sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
            #expect(try HeraldFixtures.fingerprint(database) == before, "the database changed", sourceLocation: sourceLocation)
        }
    }

    /// Runs `arguments` with a database that cannot be reached: a refusal found from the
    /// arguments alone, before any database is needed (a command that asked the database
    /// first would exit 69 instead), so no database is made for it.
    func expectRefusalBeforeTheDatabase(
        _ arguments: [String], status: Int32, saying messages: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let nowhere = ConnectionConfiguration(conninfo: "host=/nonexistent dbname=herald")
        let result = try InProcessHerald(database: nowhere, environment: ["HERALD_TENANT": "acme"]).run(arguments)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        for message in messages {
            #expect(result.stderr.contains(message), "\(result)", sourceLocation: sourceLocation)
        }
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    }

    /// Flag values read before any database is needed; the same kind of error gets the same
    /// code whatever the command: an unreadable flag value is 64, a missing input file 66.
    @Test(arguments: [
        (["events", "ingest", "/nonexistent/events.ndjson"], Int32(66), "cannot read /nonexistent/events.ndjson"),
        (["events", "ingest", "-", "--format", "xml"], 64, "--format must be ndjson or csv"),
        (["events", "ingest", "-", "--batch-size", "0"], 64, "--batch-size must be at least 1"),
        (["events", "ingest", "-", "--jobs", "17"], 64, "--jobs must be 1 to 16, not 17"),
        (["events", "prune", "--before", "2026-13-01"], 64, "--before must be a day"),
        (["report", "daily", "--since", "someday"], 64, "--since \"someday\" is not a time"),
        (["report", "campaigns", "--since", "2026-02-01", "--until", "2026-01-01"], 64, "is after --until"),
        (["campaign", "update", "welcome", "--app", "weather", "--priority", "high"], 64, "high"),
        (["audit", "--since", "2026-13-01"], 64, "--since"),
        (["report", "daily", "--since", "2026-13-01"], 64, "--since \"2026-13-01\" is not a time"),
        (["apply", "-f", "/nonexistent/campaigns.yaml"], 66, "cannot read /nonexistent/campaigns.yaml: no such file"),
        (["validate", "-f", "/nonexistent/campaigns.yaml"], 66, "cannot read /nonexistent/campaigns.yaml: no such file"),
    ])
    func flagErrorsAreFoundBeforeAnyDatabase(_ arguments: [String], _ status: Int32, _ message: String) throws {
        try expectRefusalBeforeTheDatabase(arguments, status: status, saying: [message])
    }

    @Test(arguments: [
        (["report", "daily", "--tenant", "Acme Co"], Int32(65), "\"Acme Co\""),
        (["tenant", "grant-reporting", "acme", "--role", "Bad Name"], 65, "invalid reporting role name"),
        (["tenant", "grant-reporting", "acme", "--role", "postgres"], 65, "is not a Herald reporting role"),
        (["tenant", "grant-reporting", "nope", "--role", "nope_analyst"], 65, "nope"),
        (["tenant", "revoke-reporting", "nope", "--role", "nope_analyst"], 65, "nope"),
    ])
    func eventAndReportingInputIsCheckedAndChangesNothing(_ arguments: [String], _ status: Int32, _ message: String) throws {
        try expectRefusal(arguments, status: status, saying: [message])
    }

    /// The same kind of error gets the same code whatever the command, also when the command
    /// reads the database first: an unreadable flag value is 64, a rule broken by the data 65.
    @Test(arguments: [
        (["campaign", "update", "welcome", "--app", "weather", "--starts", "tomorrow"], Int32(64), "--starts"),
        (["publish", "--out", "/tmp/herald-never", "--at", "soon"], 64, "--at"),
        (["campaign", "condition", "add", "welcome", "--app", "weather", "--all", "minAppVersion=1.0", "--all", "minAppVersion=2.0"],
         65, "--all minAppVersion is given twice"),
    ])
    func sameKindOfErrorSameCode(_ arguments: [String], _ status: Int32, _ message: String) throws {
        try expectRefusal(arguments, status: status, saying: [message])
    }

    @Test func badSlugNamesTheValue() throws {
        try expectRefusalBeforeTheDatabase(["tenant", "create", "Acme Co", "--name", "X"], status: 65, saying: ["\"Acme Co\""])
    }

    @Test func badLocaleNamesTheValue() throws {
        try expectRefusalBeforeTheDatabase(
            ["app", "create", "news", "--name", "News", "--bundle-id", "com.acme.news", "--default-locale", "english"],
            status: 65, saying: ["\"english\""])
    }

    @Test func badVersionInACondition() throws {
        try expectRefusal(
            ["campaign", "condition", "add", "welcome", "--app", "weather", "--all", "minAppVersion=2.0é"],
            status: 65, saying: ["\"2.0é\"", "printable ASCII"])
    }

    @Test func conditionTheKindCannotExpressListsWhatItSupports() throws {
        try expectRefusal(
            ["campaign", "condition", "add", "welcome", "--app", "weather", "--any", "onWifi=true"],
            status: 65, saying: ["minAppVersion", "maxAppVersion"])
    }

    @Test func characterXMLCannotCarryIsRefused() throws {
        try expectRefusal(
            ["campaign", "update", "welcome", "--app", "weather", "--title", "bell\u{07}"],
            status: 65, saying: ["U+0007"])
    }

    @Test func httpOnlyURLForAView() throws {
        try expectRefusal(
            ["campaign", "create", "b", "--app", "weather", "--kind", "banner", "--name", "B",
             "--view", "id=v,file=ftp://x.example/b.html"],
            status: 65, saying: ["ftp://x.example/b.html"])
    }

    @Test func endBeforeStart() throws {
        try expectRefusal(
            ["campaign", "update", "welcome", "--app", "weather", "--starts", "2026-06-01", "--ends", "2026-05-01"],
            status: 65, saying: ["end"])
    }

    @Test func unknownTenantNamesItAndTheListCommand() throws {
        try expectRefusal(["app", "list", "--tenant", "nobody"], status: 65, saying: ["\"nobody\"", "herald tenant list"])
    }

    @Test func unknownAppNamesItAndTheListCommand() throws {
        try expectRefusal(
            ["campaign", "show", "welcome", "--app", "radio"], status: 65, saying: ["acme/radio", "herald app list"])
    }

    @Test func unknownCampaignNamesItAndTheListCommand() throws {
        try expectRefusal(
            ["campaign", "activate", "nope", "--app", "weather"], status: 65,
            saying: ["acme/weather/nope", "herald campaign list"])
    }

    @Test func takenTenantSlugIsSaidInWords() throws {
        try expectRefusal(["tenant", "create", "acme", "--name", "Again"], status: 65, saying: ["already exists"])
    }

    @Test func reusedCampaignKeyIsSaidInWords() throws {
        try expectRefusal(
            ["campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "W2",
             "--title", "a", "--message", "b"],
            status: 65, saying: ["already has a campaign with that key"])
    }

    @Test func reusedMessageKeyIsSaidInWords() throws {
        try expectRefusal(
            ["campaign", "create", "other", "--app", "weather", "--kind", "alert", "--name", "Other",
             "--title", "a", "--message", "b", "--message-key", "2026/01/01"],
            status: 65, saying: ["message key", "already used"])
    }

    @Test func activateRefusesACampaignWithoutContentAndSaysWhy() throws {
        try expectRefusal(
            ["campaign", "activate", "bare", "--app", "weather"], status: 65, saying: ["cannot activate bare", "en"],
            after: [["campaign", "create", "bare", "--app", "weather", "--kind", "story", "--name", "Bare"]])
    }

    @Test func activateRefusesACampaignThatHasEnded() throws {
        try expectRefusal(
            ["campaign", "activate", "welcome", "--app", "weather"], status: 65, saying: ["cannot activate welcome"],
            after: [["campaign", "update", "welcome", "--app", "weather", "--starts", "2020-01-01", "--ends", "2020-02-01"]])
    }

    @Test func localeTheAppDoesNotSupport() throws {
        try expectRefusal(
            ["campaign", "update", "welcome", "--app", "weather", "--locale", "fr", "--title", "Salut", "--message", "Bienvenue"],
            status: 65, saying: ["fr", "herald app update"])
    }

    @Test func flagsOfAnotherKind() throws {
        try expectRefusal(
            ["campaign", "update", "welcome", "--app", "weather", "--page", "image=https://x.example/1.jpg"],
            status: 65, saying: ["--page is for story campaigns"])
    }

    @Test func missingTenantIsAUsageError() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let result = try InProcessHerald(database: database).run(["app", "list"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--tenant"))
        }
    }

    @Test func unreachableDatabaseSaysWhereButNotThePassword() throws {
        let herald = HeraldCLI(
            database: nil,
            environment: ["HERALD_DATABASE_URL": "postgresql://herald:s3cret-pw@127.0.0.1:1/heraldprod?connect_timeout=2"])
        let result = try herald.run(["tenant", "list"])
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.contains("127.0.0.1"))
        #expect(result.stderr.contains("heraldprod"))
        #expect(!result.stderr.contains("s3cret-pw"))
        #expect(!result.stdout.contains("s3cret-pw"))
    }

    @Test func withoutServerBinariesTheErrorNamesThePackage() throws {
        try withTemporaryDirectory { root in
            let herald = HeraldCLI(
                database: nil, environment: ["HERALD_HOME": root.path, "HERALD_PG_BINDIR": root.appendingPathComponent("none").path])
            let result = try herald.run(["tenant", "list"])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("apt-get install postgresql"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("postgres").path))
        }
    }

    @Test func pendingMigrationsNameTheMigrateCommand() throws {
        try HeraldFixtures.withEmptyDatabase { database in
            let herald = InProcessHerald(database: database)
            let result = try herald.run(["tenant", "list"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("herald migrate"))
            let status = try herald.succeed(["migrate", "--status", "--json"]).stdout
            #expect(status.contains("\"pending\""))
            try herald.succeed(["migrate"])
            #expect(try herald.succeed(["migrate"]).stdout.contains("up to date"))
            #expect(try herald.succeed(["tenant", "list"]).stdout.contains("no tenants yet"))
        }
    }
}

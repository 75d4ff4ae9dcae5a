import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// HERALD_TENANT and HERALD_APP stand in for `--tenant` and `--app` wherever those pick what
/// to work on, `report` included; and the demo stays out of a configured database unless told.
@Suite struct ShellDefaultsTests {
    @Test func reportAndCampaignCommandsTakeTenantAndAppFromTheEnvironment() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["demo", "--yes", "--out", root.path, "--board", root.appendingPathComponent("review").path])
                try herald.succeed(["tenant", "create", "globex", "--name", "Globex"])
                // Without a tenant, the report covers every tenant: the demo's campaigns are there.
                #expect(try herald.succeed(["report", "campaigns"]).stdout.contains("demo"))
                let globex = InProcessHerald(database: database, environment: ["HERALD_TENANT": "globex"])
                #expect(try globex.succeed(["report", "campaigns"]).stdout.hasPrefix("no events in"))
                let demo = InProcessHerald(database: database, environment: ["HERALD_TENANT": "demo"])
                #expect(try demo.succeed(["report", "campaigns"]).stdout.contains("weather"))
                // --tenant still wins over the environment.
                #expect(try globex.succeed(["report", "campaigns", "--tenant", "demo"]).stdout.contains("weather"))

                let otherApp = InProcessHerald(database: database, environment: ["HERALD_TENANT": "demo", "HERALD_APP": "radar"])
                #expect(try otherApp.succeed(["report", "daily"]).stdout.hasPrefix("no events in"))
                let weather = InProcessHerald(database: database, environment: ["HERALD_TENANT": "demo", "HERALD_APP": "weather"])
                #expect(try weather.succeed(["report", "daily"]).stdout.contains("weather"))
                let show = try weather.run(["campaign", "show", "welcome", "--json"])
                #expect(show.status == 0, "\(show)")
                #expect(show.stdout.contains("\"welcome\""))
                #expect(try otherApp.run(["campaign", "show", "welcome"]).status == 65)
                let noApp = try demo.run(["campaign", "show", "welcome"])
                #expect(noApp.status == 64)
                #expect(noApp.stderr.contains("pass --app SLUG or set HERALD_APP"), "\(noApp)")
            }
        }
    }

    /// Refused from the environment alone: the configured database cannot even be reached (a
    /// demo that connected first would exit 69), so it is left as it was.
    @Test func demoRefusesAConfiguredDatabaseWithoutYes() throws {
        try withTemporaryDirectory { root in
            let nowhere = ConnectionConfiguration(conninfo: "host=/nonexistent dbname=herald")
            let result = try InProcessHerald(database: nowhere).run(["demo", "--out", root.path])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("pass --yes"), "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        }
    }
}

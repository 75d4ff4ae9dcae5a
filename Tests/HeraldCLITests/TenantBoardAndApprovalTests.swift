import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// A tenant's own team (`herald tenant grant-operator`) makes its board, and four-eyes
/// approval as PostgreSQL enforces it: the login that changed a campaign last cannot approve
/// it, and in a tenant that requires approval nothing unapproved goes, or changes while, live.
@Suite struct TenantBoardAndApprovalTests {
    struct Team {
        let database: ConnectionConfiguration
        let owner: InProcessHerald
        /// herald as acme's operator: its own login, no HERALD_TENANT.
        let acme: InProcessHerald
        let role: String
        let operatorDatabase: ConnectionConfiguration
        let root: URL
    }

    /// Tenant acme with an operator login, app radio and a draft alert `hello` its operator made;
    /// with `demo`, the demo tenant beside it (published, with a board).
    func withTeam(demo: Bool, _ body: (Team) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let owner = InProcessHerald(database: database)
                if demo {
                    try owner.succeed(["demo", "--yes", "--out", root.appendingPathComponent("site").path])
                }
                try owner.succeed(["tenant", "create", "acme", "--name", "Acme"])
                let role = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
                try owner.succeed(["tenant", "grant-operator", "acme", "--role", role, "--password-from-stdin"], stdin: "s3cret\n")
                defer { _ = try? owner.run(["tenant", "revoke-operator", "acme", "--role", role]) }
                let admin = try Connection(configuration: database)
                let name: String = try admin.query("SELECT current_database() AS n")[0].decode("n")
                let operatorDatabase = try PostgresTestServer.shared().configuration(database: name, user: role)
                let acme = InProcessHerald(database: operatorDatabase, environment: ["HERALD_ACTOR": "someone-else"])
                try acme.succeed(
                    ["app", "create", "radio", "--name", "Radio", "--platform", "ios", "--bundle-id", "com.acme.radio",
                     "--default-locale", "en", "--locales", "en,de", "--base-url", "https://static.example.com/acme/radio"])
                try acme.succeed(
                    ["campaign", "create", "hello", "--app", "radio", "--kind", "alert", "--name", "Hello", "--title", "Hi",
                     "--message", "There", "--action-url", "https://acme.example.com/hello"])
                try body(Team(database: database, owner: owner, acme: acme, role: role, operatorDatabase: operatorDatabase, root: root))
            }
        }
    }

    /// Every file under `folder`, relative path → text.
    static func pages(_ folder: URL) throws -> [String: String] {
        var pages: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where path.hasSuffix(".html") {
            pages[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return pages
    }

    @Test func aTenantsOwnLoginMakesItsBoardAndSeesNoOtherTenant() throws {
        try withTeam(demo: true) { team in
            let site = team.root.appendingPathComponent("site")
            try team.acme.succeed(["campaign", "activate", "hello", "--app", "radio"])
            try team.acme.succeed(["publish", "--out", site.path])
            let review = team.root.appendingPathComponent("acme-review")
            // Before 0031 this exited 77: permission denied for publish_blobs, and for the advisory lock.
            let (made, again) = try OneMinute.withinOneMinute {
                (try team.acme.run(["board", "--out", review.path]), try team.acme.succeed(["board", "--out", review.path, "--quiet"]))
            }
            #expect(made.status == 0, "\(made)")
            #expect(again.stdout.isEmpty, "\(again)")  // again: nothing to write
            #expect(try team.acme.run(["board", "--out", review.path, "--tenant", "demo"]).status == 77)

            let pages = try Self.pages(review)
            #expect(Set(pages.keys) == ["board/index.html", "board/history.html", "board/acme/radio.html", "board/acme/radio/hello.html"], "\(pages.keys.sorted())")
            for (path, html) in pages {
                // Nothing of the demo tenant, no folder of the server, no OS user or actor of Herald's own runs.
                for leak in ["Demo Weather", "demo/weather", "spring-sale", site.path, team.root.path, "cli-test", "someone-else"] {
                    #expect(!html.contains(leak), "\(path) shows \(leak)")
                }
            }
            // Its own publish, with the files it changed as the site names them.
            let history = try #require(pages["board/history.html"])
            #expect(history.contains(#"<li class="added">added <code>acme/radio/en/notifications.plist</code></li>"#), "\(history)")
            #expect(pages["board/index.html"]?.contains("only tenant <strong>acme</strong>") == true)

            // Herald's own board shows the tenant's run as the site names its files too.
            let siteReview = team.root.appendingPathComponent("site-review")
            try team.owner.succeed(["board", "--out", siteReview.path])
            let siteHistory = try String(contentsOf: siteReview.appendingPathComponent("board/history.html"), encoding: .utf8)
            #expect(siteHistory.contains(#"<li class="added">added <code>acme/radio/de/notifications.plist</code></li>"#))

            // In Chromium at a phone's width: the pages load nothing outside the folder and fit.
            let browser = try Chromium(scratch: team.root)
            defer { browser.close() }
            for page in pages.keys.sorted() {
                let report = try browser.open(review.appendingPathComponent(page), width: 390, height: 844)
                #expect(report.failures.isEmpty && report.errors.isEmpty, "\(report)")
                let width = try browser.evaluate("document.documentElement.scrollWidth") as? Int
                #expect(width == 390, "\(page) is \(width ?? 0) px wide")
            }
        }
    }

    @Test func fourEyesAsPostgreSQLEnforcesThem() throws {
        try withTeam(demo: false) { team in
            let acme = team.acme
            let owner = InProcessHerald(database: team.database, environment: ["HERALD_TENANT": "acme"])
            // Off by default: the operator activates its own campaign.
            try acme.succeed(["campaign", "activate", "hello", "--app", "radio"])
            try acme.succeed(["campaign", "pause", "hello", "--app", "radio"])
            // Only Herald's own login turns it on: a tenant's team cannot waive its own review.
            #expect(try acme.run(["tenant", "update", "acme", "--no-require-approval"]).status == 77)
            #expect(try team.owner.succeed(["tenant", "update", "acme", "--require-approval"]).stdout.contains("tenant acme requires approval"))

            let refused = try acme.run(["campaign", "activate", "hello", "--app", "radio"])
            #expect(refused.status == 65 && refused.stderr.contains("campaign \"hello\" needs approval"), "\(refused)")
            // The last editor's own login cannot approve, whatever it calls itself.
            let own = try acme.run(["campaign", "approve", "hello", "--app", "radio"])
            #expect(own.status == 77 && own.stderr.contains("four eyes: \(team.role) made the last change"), "\(own)")
            let approved = try owner.succeed(["campaign", "approve", "hello", "--app", "radio"])
            #expect(approved.stdout.contains("approved campaign hello version 1 (last changed by \(team.role))"), "\(approved)")
            try acme.succeed(["campaign", "activate", "hello", "--app", "radio"])

            // A change to live content is refused as a whole; paused, it is made, and needs a new approval.
            let live = try acme.run(["campaign", "update", "hello", "--app", "radio", "--title", "Hello there"])
            #expect(live.status == 65 && live.stderr.contains("needs approval"), "\(live)")
            #expect(try acme.succeed(["campaign", "show", "hello", "--app", "radio"]).stdout.contains("Hi"))
            try acme.succeed(["campaign", "pause", "hello", "--app", "radio"])
            try acme.succeed(["campaign", "update", "hello", "--app", "radio", "--title", "Hello there"])
            #expect(try acme.run(["campaign", "activate", "hello", "--app", "radio"]).status == 65)

            // The board lists it as awaiting approval, with the change since the approved version.
            let review = team.root.appendingPathComponent("review")
            try acme.succeed(["board", "--out", review.path])
            let index = try String(contentsOf: review.appendingPathComponent("board/index.html"), encoding: .utf8)
            #expect(index.contains(#"<li data-awaiting="acme/radio/hello">"#), "\(index)")
            #expect(index.contains("version 2, changed by \(team.role)"))
            let page = try String(contentsOf: review.appendingPathComponent("board/acme/radio/hello.html"), encoding: .utf8)
            #expect(page.contains(#"<span class="badge awaiting">awaiting approval</span> version 2; version 1 was approved by "#))
            #expect(page.contains("-          title: Hi\n+          title: Hello there"), "\(page)")

            try owner.succeed(["campaign", "approve", "hello", "--app", "radio"])
            try acme.succeed(["campaign", "activate", "hello", "--app", "radio"])
            try acme.succeed(["board", "--out", review.path])
            let after = try String(contentsOf: review.appendingPathComponent("board/index.html"), encoding: .utf8)
            #expect(!after.contains("data-awaiting=") && after.contains("every campaign's current version is approved"))

            // A file that makes a new campaign live is refused as a whole too.
            let file = team.root.appendingPathComponent("acme.yaml")
            let exported = try acme.succeed(["export"]).stdout
            try Data(
                exported.replacingOccurrences(
                    of: "    campaigns:\n",
                    with: "    campaigns:\n    - key: fresh\n      kind: alert\n      name: Fresh\n      status: active\n      content:\n        en: {title: New, message: Unreviewed}\n"
                ).utf8
            ).write(to: file)
            let applied = try acme.run(["apply", "-f", file.path])
            #expect(applied.status == 65 && applied.stderr.contains("campaign \"fresh\" needs approval"), "\(applied)\n\(exported)")

            // The audit names who approved what.
            let audit = try #require(try JSONSerialization.jsonObject(with: Data(acme.succeed(["audit", "--json"]).stdout.utf8)) as? [[String: Any]])
            let approvals = audit.filter { $0["entity"] as? String == "campaign_approvals" }
            #expect(approvals.count == 2, "\(audit.map { $0["entity"] ?? "-" })")

            // No path around the database: the operator's own login, by SQL, can neither approve
            // its change nor pass itself off as someone else.
            try acme.succeed(["campaign", "pause", "hello", "--app", "radio"])
            try acme.succeed(["campaign", "update", "hello", "--app", "radio", "--title", "Third"])
            let sql = try Connection(configuration: team.operatorDatabase)
            try sql.execute("SET ROLE herald_tenant")
            try sql.execute("SELECT set_config('herald.tenant_id', (SELECT id FROM tenants)::text, false)")
            let campaign: Int64 = try sql.query("SELECT id FROM campaigns WHERE key = 'hello'")[0].decode("id")
            #expect(throws: PostgresError.self) {
                try sql.execute("UPDATE campaign_versions SET edited_by = 'someone' WHERE campaign_id = $1", [campaign])
            }
            #expect(throws: PostgresError.self) {
                try sql.execute(
                    "INSERT INTO campaign_approvals (campaign_id, version) SELECT campaign_id, version FROM campaign_versions WHERE campaign_id = $1",
                    [campaign])
            }
            // Bumping the version by hand only makes the login the last editor again.
            try sql.execute("UPDATE campaign_versions SET version = 1 WHERE campaign_id = $1", [campaign])
            let editedBy: String = try sql.query("SELECT edited_by FROM campaign_versions WHERE campaign_id = $1", [campaign])[0].decode("edited_by")
            #expect(editedBy == team.role)
        }
    }
}

import Foundation
import HeraldTestSupport
import Testing

/// The copy lint where people meet it first: `herald validate` (no database) and `herald publish`.
@Suite struct CopyLintCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
    static let warning = "herald: warning: acme/weather/welcome [en] action button: “Take the tour” is not in title case: “Take the Tour”"

    @Test func validateWarnsButTheFileIsValid() throws {
        let result = try InProcessHerald(database: nil).run(["validate", "-f", Self.example.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("is valid"))
        #expect(result.stderr.contains(Self.warning), "\(result)")
        #expect(result.stderr.contains("herald: warning: acme/weather/tour [en] push title: names the app (“Weather”)"), "\(result)")
    }

    @Test func publishWarns() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                try herald.succeed(["apply", "-f", Self.example.path])
                let result = try herald.succeed(["publish", "--out", root.appendingPathComponent("site").path, "--at", "2026-06-01T00:00:00Z"])
                #expect(result.stderr.contains(Self.warning), "\(result)")
            }
        }
    }
}

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

    /// A right-to-left override in a title: validate names it and shows it escaped, never raw.
    @Test func validateShowsInvisibleTextEscaped() throws {
        try withTemporaryDirectory { root in
            let text = try String(contentsOf: Self.example, encoding: .utf8)
            let file = root.appendingPathComponent("campaigns.yaml")
            let reversed = text.replacingOccurrences(of: "title: Welcome", with: "title: \"Sale \u{202E}evil.exe\u{202C} ok\"")
            #expect(reversed != text)
            try Data(reversed.utf8).write(to: file)
            let result = try InProcessHerald(database: nil).run(["validate", "-f", file.path])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderr.contains(
                    "herald: warning: acme/weather/welcome [en] title: holds characters that are not seen but change how it reads "
                        + "(‹U+202E› right-to-left override, ‹U+202C› pop directional formatting): “Sale ‹U+202E›evil.exe‹U+202C› ok”"),
                "\(result)")
            #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x202E })
        }
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

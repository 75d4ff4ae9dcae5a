import HeraldText
import Foundation
import Synchronization
import Testing

@testable import herald

/// `compactEmptyContainers` scans bytes instead of running regular expressions: it must give
/// what the expressions gave, for Foundation's pretty-printed output and for text that only
/// looks like an empty container.
@Suite struct CompactJSONTests {
    /// The rule as it was written before: two regular expressions.
    static func byRegex(_ json: String) -> String {
        json.replacingOccurrences(of: #"\[\n\s*\n\s*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\s*\n\s*\}"#, with: "{}", options: .regularExpression)
    }

    @Test func sameAsTheRegularExpressions() throws {
        struct Sample: Encodable {
            let written: [String]
            let removed: [String]
            let nested: [String: [String: [Int]]]
            let text: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let encoded = try encoder.encode(
            Sample(
                written: ["a/b/control.json", "[\n\n]"], removed: [], nested: ["x": [:], "y": ["z": []]],
                text: "{ }\n[\t]"))
        let inputs = [
            String(decoding: encoded, as: UTF8.self),
            "[\n\n]", "{\n  \n  }", "[\n]", "[\n \t\n\r ]", "{\n\n]", "[[\n\n]]", "[\n\n", "", "[", "{\n",
            "x[\n  1\n]", "[\n\n  ]{\n\n}[\n\n]", "é[\n\n]ü",
        ]
        for input in inputs {
            #expect(compactEmptyContainers(input) == Self.byRegex(input), "\(input.debugDescription)")
        }
    }
}

/// `publish --json`'s summary made by `PlainJSON` is what `printJSON` writes for it, or it is
/// left to `printJSON`: both builders as the command runs them.
@Suite struct PlainJSONTests {
    /// What `printJSON` writes for `summary`, as a command's standard output.
    static func printed(_ summary: PublishSummary) throws -> String {
        let output = Mutex("")
        let console = Console(
            environment: [:], inputDescriptor: -1, write: { _, text in output.withLock { $0 += text } }, errorIsTerminal: false)
        try Console.$current.withValue(console) { try printJSON(summary) }
        return output.withLock { $0 }
    }

    static func summary(
        run: Int64?, written: [String] = [], removed: [String] = [], unchanged: Int = 0, warnings: [String] = [],
        changes: [PublishSummary.Diff]? = nil
    ) -> PublishSummary {
        PublishSummary(
            run: run, dryRun: changes != nil, written: written, removed: removed, unchanged: unchanged, warnings: warnings,
            changes: changes)
    }

    @Test func sameAsFoundation() throws {
        let samples = [
            Self.summary(run: nil),
            Self.summary(run: 42, written: ["acme/weather/en/control.json"], unchanged: 7),
            Self.summary(
                run: 9_000_000_000, written: ["a/b/c", "a/b/d e"], removed: ["x/y/z.plist"], unchanged: 35_999,
                warnings: [#"acme/weather/"spring": banner 'a\b' {left} [out]; 50% / 100%"#, ""]),
        ]
        for sample in samples {
            let plain = try #require(sample.plainJSON)
            #expect(plain + "\n" == (try Self.printed(sample)))
        }
    }

    @Test func leavesEscapesAndDiffsToFoundation() {
        for text in ["tab\there", "line\nbreak", "café", "\u{7F}", "\u{1}"] {
            #expect(Self.summary(run: 1, warnings: [text]).plainJSON == nil)
        }
        #expect(Self.summary(run: nil, changes: [PublishSummary.Diff(path: "a/b/c", change: "new", diff: "")]).plainJSON == nil)
    }
}

import Foundation
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

/// `PlainJSON` writes what `printJSON` writes for the same values, or leaves the text to it.
@Suite struct PlainJSONTests {
    struct Summary: Encodable {
        let run: Int64?
        let dryRun: Bool
        let written, removed: [String]
        let unchanged: Int
        let warnings: [String]
    }

    static func foundation(_ summary: Summary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return compactEmptyContainers(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }

    static func plain(_ summary: Summary) -> String? {
        var members: [String: PlainJSON.Value] = [
            "dryRun": .bool(summary.dryRun), "written": .strings(summary.written), "removed": .strings(summary.removed),
            "unchanged": .integer(Int64(summary.unchanged)), "warnings": .strings(summary.warnings),
        ]
        if let run = summary.run { members["run"] = .integer(run) }
        return PlainJSON.object(members)
    }

    @Test func sameAsFoundation() throws {
        let samples = [
            Summary(run: nil, dryRun: false, written: [], removed: [], unchanged: 0, warnings: []),
            Summary(run: 42, dryRun: true, written: ["acme/weather/en/control.json"], removed: [], unchanged: 7, warnings: []),
            Summary(
                run: 9_000_000_000, dryRun: false, written: ["a/b/c", "a/b/d e"], removed: ["x/y/z.plist"], unchanged: 35_999,
                warnings: [#"acme/weather/"spring": banner 'a\b' {left} [out]; 50% / 100%"#, ""]),
        ]
        for sample in samples {
            #expect(Self.plain(sample) == (try Self.foundation(sample)))
        }
    }

    @Test func leavesEscapesToFoundation() {
        for text in ["tab\there", "line\nbreak", "café", "\u{7F}", "\u{1}"] {
            #expect(Self.plain(Summary(run: 1, dryRun: false, written: [], removed: [], unchanged: 0, warnings: [text])) == nil)
        }
    }
}

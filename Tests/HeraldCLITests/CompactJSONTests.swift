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

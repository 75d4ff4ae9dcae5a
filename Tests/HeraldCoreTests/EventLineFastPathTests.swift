import Foundation
import PropertyBased
import Testing

@testable import HeraldCore

/// The one-pass reader of common event lines must change nothing but speed: for any line,
/// the event (or the reason there is none) is the one the general JSON reader gives.
@Suite struct EventLineFastPathTests {
    static let pieces: [(key: String, values: [String])] = [
        ("event_id", [#""00000000-0000-4000-8000-000000000123""#, #""6F1C2A4E-0B7D-4E55-9A1B-2C3D4E5F6071""#, #""not-a-uuid""#, "null", #""00000000-0000-4000-8000-00000000012""#]),
        ("tenant", [#""acme""#, #""Acme""#, #""ac\u006de""#, "7"]),
        ("app", [#""weather""#, #""""#, "null"]),
        ("campaign", [#""spring""#, #""spr ing""#, #""spring\"""#]),
        ("device", [#""d-1""#, #""dé-1""#, "\"" + String(repeating: "d", count: 128) + "\"", "\"" + String(repeating: "d", count: 129) + "\"", #""a\tb""#]),
        ("kind", [#""impression""#, #""click""#, #""view""#, "true"]),
        ("at", [#""2026-11-23T09:30:00Z""#, #""2026-11-23T09:30:00.250+01:00""#, #""2026-02-30T00:00:00Z""#, #""2026-11-23""#]),
        ("locale", [#""de""#, #""pt-br""#, #""english""#]),
        ("app_version", [#""3.1.0""#, #""""#, "\"" + String(repeating: "9", count: 65) + "\""]),
        ("os_version", [#""17.2""#, "null", #""""#, "[1, 2]"]),
        ("extra", [#""ignored""#, "{\"a\": 1}"]),
    ]

    /// A line from choices: for each piece, whether it is there (most are) and which value;
    /// then spacing, one piece repeated now and then, and the order shuffled by the codes.
    static func line(_ codes: [Int]) -> String {
        var members: [String] = []
        for (index, piece) in pieces.enumerated() {
            let code = codes[index % codes.count] &+ index
            let present = index == pieces.count - 1 ? code % 5 == 0 : code % 11 != 0
            guard present else { continue }
            let space = code % 7 == 0 ? " " : ""
            members.append("\"\(piece.key)\"\(space):\(space)\(piece.values[(code / 3) % piece.values.count])")
        }
        if let first = codes.first, first % 13 == 0, let repeated = members.first { members.append(repeated) }
        var order = members
        for (index, code) in codes.enumerated() where !order.isEmpty {
            order.swapAt(index % order.count, abs(code) % order.count)
        }
        let separator = (codes.last ?? 0) % 4 == 0 ? ", " : ","
        return "{" + order.joined(separator: separator) + "}"
    }

    @Test func agreesWithTheGeneralReaderOnAnyLine() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...1_000_000).array(of: 1...12)) { codes in
            let line = Self.line(codes)
            let bytes = ArraySlice(Array(line.utf8))
            let fast = Result { () throws(EventProblem) in try EventStreamParser.event(json: bytes) }
            let general = Result { () throws(EventProblem) in try EventStreamParser.generalEvent(json: bytes) }
            #expect(fast == general, "\(line)")
        }
    }

    @Test func takesTheCommonShapeAndLeavesTheRest() {
        let common = #"{"event_id":"00000000-0000-4000-8000-000000000123","tenant":"bench","app":"app-7","campaign":"c-3","device":"device-1","kind":"impression","at":"2026-11-14T08:21:05Z","locale":"de","app_version":"3.1.0","os_version":null}"#
        #expect(EventLineFastPath.fields(ArraySlice(Array(common.utf8))) != nil)
        for other in [
            common.replacingOccurrences(of: "device-1", with: #"device\u002d1"#),  // an escape
            common.replacingOccurrences(of: "device-1", with: "dévice"),  // not ASCII
            common.replacingOccurrences(of: #""os_version""#, with: #""extra""#),  // another key
            common.replacingOccurrences(of: #""os_version":null"#, with: #""os_version":17"#),  // a number
            common.replacingOccurrences(of: #""os_version":null"#, with: #""tenant":"x""#),  // twice
            common + "x",
        ] {
            #expect(EventLineFastPath.fields(ArraySlice(Array(other.utf8))) == nil, "\(other)")
        }
    }

    /// The UUID check is the 8-4-4-4-12 hex pattern, nothing else. (Foundation's
    /// UUID(uuidString:), used before, also took "-f1c2a4e-…", which PostgreSQL refuses: one
    /// such line made a whole batch fail instead of being rejected alone.)
    @Test func uuidCheckIsThePattern() async throws {
        let pattern = try NSRegularExpression(pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
        func matches(_ text: String) -> Bool { pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        await propertyCheck(count: 3000, input: strings(from: "0aF9-gX", length: 34...38)) { text in
            #expect(DeliveryEvent.isUUID(text) == matches(text), "\(text)")
        }
        // One character of a real UUID changed: mostly still hex, sometimes a dash moved.
        let template = Array("6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071")
        let alphabet = Array("0aF9-gXé")
        await propertyCheck(count: 3000, input: Gen.int(in: 0...35), Gen.int(in: 0...7)) { position, replacement in
            var characters = template
            characters[position] = alphabet[replacement]
            let text = String(characters)
            #expect(DeliveryEvent.isUUID(text) == matches(text), "\(text)")
        }
        #expect(DeliveryEvent.isUUID("6F1C2A4E-0B7D-4E55-9A1B-2C3D4E5F6071"))
        #expect(!DeliveryEvent.isUUID("-f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071"))
    }
}

import Foundation
import Testing

@testable import HeraldCore

@Suite struct EventParsingTests {
    static let good =
        #"{"event_id":"6F1C2A4E-0B7D-4E55-9A1B-2C3D4E5F6071","tenant":"acme","app":"weather","campaign":"spring","device":"d-1","kind":"click","at":"2026-11-23T09:30:00.250+01:00","locale":"pt-br","app_version":"2.4.0"}"#

    func records(_ text: String, _ format: EventFormat = .ndjson) -> [EventRecord] {
        var parser = EventStreamParser(format: format)
        return parser.feed(Array(text.utf8)) + parser.finish()
    }

    @Test func aGoodLineBecomesAnEventWithCanonicalValues() throws {
        let event = try #require(try records(Self.good).first?.event.get())
        #expect(event.eventID == "6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071")
        #expect(event.locale.rawValue == "pt-BR")
        #expect(event.kind == .click)
        #expect(event.osVersion == nil)
        // 2026-11-23T08:30:00Z, checked with `date -u -d 2026-11-23T08:30:00Z +%s`.
        #expect(event.at.epochSeconds == 1_795_422_600)
    }

    @Test func everyMalformedLineSaysWhy() {
        let cases: [(String, String)] = [
            ("not json", "not a JSON object"),
            (#"{"event_id":"x"}"#, "not a UUID"),
            (Self.good.replacingOccurrences(of: #""kind":"click""#, with: #""kind":"tap""#), "kind \"tap\" is not one of"),
            (Self.good.replacingOccurrences(of: #""device":"d-1","#, with: ""), "missing field \"device\""),
            (Self.good.replacingOccurrences(of: #""device":"d-1""#, with: #""device":42"#), "field \"device\" must be a string"),
            (Self.good.replacingOccurrences(of: "+01:00", with: ""), "not an ISO 8601 time with a zone"),
            (Self.good.replacingOccurrences(of: "2026-11-23", with: "2026-02-29"), "not an ISO 8601 time"),
            (Self.good.replacingOccurrences(of: #""tenant":"acme""#, with: #""tenant":"Acme Corp""#), "tenant \"Acme Corp\" is not a slug"),
            (Self.good.replacingOccurrences(of: #""locale":"pt-br""#, with: #""locale":"portuguese""#), "not a locale tag"),
            (Self.good.replacingOccurrences(of: "d-1", with: String(repeating: "x", count: 129)), "longer than 128"),
            (Self.good.replacingOccurrences(of: "d-1", with: #"d\u0000"#), "NUL"),
            (Self.good.replacingOccurrences(of: #""app":"weather""#, with: #""app":"weather","app":"news""#), "appears twice"),
            (Self.good + " x", "text after the object"),
        ]
        for (line, reason) in cases {
            let record = records(line).first
            guard case .failure(let problem) = record?.event else {
                Issue.record("accepted: \(line)")
                continue
            }
            #expect(problem.description.contains(reason), "\(line) → \(problem)")
            #expect(record?.text == line)
        }
    }

    @Test func escapesAndUnicodeSurviveAndUnknownFieldsAreIgnored() throws {
        let line = Self.good.replacingOccurrences(of: #""device":"d-1""#, with: #""device":"a\"b\\c\u00e9\ud83c\udf89/🎉","extra":[1,{"x":"]"}]"#)
        let event = try #require(try records(line).first?.event.get())
        #expect(event.device == "a\"b\\cé🎉/🎉")
    }

    @Test func linesAreNumberedAndBlankOnesSkipped() {
        let text = Self.good + "\n\n  \nbad\r\n" + Self.good
        let found = records(text)
        #expect(found.map(\.line) == [1, 4, 5])
    }

    @Test func chunkBoundariesDoNotMatter() {
        let text = [Self.good, "oops", Self.good].joined(separator: "\n") + "\n"
        let whole = records(text).map { "\($0.line) \($0.event)" }
        var parser = EventStreamParser(format: .ndjson)
        var pieces: [EventRecord] = []
        for byte in text.utf8 { pieces += parser.feed([byte]) }
        pieces += parser.finish()
        #expect(pieces.map { "\($0.line) \($0.event)" } == whole)
        #expect(whole.count == 3)
    }

    @Test func csvWithQuotesAndAMultiLineFieldKeepsLineNumbers() throws {
        let header = "\u{FEFF}event_id, tenant,app,campaign,device,kind,at,locale,app_version,os_version\n"
        let rows = [
            "6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071,acme,weather,spring,\"d,\"\"1\"\"\",impression,2026-11-23T09:30:00Z,en,2.4,",
            "6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6072,acme,weather,spring,\"multi\nline\",click,2026-11-23T09:30:00Z,en,2.4,17.1",
            "6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6073,acme,weather,spring,d2,click,2026-11-23T09:30:00Z,en",
        ]
        let found = records(header + rows.joined(separator: "\n"), .csv)
        #expect(found.map(\.line) == [2, 3, 5])
        #expect(try found[0].event.get().device == "d,\"1\"")
        #expect(try found[0].event.get().osVersion == nil)
        #expect(try found[1].event.get().device == "multi\nline")
        #expect(try found[1].event.get().osVersion == "17.1")
        guard case .failure(let problem) = found[2].event else {
            Issue.record("short row accepted")
            return
        }
        #expect(problem.description == "8 fields where the header has 10")
    }

    @Test func aCSVHeaderWithoutARequiredColumnStopsEverything() {
        var parser = EventStreamParser(format: .csv)
        _ = parser.feed(Array("event_id,tenant,app,campaign,device,kind,locale,app_version\nx\n".utf8))
        #expect(parser.fatalProblem?.contains("no \"at\" column") == true)
    }

    @Test func timesAreCheckedLikeACalendar() {
        #expect(EventTime("2024-02-29T00:00:00Z") != nil)
        #expect(EventTime("2100-02-29T00:00:00Z") == nil)
        #expect(EventTime("2026-11-23T24:00:00Z") == nil)
        #expect(EventTime("2026-11-23T10:00:00+1500") == nil)
        #expect(EventTime("2026-11-23T10:00:00-0530")?.epochSeconds == EventTime("2026-11-23T15:30:00Z")?.epochSeconds)
        #expect(EventTime("2026-11-23T10:00:00+02")?.epochSeconds == EventTime("2026-11-23T08:00:00Z")?.epochSeconds)
        #expect(EventTime("1970-01-01T00:00:00Z")?.epochSeconds == 0)
        #expect(EventTime("2026-11-23T10:00:00.1234567891Z") == nil)
    }
}

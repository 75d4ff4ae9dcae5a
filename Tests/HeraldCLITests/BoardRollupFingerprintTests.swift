import Foundation
import HeraldCore
import HeraldTestSupport
import Testing

/// The board tells "nothing changed" from a fingerprint of the rollups (board-daily-fingerprint)
/// before reading every row: a new event that changes a chart must still make the board draw
/// that campaign's page again, whether it adds to a rollup row already there or makes a new one.
@Suite struct BoardRollupFingerprintTests {
    struct Summary: Decodable {
        let written: [String]
        let unchanged: Int
    }

    struct Run {
        let summary: Summary
        /// Whether the board stopped at its whole-input digest (HERALD_TIMING's phase).
        let stoppedEarly: Bool
    }

    static let page = "board/acme/weather/welcome.html"
    static let at = "2026-11-15T18:00:00Z"

    /// One event for acme/weather's `welcome`, by number, at `at`, in `locale`.
    static func event(_ number: Int, at: String, locale: String) -> String {
        let id = String(format: "00000000-0000-4000-9000-%012d", number)
        return #"{"event_id":"\#(id)","tenant":"acme","app":"weather","campaign":"welcome","device":"d-new-\#(number)","kind":"delivered","at":"\#(at)","locale":"\#(locale)","app_version":"2.4.0"}"#
            + "\n"
    }

    @Test func aNewEventInTheWindowDrawsItsCampaignAgain() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database, environment: ["HERALD_TIMING": "1"])
                try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
                try herald.succeed(["events", "ingest", "-"], stdin: SampleEvents.ndjson(40))
                let review = root.appendingPathComponent("review")
                func board(_ folder: URL = review) throws -> Run {
                    let result = try herald.succeed(["board", "--out", folder.path, "--at", Self.at, "--json"])
                    return Run(
                        summary: try JSONDecoder().decode(Summary.self, from: Data(result.stdout.utf8)),
                        stoppedEarly: result.stderr.contains("timing: unchanged (the input is the previous board's)"))
                }
                /// The page as a board made afresh would draw it now.
                var fresh = 0
                func freshPage() throws -> String {
                    fresh += 1
                    let folder = root.appendingPathComponent("fresh-\(fresh)")
                    _ = try board(folder)
                    return try String(contentsOf: folder.appendingPathComponent(Self.page), encoding: .utf8)
                }
                func page() throws -> String { try String(contentsOf: review.appendingPathComponent(Self.page), encoding: .utf8) }

                let first = try board()
                #expect(first.summary.written.contains(Self.page) && !first.stoppedEarly)
                let quiet = try board()
                #expect(quiet.stoppedEarly && quiet.summary.written.isEmpty, "\(quiet)")
                let before = try page()

                // An event into a rollup row already there (welcome, November 10th, en: sample event 10's):
                // the rows stay as many, one count grows.
                try herald.succeed(["events", "ingest", "-"], stdin: Self.event(1, at: "2026-11-10T15:00:00Z", locale: "en"))
                let grown = try board()
                #expect(!grown.stoppedEarly && grown.summary.written.contains(Self.page), "\(grown)")
                #expect(try page() != before)
                #expect(try page() == freshPage())

                // An event on a day welcome had none (a new rollup row).
                try herald.succeed(["events", "ingest", "-"], stdin: Self.event(2, at: "2026-11-15T09:00:00Z", locale: "de"))
                let added = try board()
                #expect(!added.stoppedEarly && added.summary.written.contains(Self.page), "\(added)")
                #expect(try page() == freshPage())

                // An event outside the chart's window changes no chart: nothing is drawn again.
                try herald.succeed(["events", "ingest", "-"], stdin: Self.event(3, at: "2026-10-01T09:00:00Z", locale: "en"))
                let outside = try board()
                #expect(outside.stoppedEarly && outside.summary.written.isEmpty, "\(outside)")
            }
        }
    }
}

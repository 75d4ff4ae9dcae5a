import HeraldText
import HeraldJobs
import Testing

@testable import herald

@Suite struct ProgressLineTests {
    @Test func aFileOfKnownSizeGetsABarPercentAndETA() {
        // Half the bytes in 10 s: 10 s to go.
        let line = ProgressLine.render(.init(read: 5000, inserted: 4990, seconds: 10, bytesRead: 500, totalBytes: 1000))
        #expect(line == String(repeating: "█", count: 12) + String(repeating: "░", count: 12) + "  50%  5000 lines · 4990 stored · 500 lines/s · ETA 0:10")
    }

    @Test func standardInputGetsCountsOnly() {
        let line = ProgressLine.render(.init(read: 300, inserted: 300, seconds: 2, bytesRead: 900, totalBytes: nil))
        #expect(line == "300 lines · 300 stored · 150 lines/s")
    }

    @Test(arguments: [(0.0, "0:00"), (59.4, "0:59"), (65, "1:05"), (3725, "1:02:05")])
    func durations(_ seconds: Double, _ text: String) {
        #expect(ProgressLine.duration(seconds) == text)
    }
}

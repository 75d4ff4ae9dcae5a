import Foundation
import Testing

@testable import HeraldCore

/// `Timestamp.format` writes its digits itself (not through String(format:), for the start
/// time of every command that prints a time): what it writes is what the format said.
@Suite struct TimestampFormatTests {
    @Test func zeroPaddingIsPrintfs() {
        for value in [0, 1, 9, 10, 99, 100, 999, 1000, 1970, 9999, 10000, 123_456, -1, -9, -10, -999, -1000, -12345] {
            for width in [2, 4] {
                #expect(Timestamp.zeroPadded(value, width) == String(format: "%0\(width)d", value), "\(value) width \(width)")
            }
        }
    }

    @Test func timesAreWrittenAsTheFormatSaid() {
        // Every millionth second or so from 1900 to 2200, and the edges of a day.
        var seconds = -2_208_988_800
        while seconds < 7_258_118_400 {
            for offset in [0, 59, 86_399] {
                var time = time_t(seconds + offset)
                var parts = tm()
                gmtime_r(&time, &parts)
                let expected = String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                    Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
                #expect(Timestamp.format(Date(timeIntervalSince1970: Double(seconds + offset))) == expected)
            }
            seconds += 1_000_003
        }
    }
}

import Foundation
import PropertyBased
import Testing

@testable import HeraldCore

/// The one reader of input times (`TimeText`) behind `Timestamp`, `EventTime` and `UTCDay`.
@Suite struct TimeParsingTests {
    @Test func daysAndDatesGoBothWays() async {
        // 1970 to 2400, checked against the C library.
        await propertyCheck(count: 2000, input: Gen.int(in: 0...157_000)) { days in
            let day = UTCDay(daysSince1970: days)
            let (year, month, dayOfMonth) = day.date
            #expect(UTCDay(year: year, month: month, day: dayOfMonth) == day)
            var time = time_t(days * 86_400)
            var parts = tm()
            gmtime_r(&time, &parts)
            #expect(year == Int(parts.tm_year) + 1900 && month == Int(parts.tm_mon) + 1 && dayOfMonth == Int(parts.tm_mday), "\(days)")
            #expect(UTCDay(day.description) == day)
        }
        #expect(UTCDay("2026-11-01")?.adding(days: -29).description == "2026-10-03")
        #expect(UTCDay("2024-03-01")?.adding(days: -1).description == "2024-02-29")
    }

    @Test func onlyRealDatesAreDays() {
        #expect(UTCDay("2024-02-29") != nil)
        for text in ["2026-02-29", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "1969-12-31", "2026-1-01", "2026-11-01T00:00:00Z", "20261101"] {
            #expect(UTCDay(text) == nil, "\(text)")
        }
    }

    /// Every form means the same instant whichever reader takes it; each reader takes the forms it documents.
    @Test func oneGrammarForEveryReader() throws {
        let may = Date(timeIntervalSince1970: 1_777_593_600)
        for text in ["2026-05-01T00:00:00Z", "2026-05-01 02:00:00+02:00", "2026-05-01T02:00:00+0200", "2026-04-30T19:00:00-05",
                     "2026-05-01T00:00:00.5Z"] {
            #expect(Timestamp.parse(text) == may, "\(text)")
            #expect(EventTime(text)?.epochSeconds == 1_777_593_600, "\(text)")
        }
        // Without seconds or a time: a schedule time, not an event's.
        #expect(Timestamp.parse("2026-05-01T02:00+02:00") == may)
        #expect(EventTime("2026-05-01T02:00+02:00") == nil)
        #expect(Timestamp.parse("2026-05-01") == may)
        #expect(EventTime("2026-05-01") == nil)
        // Refused by every reader: what PostgreSQL would refuse or misread.
        for text in ["2026-02-30T00:00:00Z", "2026-05-01T00:00:60Z", "2026-05-01T00:00:00+15:00", "2026-05-01T00:00:00+02:",
                     "2026-05-01T00:00:00.Z", "2026-05-01T00:00:00.1234567891Z", "1969-12-31T23:59:59Z", "2026-05-01T00:00:00 Z"] {
            #expect(Timestamp.parse(text) == nil, "\(text)")
            #expect(EventTime(text) == nil, "\(text)")
        }
    }

    @Test func fractionsAreKeptToTheNanosecond() throws {
        #expect(EventTime("2026-11-23T10:30:00.250+01:00")?.nanoseconds == 250_000_000)
        #expect(EventTime("2026-11-23T10:30:00.000000001Z")?.nanoseconds == 1)
        #expect(EventTime("2026-11-23T10:30:00.123456789Z")?.nanoseconds == 123_456_789)
        #expect(EventTime("2026-11-23T10:30:00Z")?.nanoseconds == 0)
    }

    @Test func eventIDsAreReadOnceIntoTheirBits() throws {
        let id = try #require(EventID("6F1C2A4E-0B7D-4E55-9A1B-2C3D4E5F6071"))
        #expect(id.high == 0x6F1C_2A4E_0B7D_4E55 && id.low == 0x9A1B_2C3D_4E5F_6071)
        #expect(id.description == "6f1c2a4e-0b7d-4e55-9a1b-2c3d4e5f6071")
        #expect(EventID(id.description) == id)
        let uuid = UUID()
        #expect(EventID(uuid.uuidString)?.description == uuid.uuidString.lowercased())
    }
}

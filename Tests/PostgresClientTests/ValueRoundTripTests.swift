import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// Every value type through a real server and back, NULLs included.
@Suite struct ValueRoundTripTests {
    func roundTrip<T: PostgresEncodable & PostgresDecodable & Equatable>(_ value: T, as sqlType: String) throws -> T {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            return try connection.query("SELECT $1::\(UnsafeSQL(sqlType)) AS v", [value])[0].decode("v", as: T.self)
        }
    }

    @Test func scalars() throws {
        #expect(try roundTrip("Olá & <wörld> 🎉 \"quoted\" \\ back", as: "text") == "Olá & <wörld> 🎉 \"quoted\" \\ back")
        #expect(try roundTrip(Int(-42), as: "bigint") == -42)
        #expect(try roundTrip(Int32.max, as: "int4") == Int32.max)
        #expect(try roundTrip(Int64.min, as: "int8") == Int64.min)
        #expect(try roundTrip(88.5, as: "float8") == 88.5)
        #expect(try roundTrip(0.1, as: "numeric") == 0.1)
        #expect(try roundTrip(true, as: "boolean") == true)
        #expect(try roundTrip(false, as: "boolean") == false)
        let uuid = UUID()
        #expect(try roundTrip(uuid, as: "uuid") == uuid)
        #expect(try roundTrip(Data([0, 1, 0xFE, 0xFF]), as: "bytea") == Data([0, 1, 0xFE, 0xFF]))
        #expect(try roundTrip(PostgresJSON("{\"a\": [1, true]}"), as: "jsonb") == PostgresJSON("{\"a\": [1, true]}"))
    }

    /// libpq takes parameters as C strings: a NUL would end the text there without a word.
    @Test func aTextWithNULIsRefusedNotCut() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let error = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::text AS v, $2::text AS w", ["ok", "<p>a\u{0}b</p>"]) }
            #expect(error?.kind == .usage)
            #expect(error?.message == "query parameter $2 contains a NUL character, which PostgreSQL text cannot hold")
        }
    }

    @Test func everyOtherCharacterClassRoundTrips() throws {
        let text = "\u{1}\t\r\n\u{7F}\u{80}\u{85}\u{9F}\u{A0}\u{2028}\u{2029}\u{FEFF}\u{202E}\u{E000}🎉\u{10FFFF}"
        #expect(try roundTrip(text, as: "text") == text)
    }

    @Test func datesKeepMicrosecondsAndZones() throws {
        let whole = Date(timeIntervalSince1970: 1_777_593_600)
        #expect(try roundTrip(whole, as: "timestamptz") == whole)
        let fractional = Date(timeIntervalSince1970: 1_777_593_600.123456)
        let back = try roundTrip(fractional, as: "timestamptz")
        #expect(abs(back.timeIntervalSince1970 - fractional.timeIntervalSince1970) < 0.000_001)
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            // Whatever zone the literal had, the session reports UTC and the instant is kept.
            let row = try connection.query("SELECT '2026-05-01 02:00:00+02'::timestamptz AS t, 'infinity'::timestamptz AS i")[0]
            #expect(try row.decode("t", as: Date.self) == whole)
            #expect(throws: PostgresError.self) { try row.decode("i", as: Date.self) }
        }
    }

    @Test func textArraysWithAwkwardElements() throws {
        let awkward = ["plain", "with space", "comma,inside", "quote\"inside", "back\\slash", "{braces}", "NULL", "", "ünï"]
        #expect(try roundTrip(awkward, as: "text[]") == awkward)
        #expect(try roundTrip([String](), as: "text[]") == [])
    }

    @Test func nullsDecodeAsNilAndRefuseNonOptionals() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let none: String? = nil
            let row = try connection.query("SELECT $1::text AS v, 1 AS one", [none])[0]
            #expect(try row.decode("v", as: String?.self) == nil)
            #expect(try row.isNull("v"))
            #expect(try !row.isNull("one"))
            let error = #expect(throws: PostgresError.self) { try row.decode("v", as: String.self) }
            #expect(error?.message.contains("\"v\"") == true)
            #expect(error?.kind == .decoding)
        }
    }

    @Test func decodingErrorsNameTheColumn() throws {
        try withTestDatabase { configuration in
            let connection = try Connection(configuration: configuration)
            let row = try connection.query("SELECT 'abc'::text AS word")[0]
            let wrongType = #expect(throws: PostgresError.self) { try row.decode("word", as: Int.self) }
            #expect(wrongType?.message.contains("\"word\"") == true)
            #expect(wrongType?.message.contains("Int") == true)
            let missing = #expect(throws: PostgresError.self) { try row.decode("nope", as: String.self) }
            #expect(missing?.message.contains("\"nope\"") == true)
            #expect(missing?.message.contains("word") == true)
        }
    }
}

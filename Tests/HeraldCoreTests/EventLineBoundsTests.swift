import Foundation
import Testing

@testable import HeraldCore

/// An event line longer than `EventStreamParser.maxRecordBytes` is rejected and skipped, in
/// bounded memory: one endless line (a file of NULs, `/dev/zero`) cannot stall the reader.
@Suite struct EventLineBoundsTests {
    @Test func anOverLongLineIsRejectedAndTheNextOneRead() throws {
        for chunkSize in [1 << 16, 1 << 20, 8 << 20] {
            var parser = EventStreamParser(format: .ndjson)
            let input = Array(("{\"device\":\"" + String(repeating: "x", count: 3 << 20) + "\"}\n" + EventParsingTests.good + "\n").utf8)
            var records: [EventRecord] = []
            var offset = 0
            while offset < input.count {
                records += parser.feed(input[offset..<min(offset + chunkSize, input.count)])
                offset += chunkSize
            }
            records += parser.finish()
            #expect(records.count == 2, "chunks of \(chunkSize)")
            #expect(records.first?.line == 1 && records.first.map { $0.text.utf8.count < 250 } == true)
            guard case .failure(let problem)? = records.first?.event else {
                Issue.record("the long line was read")
                continue
            }
            #expect(problem.description.contains("bytes long, more than the 1 MiB an event may take"), "\(problem)")
            #expect(records.last?.line == 2)
            #expect((try? records.last?.event.get()) != nil)
        }
    }

    /// Each chunk of an endless record is looked at once and dropped: what the parser holds
    /// back stays under a record's limit plus a chunk, so each chunk costs the same and the
    /// whole input is read in linear time, in bounded memory.
    @Test func anEndlessLineIsReadInBoundedMemory() {
        var parser = EventStreamParser(format: .csv)
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        #expect(parser.feed(Array("event_id,tenant,app,campaign,device,kind,at,locale,app_version\n\"".utf8)).isEmpty)
        var largest = 0
        for _ in 0..<64 {
            #expect(parser.feed(chunk).isEmpty)
            largest = max(largest, parser.bufferedBytes)
        }
        #expect(largest <= EventStreamParser.maxRecordBytes + chunk.count, "held back \(largest) bytes")
        let last = parser.finish()
        #expect(last.count == 1 && last.first?.line == 2)
    }
}

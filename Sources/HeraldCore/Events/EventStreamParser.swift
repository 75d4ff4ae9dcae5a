/// The input formats of `herald events ingest`.
public enum EventFormat: String, CaseIterable, Sendable {
    /// One JSON object per line.
    case ndjson
    /// A header row naming the columns, then one event per record (RFC 4180 quoting).
    case csv
}

/// One record of the input: where it starts, its text (for the rejects file), and the event
/// or why it is not one.
public struct EventRecord: Sendable {
    public let line: Int
    public let text: String
    public let event: Result<DeliveryEvent, EventProblem>
}

/// Turns input bytes, fed in chunks of any size, into records, in constant memory: only the
/// unfinished last line is kept between chunks. Blank lines are skipped.
public struct EventStreamParser {
    /// The longest record read: a longer one (an endless line, a file with no newlines) is
    /// rejected and skipped to its end, so memory stays bounded and nothing is scanned twice over.
    public static let maxRecordBytes = 1 << 20

    public let format: EventFormat
    private var pending: [UInt8] = []
    /// Inside a record longer than `maxRecordBytes`: its line, its size so far, its first bytes.
    private var skipping: (line: Int, bytes: Int, head: [UInt8])?
    /// Line number of `pending`'s first byte.
    private var pendingLine = 1
    private var header: [String]?
    /// A problem with the whole input (a CSV header without a required column).
    public private(set) var fatalProblem: String?

    public init(format: EventFormat) {
        self.format = format
    }

    /// Bytes held back for a record not yet complete (never much more than `maxRecordBytes`).
    var bufferedBytes: Int { pending.count }

    /// The records completed by `chunk`.
    public mutating func feed(_ chunk: some Collection<UInt8>) -> [EventRecord] {
        pending.append(contentsOf: chunk)
        return drain(final: false)
    }

    /// The last record, when the input did not end with a newline.
    public mutating func finish() -> [EventRecord] {
        drain(final: true)
    }

    private mutating func drain(final: Bool) -> [EventRecord] {
        var records: [EventRecord] = []
        var start = 0
        var line = pendingLine
        if let skipped = skipping {
            // The rest of an over-long record: drop bytes up to its newline.
            guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else {
                skipping?.bytes += pending.count
                pending.removeAll()
                if final {
                    records.append(Self.overLong(skipped.line, skipped.head, skipped.bytes))
                    skipping = nil
                }
                return records
            }
            records.append(Self.overLong(skipped.line, skipped.head, skipped.bytes + newline))
            skipping = nil
            start = newline + 1
            line = skipped.line + 1
        }
        while start < pending.count, fatalProblem == nil {
            guard let (end, next, lines) = recordEnd(from: start, final: final) else {
                if pending.count - start > Self.maxRecordBytes {
                    skipping = (line, pending.count - start, Array(pending[start..<start + 200]))
                    start = pending.count
                }
                break
            }
            if end - start > Self.maxRecordBytes {
                records.append(Self.overLong(line, Array(pending[start..<start + 200]), end - start))
                line += lines
                start = next
                continue
            }
            var slice = pending[start..<end]
            if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
            if !slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                if let record = record(slice, line: line) { records.append(record) }
            }
            line += lines
            start = next
        }
        pending.removeFirst(start)
        pendingLine = line
        if final, !pending.isEmpty, fatalProblem == nil {
            // An unterminated CSV quote runs to the end of the input.
            records.append(EventRecord(line: line, text: String(decoding: pending, as: UTF8.self), event: .failure(EventProblem("unterminated quoted field"))))
            pending.removeAll()
        }
        return records
    }

    /// A record too long to read: rejected with its first bytes (as the rejects file's record).
    private static func overLong(_ line: Int, _ head: [UInt8], _ size: Int) -> EventRecord {
        EventRecord(
            line: line, text: String(decoding: head, as: UTF8.self) + "…",
            event: .failure(EventProblem("the line is \(size) bytes long, more than the \(maxRecordBytes >> 20) MiB an event may take: skipped")))
    }

    /// End of the record starting at `start` (exclusive, before its newline), where the next
    /// one starts, and how many lines it spans; nil when it is not complete yet.
    private func recordEnd(from start: Int, final: Bool) -> (Int, Int, Int)? {
        var index = start
        var lines = 1
        var quoted = false
        while index < pending.count {
            let byte = pending[index]
            if format == .csv, byte == UInt8(ascii: "\"") {
                quoted.toggle()  // a doubled quote toggles twice: still inside
            } else if byte == UInt8(ascii: "\n") {
                if !quoted { return (index, index + 1, lines) }
                lines += 1
            }
            index += 1
        }
        return final && !quoted ? (pending.count, pending.count, lines) : nil
    }

    private mutating func record(_ bytes: ArraySlice<UInt8>, line: Int) -> EventRecord? {
        let event: Result<DeliveryEvent, EventProblem>
        switch format {
        case .ndjson:
            event = Result { () throws(EventProblem) in try Self.event(json: bytes) }
        case .csv:
            guard let header else {
                readHeader(bytes)
                return nil
            }
            event = Result { () throws(EventProblem) in try Self.event(csv: bytes, header: header) }
        }
        return EventRecord(line: line, text: String(decoding: bytes, as: UTF8.self), event: event)
    }

    private mutating func readHeader(_ bytes: ArraySlice<UInt8>) {
        guard let names = try? Self.csvFields(bytes) else {
            fatalProblem = "the CSV header row is not valid CSV"
            return
        }
        // Spaces around names, and a byte-order mark before the first, are not part of them.
        let trimmed = names.enumerated().map { index, name in
            (index == 0 && name.hasPrefix("\u{FEFF}") ? String(name.dropFirst()) : name).trimmingSpaces()
        }
        if let missing = DeliveryEvent.requiredColumns.first(where: { !trimmed.contains($0) }) {
            fatalProblem = "the CSV header row has no \"\(missing)\" column (columns: \(DeliveryEvent.columns.joined(separator: ",")))"
            return
        }
        header = trimmed
    }

    static func event(json bytes: ArraySlice<UInt8>) throws(EventProblem) -> DeliveryEvent {
        if let fields = EventLineFastPath.fields(bytes) { return try DeliveryEvent(fields) }
        return try generalEvent(json: bytes)
    }

    /// Any line: the whole JSON grammar, with a reason for whatever is wrong.
    static func generalEvent(json bytes: ArraySlice<UInt8>) throws(EventProblem) -> DeliveryEvent {
        let object = try FlatJSONObject.parse(bytes)
        var fields: [String: String?] = [:]
        for name in DeliveryEvent.columns {
            switch object[name] {
            case .text(let text): fields[name] = .some(text)
            case .null, nil: fields[name] = .some(nil)
            case .other: throw EventProblem("field \"\(name)\" must be a string")
            }
        }
        return try DeliveryEvent(fields: fields)
    }

    static func event(csv bytes: ArraySlice<UInt8>, header: [String]) throws(EventProblem) -> DeliveryEvent {
        let values = try csvFields(bytes)
        guard values.count == header.count else {
            throw EventProblem("\(values.count) fields where the header has \(header.count)")
        }
        var fields: [String: String?] = [:]
        for (name, value) in zip(header, values) where DeliveryEvent.columns.contains(name) {
            fields[name] = value.isEmpty ? .some(nil) : .some(value)
        }
        return try DeliveryEvent(fields: fields)
    }

    /// RFC 4180 fields: commas separate, quotes enclose, a doubled quote is a quote.
    static func csvFields(_ bytes: ArraySlice<UInt8>) throws(EventProblem) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var index = bytes.startIndex
        var quoted = false
        var wasQuoted = false
        func finish() throws(EventProblem) -> String {
            guard let text = String(validating: field, as: UTF8.self) else { throw EventProblem("text is not valid UTF-8") }
            return text
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                fields.append(try finish())
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            } else if byte == UInt8(ascii: "\"") {
                guard field.isEmpty, !wasQuoted else { throw EventProblem("a quote inside an unquoted CSV field") }
                quoted = true
                wasQuoted = true
            } else {
                guard !wasQuoted else { throw EventProblem("text after a quoted CSV field") }
                field.append(byte)
            }
            index += 1
        }
        guard !quoted else { throw EventProblem("unterminated quoted field") }
        fields.append(try finish())
        return fields
    }
}

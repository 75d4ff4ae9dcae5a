/// How a device sent a batch to `herald collect`: one JSON object per line, or a JSON array
/// of objects (docs/events.md's event format either way).
public enum CollectedBodyFormat: Sendable, Equatable {
    case ndjson
    case jsonArray
}

/// Why a whole request body is refused (nothing of it is stored).
public enum CollectedBodyProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not NDJSON or a JSON array at all (HTTP 400).
    case malformed(String)
    /// More events than a request may carry (HTTP 413).
    case tooManyEvents(limit: Int)

    public var description: String {
        switch self {
        case .malformed(let why): why
        case .tooManyEvents(let limit): "a request carries at most \(limit) events: send the rest in another request"
        }
    }
}

/// One device batch read into records, each event at its index (0-based: its line among the
/// non-blank lines, or its place in the array) with the app key's tenant and app: an event
/// may leave `tenant` and `app` out, and one naming another tenant or app is rejected alone.
/// Every other rule is the event format's own, checked by the same code as `events ingest`.
public enum CollectedBatch {
    /// The most events one request may carry.
    public static let maxEvents = 1_000

    /// How far a device's clock may run ahead of the collector's: an event's time later than
    /// this is refused alone. Each month an event falls in is a partition of the history: a
    /// key (which ships inside an app) could otherwise make thousands, one per far-off month.
    public static let latestAhead: Int64 = 24 * 3_600
    /// How old an event a device may still send (its queue survives long offline spells): a
    /// year and a day. Older history goes in through `herald events ingest`.
    public static let oldestAgo: Int64 = 366 * 24 * 3_600

    /// `receivedAt`: the collector's clock (seconds since 1970), which an event's time must lie
    /// within `oldestAgo` before and `latestAhead` after; nil takes any time the format does.
    public static func records(
        _ body: [UInt8], format: CollectedBodyFormat, tenant: Slug, app: Slug, receivedAt: Int64? = nil
    ) throws(CollectedBodyProblem) -> [EventRecord] {
        let elements = try format == .ndjson ? lines(body) : arrayElements(body)
        var records: [EventRecord] = []
        records.reserveCapacity(elements.count)
        var objects = 0
        for (index, range) in elements.enumerated() {
            var (event, wasObject) = Self.event(body[range], tenant: tenant, app: app)
            if let receivedAt, case .success(let read) = event, let problem = Self.outsideWindow(read.at, receivedAt: receivedAt) {
                event = .failure(problem)
            }
            if wasObject { objects += 1 }
            records.append(EventRecord(line: index, text: "", event: event))
        }
        guard !records.isEmpty else { throw .malformed("the body holds no events") }
        if format == .ndjson, objects == 0 {
            throw .malformed("the body is not NDJSON: no line is a JSON object (one event per line, as docs/events.md shows)")
        }
        return records
    }

    /// Why an event's time is refused by a collector whose clock reads `receivedAt`, if it is.
    static func outsideWindow(_ at: EventTime, receivedAt: Int64) -> EventProblem? {
        if at.epochSeconds > receivedAt + latestAhead {
            return EventProblem("at \(Excerpt.quoted(at.text)) is more than a day ahead of the collector's clock: check the device's clock")
        }
        if at.epochSeconds < receivedAt - oldestAgo {
            return EventProblem(
                "at \(Excerpt.quoted(at.text)) is more than 366 days old: the collector takes the last year's events (older ones: herald events ingest)")
        }
        return nil
    }

    /// One element as an event, and whether it was meant as a JSON object (it starts with `{`:
    /// one with a defect, a key twice say, is that event's problem, not the body's).
    private static func event(_ bytes: ArraySlice<UInt8>, tenant: Slug, app: Slug) -> (Result<DeliveryEvent, EventProblem>, Bool) {
        var fields: EventFields
        if let fast = EventLineFastPath.fields(bytes) {
            fields = fast
        } else {
            let object: [String: FlatJSONObject.Value]
            do {
                object = try FlatJSONObject.parse(bytes)
            } catch {
                return (.failure(error), bytes.first == UInt8(ascii: "{"))
            }
            fields = EventFields()
            for (column, name) in DeliveryEvent.columns.enumerated() {
                switch object[name] {
                case .text(let text): fields[column] = text
                case .null, nil: break
                case .other: return (.failure(EventProblem("field \"\(name)\" must be a string")), true)
                }
            }
        }
        do throws(EventProblem) {
            try scope(&fields, column: 1, to: tenant, "tenant")
            try scope(&fields, column: 2, to: app, "app")
            return (.success(try DeliveryEvent(fields)), true)
        } catch {
            return (.failure(error), true)
        }
    }

    /// The key's tenant or app where the event leaves it out; an event naming another is refused.
    private static func scope(_ fields: inout EventFields, column: Int, to slug: Slug, _ name: String) throws(EventProblem) {
        guard let given = fields[column] else {
            fields[column] = slug.rawValue
            return
        }
        guard given == slug.rawValue else {
            throw EventProblem("\(name) \(Excerpt.quoted(given)) is not this app key's \(name) (leave \(name) out: the key says it)")
        }
    }

    /// The non-blank lines of an NDJSON body.
    private static func lines(_ body: [UInt8]) throws(CollectedBodyProblem) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start < body.count {
            let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) ?? body.count
            var trimmed = start..<end
            while let last = trimmed.last, isSpace(body[last]) { trimmed = trimmed.lowerBound..<last }
            while let first = trimmed.first, isSpace(body[first]) { trimmed = (first + 1)..<trimmed.upperBound }
            if !trimmed.isEmpty {
                guard ranges.count < maxEvents else { throw .tooManyEvents(limit: maxEvents) }
                ranges.append(trimmed)
            }
            start = end + 1
        }
        return ranges
    }

    /// The elements of a JSON array body, each as written (its own JSON is read per event).
    private static func arrayElements(_ body: [UInt8]) throws(CollectedBodyProblem) -> [Range<Int>] {
        var index = 0
        func skipSpace() {
            while index < body.count, isSpace(body[index]) { index += 1 }
        }
        func malformed(_ what: String) -> CollectedBodyProblem {
            Self.malformedArray(what, at: index)
        }
        skipSpace()
        guard index < body.count, body[index] == UInt8(ascii: "[") else { throw malformed("expected '['") }
        index += 1
        skipSpace()
        var ranges: [Range<Int>] = []
        if index < body.count, body[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipSpace()
                let start = index
                try skipValue(body, &index)
                guard ranges.count < maxEvents else { throw .tooManyEvents(limit: maxEvents) }
                ranges.append(start..<index)
                skipSpace()
                guard index < body.count else { throw malformed("the array does not end") }
                if body[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard body[index] == UInt8(ascii: "]") else { throw malformed("expected ',' or ']'") }
                index += 1
                break
            }
        }
        skipSpace()
        guard index == body.count else { throw malformed("text after the array") }
        return ranges
    }

    /// Past one JSON value: strings, and brackets outside strings, are followed; the value's
    /// own grammar is left to the event parser.
    private static func skipValue(_ body: [UInt8], _ index: inout Int) throws(CollectedBodyProblem) {
        func malformed(_ what: String) -> CollectedBodyProblem { malformedArray(what, at: index) }
        var depth = 0
        let start = index
        while index < body.count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                while index < body.count, body[index] != UInt8(ascii: "\"") {
                    index += body[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < body.count else { throw malformed("a string does not end") }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 {
                    guard index > start else { throw malformed("expected a value") }
                    return
                }
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            case UInt8(ascii: ","):
                if depth == 0 {
                    guard index > start else { throw malformed("expected a value") }
                    return
                }
            default:
                if depth == 0, isSpace(byte) { return }
            }
            index += 1
        }
        if depth > 0 { throw malformed("an object or array does not end") }
    }

    private static func malformedArray(_ what: String, at index: Int) -> CollectedBodyProblem {
        .malformed("the body is not a JSON array of events: \(what) at byte \(index + 1)")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}

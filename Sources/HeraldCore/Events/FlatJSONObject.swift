/// Reads one JSON object whose values are strings or null (an event line), straight from
/// bytes: a million lines must not go through a general JSON tree each. Numbers, booleans,
/// arrays and objects as values are read past and reported as not-a-string when a caller
/// asks for that field.
enum FlatJSONObject {
    /// A field's value: text, null, or something else (number, bool, array, object).
    enum Value: Equatable {
        case text(String)
        case null
        case other
    }

    static func parse(_ bytes: ArraySlice<UInt8>) throws(EventProblem) -> [String: Value] {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { throw EventProblem("not a JSON object") }
        var fields: [String: Value] = [:]
        reader.skipSpace()
        if reader.take(UInt8(ascii: "}")) {
            try reader.expectEnd()
            return fields
        }
        while true {
            reader.skipSpace()
            let key = try reader.string()
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { throw reader.problem("expected ':'") }
            reader.skipSpace()
            let value = try reader.value()
            guard fields.updateValue(value, forKey: key) == nil else { throw EventProblem("field \(Excerpt.quoted(key)) appears twice") }
            reader.skipSpace()
            if reader.take(UInt8(ascii: ",")) { continue }
            guard reader.take(UInt8(ascii: "}")) else { throw reader.problem("expected ',' or '}'") }
            try reader.expectEnd()
            return fields
        }
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        func problem(_ what: String) -> EventProblem {
            EventProblem("invalid JSON at column \(index - bytes.startIndex + 1): \(what)")
        }

        mutating func skipSpace() {
            while index < bytes.endIndex, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func expectEnd() throws(EventProblem) {
            skipSpace()
            guard index == bytes.endIndex else { throw problem("text after the object") }
        }

        mutating func value() throws(EventProblem) -> Value {
            guard index < bytes.endIndex else { throw problem("missing value") }
            switch bytes[index] {
            case UInt8(ascii: "\""): return .text(try string())
            case UInt8(ascii: "n"):
                guard literal("null") else { throw problem("unexpected value") }
                return .null
            case UInt8(ascii: "t"):
                guard literal("true") else { throw problem("unexpected value") }
                return .other
            case UInt8(ascii: "f"):
                guard literal("false") else { throw problem("unexpected value") }
                return .other
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.endIndex, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                guard Double(String(decoding: bytes[start..<index], as: UTF8.self)) != nil else { throw problem("bad number") }
                return .other
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                try skipNested()
                return .other
            default:
                throw problem("unexpected value")
            }
        }

        mutating func literal(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard bytes.endIndex - index >= word.count, bytes[index..<(index + word.count)].elementsEqual(word) else { return false }
            index += word.count
            return true
        }

        /// Past an array or object, strings inside included (their brackets do not count).
        mutating func skipNested() throws(EventProblem) {
            var depth = 0
            repeat {
                guard index < bytes.endIndex else { throw problem("unterminated array or object") }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    _ = try string()
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0
        }

        mutating func string() throws(EventProblem) -> String {
            guard take(UInt8(ascii: "\"")) else { throw problem("expected a string") }
            var out: [UInt8] = []
            var start = index
            while true {
                guard index < bytes.endIndex else { throw problem("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    out += bytes[start..<index]
                    index += 1
                    break
                }
                if byte < 0x20 { throw problem("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                out += bytes[start..<index]
                index += 1
                guard index < bytes.endIndex else { throw problem("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else { throw problem("lone surrogate") }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw problem("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw problem("lone surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw problem("bad \\u escape") }
                    out += Array(String(Character(unicode)).utf8)
                default:
                    throw problem("bad escape")
                }
                start = index
            }
            guard let text = String(validating: out, as: UTF8.self) else { throw EventProblem("text is not valid UTF-8") }
            return text
        }

        mutating func hex4() throws(EventProblem) -> UInt32 {
            guard bytes.endIndex - index >= 4 else { throw problem("bad \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
                default: throw problem("bad \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}

/// What PostgreSQL's lexer reads as one piece whose text means nothing to CompiledQuery: a
/// string ('…' with '' inside, E'…' with backslash escapes), a quoted identifier ("…"), a
/// comment (-- to the end of the line, /* … */ nested), a dollar-quoted body ($$…$$, $tag$…$tag$).
enum SQLText {
    /// The index just past the piece that starts at `index`, or nil when none starts there.
    /// A piece left open runs to the end of the text (PostgreSQL then says what is wrong).
    static func endOfVerbatim(_ bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : nil
        let afterWord = index > 0 && isWordByte(bytes[index - 1])
        switch byte {
        case UInt8(ascii: "'"):
            let escapes = index > 0 && (bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e"))
            var cursor = index + 1
            while cursor < bytes.count {
                if escapes, bytes[cursor] == UInt8(ascii: "\\") {
                    cursor += 2
                } else if bytes[cursor] == UInt8(ascii: "'") {
                    guard cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: "'") else { return cursor + 1 }
                    cursor += 2
                } else {
                    cursor += 1
                }
            }
            return bytes.count
        case UInt8(ascii: "\""):
            return end(of: [UInt8(ascii: "\"")], in: bytes, from: index + 1)
        case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
            return end(of: [UInt8(ascii: "\n")], in: bytes, from: index + 2)
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            var depth = 0
            var cursor = index
            repeat {
                if bytes[cursor...].starts(with: "/*".utf8) {
                    depth += 1
                    cursor += 2
                } else if bytes[cursor...].starts(with: "*/".utf8) {
                    depth -= 1
                    cursor += 2
                } else {
                    cursor += 1
                }
            } while depth > 0 && cursor < bytes.count
            return min(cursor, bytes.count)
        case UInt8(ascii: "$") where !afterWord && !(next.map(isDigit) ?? false):
            // $$ or $tag$ (a tag is a name: $1 is a parameter, a$b an identifier).
            var tagEnd = index + 1
            while tagEnd < bytes.count, bytes[tagEnd] != UInt8(ascii: "$"), isWordByte(bytes[tagEnd]) { tagEnd += 1 }
            guard tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$") else { return nil }
            let tag = Array(bytes[index...tagEnd])
            return end(of: tag, in: bytes, from: tagEnd + 1)
        default:
            return nil
        }
    }

    /// Just past the first `terminator` from `start` on, or the end of the text.
    private static func end(of terminator: [UInt8], in bytes: [UInt8], from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.count, !bytes[cursor...].starts(with: terminator) { cursor += 1 }
        return min(bytes.count, cursor + terminator.count)
    }

    /// A byte of an identifier or keyword (non-ASCII letters included).
    static func isWordByte(_ byte: UInt8) -> Bool {
        startsName(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || isDigit(byte) || byte >= 0x80
    }

    /// A byte a parameter's name starts with: a lowercase letter or `_`.
    static func startsName(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

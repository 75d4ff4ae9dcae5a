import Foundation
import Yams

/// The text of a campaigns file read into YAML's node tree, or one problem in words.
///
/// libyaml (under Yams) reads YAML 1.1, which differs from JSON and from what Herald writes in
/// a few places; this is where those are settled before the tree is walked:
/// - JSON that libyaml would refuse or read differently is rewritten to the same strings in
///   YAML's escapes: surrogate pairs (`\ud83c\udf89`, as Python's `json.dumps` writes emoji)
///   and raw DEL, C1 controls, U+2028/U+2029 and U+FEFF inside strings;
/// - raw U+0085, U+2028 and U+2029 elsewhere are refused: YAML 1.1 reads them as line breaks;
/// - a key given twice in one mapping is reported at its path (Yams stops at the first one);
/// - aliases may not expand the tree beyond `maxNodes` values (an alias bomb hangs the walk);
/// - messages quote bounded excerpts of the text, never a whole (50 MB) line.
enum CampaignsFileSource {
    /// Values (scalars, lists, mappings) the tree may hold once aliases are expanded.
    static let maxNodes = 1_000_000
    /// Alias uses (each expansion of an anchored node, nested ones included).
    static let maxAliasExpansions = 100_000
    /// Rounds of renaming repeated keys before the rest are reported by line only.
    static let maxRepeatedKeyRounds = 25
    /// Prefix of a repeated key renamed so the file can be read: U+E000, round, U+E001.
    static let repeatedKeyMark: Unicode.Scalar = "\u{E000}"

    struct Composed {
        let root: Node?
        /// Round → the key that was given twice (keys renamed `\u{E000}round\u{E001}…`).
        let repeatedKeys: [Int: String]
        /// The text the tree was read from, when a scalar in it may start with U+FEFF.
        let byteOrderMarks: ByteOrderMarks?
    }

    static func compose(_ text: String) -> Result<Composed, ValidationError> {
        var text = text
        // Plain ASCII without backslashes (most files) needs none of this: a few memchr find out.
        if ByteScan.mayNeedRewriting(text) {
            switch JSONAsYAML.normalize(text) {
            case .refused(let problem): return .failure(problem)
            case .rewritten(let rewritten): text = rewritten
            case .unchanged: break
            case .notJSON:
                if let problem = rawLineSeparatorProblem(text) { return .failure(problem) }
            }
        }
        var repeatedKeys: [Int: String] = [:]
        var round = 0
        while true {
            do {
                let root = try Yams.compose(yaml: text)
                if let root, let problem = expansionProblem(root) { return .failure(problem) }
                return .success(Composed(root: root, repeatedKeys: repeatedKeys, byteOrderMarks: ByteOrderMarks(text)))
            } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
                let key = duplicates.first ?? "a key"
                let bytes = Array(text.utf8)
                guard round < maxRepeatedKeyRounds,
                    var offset = TextPosition.byteOffset(line: context.mark.line, column: context.mark.column, in: bytes)
                else {
                    return .failure(
                        ValidationError(
                            message: "line \(context.mark.line): key \(quote(key)) is given twice in one mapping; give each key once"))
                }
                // Inside a quoted key the mark is at its quote: rename the text after it.
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") { offset += 1 }
                let renamed = "\(repeatedKeyMark)\(round)\u{E001}"
                text = String(decoding: bytes[..<offset] + Array(renamed.utf8) + bytes[offset...], as: UTF8.self)
                repeatedKeys[round] = key
                round += 1
            } catch let error as YamlError {
                return .failure(ValidationError(message: describe(error)))
            } catch {
                return .failure(ValidationError(message: "not valid YAML or JSON: \(error)"))
            }
        }
    }

    /// The key a repeated key was renamed from, when `key` is one (see `compose`).
    static func repeatedKey(_ key: String, in renamed: [Int: String]) -> String? {
        guard key.unicodeScalars.first == repeatedKeyMark, let end = key.unicodeScalars.firstIndex(of: "\u{E001}") else { return nil }
        let digits = String(key.unicodeScalars[key.unicodeScalars.index(after: key.unicodeScalars.startIndex)..<end])
        return Int(digits).flatMap { renamed[$0] }
    }

    // MARK: Size

    /// Refuses a tree that aliases make larger than `maxNodes` values (or `maxAliasExpansions`
    /// alias uses): Yams shares the nodes, but every walk of the tree visits each copy.
    static func expansionProblem(_ root: Node) -> ValidationError? {
        var nodes = 0
        var anchored = 0
        var anchors: Set<String> = []
        var pending = [root]
        while let node = pending.popLast() {
            nodes += 1
            if let anchor = node.anchor {
                anchored += 1
                anchors.insert(anchor.rawValue)
            }
            if nodes > maxNodes || anchored - anchors.count > maxAliasExpansions {
                let what = nodes > maxNodes ? "more than \(maxNodes) values" : "more than \(maxAliasExpansions) alias uses"
                return ValidationError(
                    message: "the file expands to \(what) through its aliases (*name); "
                        + "a campaigns file that large is refused: write the repeated parts out, or split the file")
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    pending.append(key)
                    pending.append(value)
                }
            case .sequence(let sequence): pending.append(contentsOf: sequence)
            case .scalar, .alias: break
            }
        }
        return nil
    }

    // MARK: Line separators

    /// YAML 1.1 reads a raw NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR as a line break, so
    /// text holding one would silently change: refused, with the escape that keeps it.
    static func rawLineSeparatorProblem(_ text: String) -> ValidationError? {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A:
                line += 1
                column = 0
            case 0x85, 0x2028, 0x2029:
                let name = TextPosition.name(scalar)
                let escape = scalar.value == 0x85 ? "\\u0085" : "\\u\(String(scalar.value, radix: 16))"
                return ValidationError(
                    message: "line \(line), column \(column): a raw \(name), which YAML reads as a line break; "
                        + "write it as \(escape) inside double quotes")
            default: break
            }
            column += 1
        }
        return nil
    }

    // MARK: Messages

    /// Yams' error in words, with a bounded excerpt of the text (Yams' own description
    /// repeats the whole line, or the whole file for a repeated key).
    static func describe(_ error: YamlError) -> String {
        switch error {
        case .reader(let problem, let offset, let value, let yaml):
            let character = Unicode.Scalar(UInt32(bitPattern: value)).map(TextPosition.name) ?? "a character"
            guard let offset, let index = yaml.index(yaml.startIndex, offsetBy: offset, limitedBy: yaml.endIndex) else {
                return "not valid YAML or JSON: \(problem) (\(character))"
            }
            let bytes = Array(yaml.utf8)
            let byte = yaml.utf8.distance(from: yaml.utf8.startIndex, to: index)
            let (line, column) = TextPosition.lineAndColumn(ofByte: byte, in: bytes)
            var hint = ""
            if let scalar = Unicode.Scalar(UInt32(bitPattern: value)), scalar.value >= 0x7F {
                hint = "; inside double quotes write it as \\u" + String(format: "%04X", scalar.value)
            }
            return "line \(line), column \(column): \(character) cannot appear in YAML or JSON text (\(problem))\(hint); "
                + "near \(TextPosition.excerpt(aroundByte: byte, in: bytes))"
        case .scanner(let context, let problem, let mark, let yaml), .parser(let context, let problem, let mark, let yaml),
            .composer(let context, let problem, let mark, let yaml):
            let bytes = Array(yaml.utf8)
            // libyaml's words, without its own function names.
            let problem =
                problem.contains("Maximum nesting level")
                ? "nested too deeply (a campaigns file needs a few levels of lists and mappings; libyaml stops at 1,000)" : problem
            var message = "not valid YAML or JSON: line \(mark.line), column \(mark.column): \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            if let byte = TextPosition.byteOffset(line: mark.line, column: mark.column, in: bytes) {
                message += "; near \(TextPosition.excerpt(aroundByte: byte, in: bytes))"
            }
            if problem.contains("invalid Unicode character escape") {
                message += "; a surrogate pair such as \\ud83c\\udf89 is JSON's escape, not YAML's: write \\U0001F389 or the character itself"
            }
            return message
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "line \(context.mark.line): key \(quote(duplicates.first ?? "")) is given twice in one mapping"
        default:
            return "not valid YAML or JSON: \(Excerpt.plain(error.description, limit: 200))"
        }
    }
}

/// Lines and columns as libyaml counts them (lines end at LF, CR LF or CR; columns count
/// Unicode scalars, from 1), over the UTF-8 bytes of the text.
enum TextPosition {
    /// The byte where (`line`, `column`) starts, nil when the text is shorter.
    static func byteOffset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        var index = 0
        var currentLine = 1
        while currentLine < line {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                currentLine += 1
            } else if byte == 0x0D {
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                currentLine += 1
            }
        }
        var scalars = 1
        while scalars < column, index < bytes.count {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            scalars += 1
        }
        return index <= bytes.count ? index : nil
    }

    static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            let end = min(offset, buffer.count)
            guard let base = buffer.baseAddress else { return (1, 1) }
            var line = 1
            var lineStart = 0
            // Jump from line break to line break (memchr): a line may be 50 MB long.
            func next(_ byte: UInt8, from start: Int) -> Int {
                guard start < end, let hit = memchr(base + start, Int32(byte), end - start) else { return end }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            }
            var nextLF = next(0x0A, from: 0)
            var nextCR = next(0x0D, from: 0)
            while min(nextLF, nextCR) < end {
                if nextCR < nextLF {
                    // CR LF is one break; a CR alone is one too.
                    lineStart = nextCR + 1
                    if nextCR + 1 == nextLF {
                        lineStart = nextLF + 1
                        nextLF = next(0x0A, from: lineStart)
                    }
                    nextCR = next(0x0D, from: lineStart)
                } else {
                    lineStart = nextLF + 1
                    nextLF = next(0x0A, from: lineStart)
                }
                line += 1
            }
            var column = 1
            var index = lineStart
            while index < end {
                if buffer[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
            return (line, column)
        }
    }

    /// Up to `width` characters either side of `offset` on its line, invisible ones escaped,
    /// with "…" where the line goes on.
    static func excerpt(aroundByte offset: Int, in bytes: [UInt8], width: Int = 30) -> String {
        let offset = min(offset, bytes.count)
        var start = offset
        var before = 0
        while start > 0, before < width {
            var previous = start - 1
            while previous > 0, bytes[previous] & 0xC0 == 0x80 { previous -= 1 }
            if bytes[previous] == 0x0A || bytes[previous] == 0x0D { break }
            start = previous
            before += 1
        }
        var end = offset
        var after = 0
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D, after < width {
            end += 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            after += 1
        }
        let cutBefore = start > 0 && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x0D
        let cutAfter = end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D
        let shown = Excerpt.visible(String(decoding: bytes[start..<end], as: UTF8.self), limit: 2 * width + 1).0
        return "\"" + (cutBefore ? "…" : "") + shown + (cutAfter ? "…" : "") + "\""
    }

    /// `U+2028 (line separator)`-style names for the characters messages talk about.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(format: "%04X", scalar.value)
        switch scalar.value {
        case 0x00: return "\(code) (NUL)"
        case 0x7F: return "\(code) (DEL)"
        case 0x85: return "\(code) (next line)"
        case 0x2028: return "\(code) (line separator)"
        case 0x2029: return "\(code) (paragraph separator)"
        case 0xFEFF: return "\(code) (byte order mark)"
        default: return code
        }
    }
}

/// JSON is YAML, but libyaml reads some JSON strings differently or not at all. Text that
/// lexes as JSON (so every `"` delimits a string) gets those strings rewritten in YAML's
/// escapes, which read back as exactly the same characters.
enum JSONAsYAML {
    enum Outcome {
        /// Not JSON: read as YAML, as it is.
        case notJSON
        case unchanged
        case rewritten(String)
        case refused(ValidationError)
    }

    static func normalize(_ text: String) -> Outcome {
        // Cheap first look: JSON starts with an object or an array (after an optional BOM).
        guard let first = text.unicodeScalars.first(where: { !" \t\r\n\u{FEFF}".unicodeScalars.contains($0) }), first == "{" || first == "["
        else { return .notJSON }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        func replace(_ range: Range<Int>, with replacement: String) {
            out += bytes[copied..<range.lowerBound]
            out += replacement.utf8
            copied = range.upperBound
        }
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[at..<at + 4] {
                guard let digit = hexDigit(byte) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        func refusal(_ at: Int, _ code: UInt32) -> Outcome {
            let (line, column) = TextPosition.lineAndColumn(ofByte: at, in: bytes)
            let escape = "\\u" + String(format: "%04x", code)
            return .refused(
                ValidationError(
                    message: "line \(line), column \(column): \(escape) is half of a UTF-16 surrogate pair without its other half, "
                        + "so it is no character; write the whole pair (such as \\ud83c\\udf89) or the character itself"))
        }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: ","), UInt8(ascii: ":"):
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                index += 1
                while index < bytes.count, "0123456789.eE+-".utf8.contains(bytes[index]) { index += 1 }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                guard let word = ["true", "false", "null"].first(where: { bytes[index...].starts(with: $0.utf8) }) else { return .notJSON }
                index += word.utf8.count
            case UInt8(ascii: "\""):
                index += 1
                string: while true {
                    guard index < bytes.count else { return .notJSON }
                    let byte = bytes[index]
                    switch byte {
                    case UInt8(ascii: "\""):
                        index += 1
                        break string
                    case UInt8(ascii: "\\"):
                        guard index + 1 < bytes.count else { return .notJSON }
                        switch bytes[index + 1] {
                        case UInt8(ascii: "u"):
                            guard let code = hex4(index + 2) else { return .notJSON }
                            switch code {
                            case 0xD800...0xDBFF:
                                guard index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                                    let low = hex4(index + 8), (0xDC00...0xDFFF).contains(low)
                                else { return refusal(index, code) }
                                let scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                                replace(index..<index + 12, with: "\\U" + String(format: "%08X", scalar))
                                index += 12
                            case 0xDC00...0xDFFF: return refusal(index, code)
                            default: index += 6
                            }
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                            index += 2
                        default: return .notJSON
                        }
                    case 0x00..<0x20: return .notJSON
                    case 0x7F:
                        replace(index..<index + 1, with: "\\u007F")
                        index += 1
                    case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                        replace(index..<index + 2, with: "\\u00" + String(format: "%02X", bytes[index + 1]))
                        index += 2
                    case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                        replace(index..<index + 3, with: bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                        index += 3
                    case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
                        replace(index..<index + 3, with: "\\uFEFF")
                        index += 3
                    default: index += 1
                    }
                }
            default: return .notJSON
            }
        }
        guard copied > 0 else { return .unchanged }
        out += bytes[copied...]
        return .rewritten(String(decoding: out, as: UTF8.self))
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// Yams turns a scalar's bytes into a String with Foundation, which drops a leading byte order
/// mark (U+FEFF): a text that starts with one would lose it. The text the tree was read from
/// says where a scalar starts with one, raw or escaped, so the reader can put it back.
final class ByteOrderMarks {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// nil when no scalar of `text` can start with U+FEFF (neither it nor its escape occur).
    init?(_ text: String) {
        let mayHold = ByteScan.withUTF8(text) { buffer in
            // A byte order mark at the very start belongs to the file, not to a scalar.
            ByteScan.anyOccurrence(of: 0xEF, in: buffer) { index in
                index > 0 && index + 2 < buffer.count && buffer[index + 1] == 0xBB && buffer[index + 2] == 0xBF
            }
                || ByteScan.anyOccurrence(of: UInt8(ascii: "\\"), in: buffer) { index in
                    Self.escapedMark(buffer, at: index) != nil
                }
        }
        guard mayHold else { return nil }
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A || (byte == 0x0D && (index >= bytes.count || bytes[index] != 0x0A)) { starts.append(index) }
        }
        lineStarts = starts
    }

    /// The length of a `\ufeff` or `\U0000FEFF` escape at `index`, if there is one.
    private static func escapedMark<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Int) -> Int?
    where Bytes.Index == Int {
        func matches(_ text: String, at start: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard start + pattern.count <= bytes.count else { return false }
            return zip(bytes[start..<start + pattern.count], pattern).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
        }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\") else { return nil }
        if bytes[index + 1] == UInt8(ascii: "u"), matches("feff", at: index + 2) { return 6 }
        if bytes[index + 1] == UInt8(ascii: "U"), matches("0000feff", at: index + 2) { return 10 }
        return nil
    }

    /// `scalar`'s text with the leading U+FEFF that the source holds and Yams dropped.
    func restore(_ scalar: Node.Scalar) -> String {
        // Foundation drops exactly one: put one back wherever the source starts with one.
        guard let mark = scalar.mark, mark.line - 1 < lineStarts.count else {
            return scalar.string
        }
        var index = lineStarts[mark.line - 1]
        for _ in 1..<max(mark.column, 1) {
            guard index < bytes.count else { return scalar.string }
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        }
        switch scalar.style {
        case .doubleQuoted:
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), index + 1 < bytes.count else { return scalar.string }
            index += 1
            if Self.escapedMark(bytes, at: index) == nil, !isRawMark(at: index) { return scalar.string }
        case .singleQuoted:
            guard index < bytes.count, bytes[index] == UInt8(ascii: "'") else { return scalar.string }
            index += 1
            if !isRawMark(at: index) { return scalar.string }
        case .plain:
            if !isRawMark(at: index) { return scalar.string }
        default:
            return scalar.string
        }
        return "\u{FEFF}" + scalar.string
    }

    private func isRawMark(at index: Int) -> Bool {
        index + 2 < bytes.count && bytes[index] == 0xEF && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF
    }
}

/// Byte searches with memchr over a string's UTF-8: checks that usually find nothing, made
/// cheap enough for a 50 MB file.
enum ByteScan {
    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        text.makeContiguousUTF8()
        return text.withUTF8(body)
    }

    /// Whether `found` holds for an occurrence of `byte` (tried in order, until one does).
    static func anyOccurrence(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, where found: (Int) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var start = 0
        while start < bytes.count, let hit = memchr(base + start, Int32(byte), bytes.count - start) {
            let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            if found(index) { return true }
            start = index + 1
        }
        return false
    }

    /// Whether `text` may hold what `JSONAsYAML` rewrites or `rawLineSeparatorProblem`
    /// refuses: DEL, a C1 control, U+2028/U+2029, U+FEFF (all found by their first byte), or
    /// a `\u`/`\U` escape.
    static func mayNeedRewriting(_ text: String) -> Bool {
        withUTF8(text) { buffer in
            guard let base = buffer.baseAddress else { return false }
            for byte: UInt8 in [0x7F, 0xC2, 0xE2, 0xEF] where memchr(base, Int32(byte), buffer.count) != nil { return true }
            return anyOccurrence(of: UInt8(ascii: "\\"), in: buffer) { index in
                index + 1 < buffer.count && (buffer[index + 1] == UInt8(ascii: "u") || buffer[index + 1] == UInt8(ascii: "U"))
            }
        }
    }
}

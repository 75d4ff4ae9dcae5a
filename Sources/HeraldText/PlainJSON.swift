/// A JSON object of plain values written as `printJSON` writes it (Foundation's pretty
/// printing, sorted keys, unescaped slashes, empty arrays as `[]`), without the encoder:
/// `publish --json` lists tens of thousands of paths and warnings, and Foundation's encoder
/// spent about a microsecond on each.
public enum PlainJSON {
    public enum Value {
        case bool(Bool)
        case integer(Int64)
        case strings([String])
    }

    /// The object's text; nil when a string holds anything but printable ASCII, whose
    /// escaping is left to Foundation (`printJSON`).
    public static func object(_ members: [String: Value]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out += "{\n".utf8
        let sorted = members.sorted { $0.key < $1.key }
        for (index, (key, value)) in sorted.enumerated() {
            out += "  ".utf8
            guard appendQuoted(key, to: &out) else { return nil }
            out += " : ".utf8
            switch value {
            case .bool(let flag): out += (flag ? "true" : "false").utf8
            case .integer(let number): out += String(number).utf8
            case .strings(let texts) where texts.isEmpty: out += "[]".utf8
            case .strings(let texts):
                out += "[\n".utf8
                for (position, text) in texts.enumerated() {
                    out += "    ".utf8
                    guard appendQuoted(text, to: &out) else { return nil }
                    out += (position == texts.count - 1 ? "\n" : ",\n").utf8
                }
                out += "  ]".utf8
            }
            out += (index == sorted.count - 1 ? "\n" : ",\n").utf8
        }
        out += "}".utf8
        return String(decoding: out, as: UTF8.self)
    }

    /// `"text"` with `"` and `\` escaped; false (nothing appended that counts) for anything
    /// but printable ASCII.
    private static func appendQuoted(_ text: String, to out: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            for byte in bytes {
                guard byte >= 0x20, byte < 0x7F else { return false }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
            return true
        }
    }
}

/// Minimal JSON string quoting, identical everywhere Herald writes JSON by hand.
public enum JSONText {
    /// A JSON string literal: `"` `\` and control characters escaped, everything else as is (UTF-8).
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape at all (one pass over the bytes says so).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A flat JSON object of strings, members in key order: `{"a": "1", "b": "2"}`.
    public static func object(_ members: [String: String]) -> String {
        "{" + members.sorted { $0.key < $1.key }.map { quoted($0.key) + ": " + quoted($0.value) }.joined(separator: ", ") + "}"
    }

    /// `quoted(text)`'s UTF-8 bytes appended to `out`, without making the String.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { bytes in
            // Most text needs no escape: then its bytes go out as they are, in one copy.
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { out += quoted(text).utf8 }
    }

    /// Reads back a string literal made by `quoted` (and the common JSON escapes); nil otherwise.
    public static func unquoted(_ literal: String) -> String? {
        let scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        var result = String.UnicodeScalarView()
        var index = 1
        while index < scalars.count - 1 {
            let scalar = scalars[index]
            if scalar != "\\" {
                result.append(scalar)
                index += 1
                continue
            }
            index += 1
            guard index < scalars.count - 1 else { return nil }
            switch scalars[index] {
            case "\"": result.append("\"")
            case "\\": result.append("\\")
            case "/": result.append("/")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "u":
                guard index + 4 <= scalars.count - 2,
                    let code = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)...(index + 4)])), radix: 16),
                    let decoded = Unicode.Scalar(code)
                else { return nil }
                result.append(decoded)
                index += 4
            default: return nil
            }
            index += 1
        }
        return String(result)
    }
}

/// Apple's XML property list (plist 1.0 DTD) for the iNotify file: a root dictionary of
/// dictionaries of strings, keys sorted, text escaped for XML.
enum PropertyList {
    static func dictionaryOfStringDictionaries(_ entries: [String: [String: String]]) -> [UInt8] {
        var out = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        if entries.isEmpty {
            out += "<dict/>\n".utf8
        } else {
            out += "<dict>\n".utf8
            for (key, fields) in entries.sorted(by: { $0.key < $1.key }) {
                out += "\t<key>".utf8
                appendEscaped(key, to: &out)
                out += "</key>\n\t<dict>\n".utf8
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    out += "\t\t<key>".utf8
                    appendEscaped(name, to: &out)
                    out += "</key>\n\t\t<string>".utf8
                    appendEscaped(value, to: &out)
                    out += "</string>\n".utf8
                }
                out += "\t</dict>\n".utf8
            }
            out += "</dict>\n".utf8
        }
        out += "</plist>\n".utf8
        return out
    }

    /// XML text escaping of `&`, `<` and `>` (each one byte in UTF-8, never part of another
    /// character's bytes), and of carriage return as `&#13;`: an XML parser turns a raw CR (or
    /// CR LF) into LF before the client sees the text. Characters XML cannot carry never get
    /// this far: HeraldCore refuses them at input.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\r"): out += "&#13;".utf8
            default: out.append(byte)
            }
        }
    }
}

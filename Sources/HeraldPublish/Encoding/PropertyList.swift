import Foundation
import HeraldCore

/// Apple's XML property list (plist 1.0 DTD): the iNotify file (a root dictionary of
/// dictionaries of strings) and the local notifications file (a root array of dictionaries of
/// values); keys sorted, text escaped for XML, tabs, as Apple's tools write them.
enum PropertyList {
    /// A value of a property list.
    indirect enum Value {
        case string(String)
        case integer(Int)
        case bool(Bool)
        /// Written to the second, in UTC (`2026-12-24T08:00:00Z`), as the plist DTD says.
        case date(Date)
        /// Written in key order.
        case dictionary([String: Value])
        case array([Value])
    }

    /// A document whose root is `root`.
    static func document(_ root: Value) -> [UInt8] {
        var out = Array(header.utf8)
        write(root, depth: 0, to: &out)
        out += "</plist>\n".utf8
        return out
    }

    private static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    private static func write(_ value: Value, depth: Int, to out: inout [UInt8]) {
        let indent = Array(repeating: UInt8(ascii: "\t"), count: depth)
        out += indent
        switch value {
        case .string(let text):
            out += "<string>".utf8
            appendEscaped(text, to: &out)
            out += "</string>\n".utf8
        case .integer(let number): out += "<integer>\(number)</integer>\n".utf8
        case .bool(let flag): out += (flag ? "<true/>\n" : "<false/>\n").utf8
        case .date(let date): out += "<date>\(Timestamp.format(date))</date>\n".utf8
        case .dictionary(let members):
            guard !members.isEmpty else {
                out += "<dict/>\n".utf8
                return
            }
            out += "<dict>\n".utf8
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                out += indent
                out += "\t<key>".utf8
                appendEscaped(key, to: &out)
                out += "</key>\n".utf8
                write(member, depth: depth + 1, to: &out)
            }
            out += indent
            out += "</dict>\n".utf8
        case .array(let items):
            guard !items.isEmpty else {
                out += "<array/>\n".utf8
                return
            }
            out += "<array>\n".utf8
            for item in items { write(item, depth: depth + 1, to: &out) }
            out += indent
            out += "</array>\n".utf8
        }
    }

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

/// Apple's XML property list (plist 1.0 DTD) for the iNotify file: a root dictionary of
/// dictionaries of strings, keys sorted, text escaped for XML.
enum PropertyList {
    static func dictionaryOfStringDictionaries(_ entries: [String: [String: String]]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        if entries.isEmpty {
            out += "<dict/>\n"
        } else {
            out += "<dict>\n"
            for (key, fields) in entries.sorted(by: { $0.key < $1.key }) {
                out += "\t<key>\(escape(key))</key>\n\t<dict>\n"
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    out += "\t\t<key>\(escape(name))</key>\n\t\t<string>\(escape(value))</string>\n"
                }
                out += "\t</dict>\n"
            }
            out += "</dict>\n"
        }
        return out + "</plist>\n"
    }

    /// XML text escaping. Characters XML cannot carry never get this far: HeraldCore refuses them at input.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

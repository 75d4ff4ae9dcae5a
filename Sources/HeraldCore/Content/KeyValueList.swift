/// The `key=value,key=value` form of the CLI's `--page` and `--view` flags. A comma inside
/// a value is written `\,` (a backslash `\\`), or the value is double-quoted.
public enum KeyValueList {
    public static func parse(_ text: String) throws(ValidationError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var current = ""
        var key: String?
        var inQuotes = false
        var escaping = false

        func finishPair() throws(ValidationError) {
            guard let name = key else {
                if current.trimmingSpaces().isEmpty { return }
                throw ValidationError(message: "\(quote(current)) must be key=value in \(quote(text))")
            }
            pairs.append((name, current))
            key = nil
            current = ""
        }

        for character in text {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "\"", key != nil, current.isEmpty || inQuotes {
                inQuotes.toggle()
            } else if inQuotes {
                current.append(character)
            } else if character == "=", key == nil {
                key = current.trimmingSpaces()
                current = ""
            } else if character == "," {
                try finishPair()
            } else {
                current.append(character)
            }
        }
        guard !inQuotes else { throw ValidationError(message: "unterminated quote in \(quote(text))") }
        if escaping { current.append("\\") }
        try finishPair()
        return pairs
    }

    /// The values by key, refusing unknown and repeated keys with the list of allowed ones.
    static func dictionary(_ pairs: [(key: String, value: String)], allowed: [String], what: String)
        throws(ValidationError) -> [String: String]
    {
        var result: [String: String] = [:]
        for (key, value) in pairs {
            guard allowed.contains(key) else {
                throw ValidationError(message: "unknown \(what) key \(quote(key)); allowed: \(allowed.joined(separator: ", "))")
            }
            guard result[key] == nil else { throw ValidationError(message: "\(what) key \(key) is given twice") }
            result[key] = value
        }
        return result
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension StoryPage {
    /// `image=URL,duration=5,link=URL,button_title=…,title=…,subtitle=…`.
    public static func parse(keyValues pairs: [(key: String, value: String)]) throws(ValidationError) -> StoryPage {
        let values = try KeyValueList.dictionary(
            pairs, allowed: ["image", "duration", "link", "button_title", "title", "subtitle"], what: "page")
        guard let image = values["image"] else { throw ValidationError(message: "a page needs image=URL") }
        let page = StoryPage(
            image: try HTTPURL(image), duration: try values["duration"].map { text throws(ValidationError) in try parseNumber(text, "duration") },
            link: try values["link"].map { text throws(ValidationError) in try LinkURL(text) },
            buttonTitle: values["button_title"], title: values["title"], subtitle: values["subtitle"])
        if let problem = page.problems().first { throw problem }
        return page
    }
}

extension BannerView {
    /// `id=banner,file=URL|html=@path|html=<…>,height=88,origin=top|bottom`; `readHTML`
    /// reads `@path` (the CLI does the file I/O).
    public static func parse(keyValues pairs: [(key: String, value: String)], readHTML: (String) throws -> String) throws
        -> BannerView
    {
        let values = try KeyValueList.dictionary(pairs, allowed: ["id", "file", "html", "height", "origin"], what: "view")
        guard let id = values["id"] else { throw ValidationError(message: "a view needs id=NAME") }
        let source: Source
        switch (values["file"], values["html"]) {
        case (let file?, nil): source = .file(try HTTPURL(file))
        case (nil, let html?): source = .html(html.hasPrefix("@") ? try readHTML(String(html.dropFirst())) : html)
        default: throw ValidationError(message: "view \(id) needs exactly one of file=URL or html=@path")
        }
        let view = BannerView(
            id: try Slug(id), source: source,
            height: try values["height"].map { text throws(ValidationError) in try parseNumber(text, "height") },
            origin: try values["origin"].map { text throws(ValidationError) in try parseEnum(text, "origin") })
        if let problem = view.problems().first { throw problem }
        return view
    }
}

func parseNumber(_ text: String, _ field: String) throws(ValidationError) -> Double {
    guard let value = Double(text), value.isFinite, text.allSatisfy({ $0.isASCIIDigit || $0 == "." }) else {
        throw ValidationError(message: "\(field) \(quote(text)) must be a positive number")
    }
    return value
}

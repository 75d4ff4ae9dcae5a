/// An absolute http(s) URL with a host: a banner view's page or a story image, which the
/// device fetches itself.
public struct HTTPURL: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        // Printable ASCII (nearly every URL): bytes are characters, so the same rules read
        // byte by byte, in place, without making lowercase copies or walking graphemes.
        if raw.utf8.withContiguousStorageIfAvailable(isPlainHTTPURL) == true {
            rawValue = raw
            return
        }
        let lower = raw.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = raw.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = raw.dropFirst(7)
        } else {
            throw ValidationError(
                message: "invalid URL \(quote(raw)): use an absolute http:// or https:// URL (the device downloads it)")
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.utf8.contains(UInt8(ascii: "@")) else {
            throw ValidationError(message: "invalid URL \(quote(raw)): it needs a host, e.g. https://cdn.example.com/page.html")
        }
        try refuseSpacesAndControls(raw)
        rawValue = raw
    }

    public var isHTTPS: Bool { Self.hasHTTPSPrefix(rawValue) }

    /// `raw.lowercased().hasPrefix("https://")`. An ASCII start (nearly every URL) is compared
    /// byte by byte, without a lowercase copy; a non-ASCII byte among the first nine could be,
    /// or join, a character of the prefix, so it sends the text the general way.
    static func hasHTTPSPrefix(_ raw: String) -> Bool {
        var bytes = raw.utf8.makeIterator()
        for expected in "https://".utf8 {
            guard let byte = bytes.next() else { return false }
            guard byte < 0x80 else { return raw.lowercased().hasPrefix("https://") }
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            guard lower == expected else { return false }
        }
        guard let next = bytes.next(), next >= 0x80 else { return true }
        return raw.lowercased().hasPrefix("https://")
    }

    public var description: String { rawValue }
}

/// A URL of any scheme (`myapp://page`, `https://…`, `mailto:…`): deep links and action URLs,
/// which the device hands to the system to open.
public struct LinkURL: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        // Printable ASCII: the same rules byte by byte, in place (see HTTPURL).
        if raw.utf8.withContiguousStorageIfAvailable(Self.isPlainValid) == true {
            rawValue = raw
            return
        }
        let scheme = raw.prefix { $0 != ":" }
        let validScheme =
            scheme.count < raw.count && scheme.first?.isASCIILetter == true
            && scheme.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "+" || $0 == "." || $0 == "-" }
        guard validScheme, raw.count > scheme.count + 1 else {
            throw ValidationError(message: "invalid link \(quote(raw)): use a URL with a scheme, e.g. myapp://offers or https://example.com")
        }
        try refuseSpacesAndControls(raw)
        rawValue = raw
    }

    /// The rules below for printable ASCII; false sends any other text the general way.
    private static func isPlainValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        let scheme = bytes.prefix { $0 != UInt8(ascii: ":") }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        return scheme.count < bytes.count && scheme.first.map(isLetter) == true
            && scheme.allSatisfy {
                isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
            && bytes.count > scheme.count + 1
    }

    public var description: String { rawValue }
}

private func refuseSpacesAndControls(_ raw: String) throws(ValidationError) {
    // Printable ASCII (the usual URL) has neither; only other text needs Unicode's tables.
    if raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return }
    if let bad = raw.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
        throw ValidationError(
            message: "invalid URL \(quote(raw)): it contains \(XMLText.name(bad)); percent-encode it (a space is %20)")
    }
}

/// HTTPURL's rules for printable ASCII; false sends any other text the general way.
private func isPlainHTTPURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
    func hasPrefix(_ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count && zip(bytes, prefix.utf8).allSatisfy { ($0 | 0x20) == $1 }
    }
    let schemeLength = hasPrefix("https://") ? 8 : hasPrefix("http://") ? 7 : 0
    guard schemeLength > 0 else { return false }
    let host = bytes.dropFirst(schemeLength).prefix {
        $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
    }
    return !host.isEmpty && !host.contains(UInt8(ascii: "@"))
}

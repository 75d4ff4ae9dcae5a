/// Whether text is a URL that Foundation's `URL(string:)` reads, with a scheme, on every iOS
/// a device runs: before iOS 17 it returns nil for any character RFC 3986 does not allow
/// unescaped (a space, `|`, `{`, `"`, non-ASCII letters…), for a `%` not followed by two hex
/// digits and for a second `#`; from iOS 17 it percent-encodes some of them instead. Herald
/// holds a URL a device parses to the strict rule, so that every device reads the same URL.
public enum URLText {
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, to follow the URL in a sentence: `has "|", which …`.
        public let description: String
        /// How to write it instead.
        public let fix: String
    }

    /// nil when every device reads `text` as a URL with a scheme.
    public static func problem(_ text: String) -> Problem? {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
            bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            return Problem(
                description: "has no scheme", fix: "write it whole, with its scheme (https://cdn.example.com/… or myapp://…)")
        }
        // The authority (`//host:port`), where an IPv6 address is written in brackets.
        var authority = 0..<0
        if bytes.count > colon + 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
            let start = colon + 3
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            authority = start..<end
            // Brackets only around an IPv6 address: `[2001:db8::1]`, `[::1]:8443`.
            if let bracket = bytes[authority].firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }),
                !isIPLiteral(bytes[authority])
            {
                return unescaped(text, byteOffset: bracket)
            }
        }
        var fragment = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else {
                    return Problem(description: "has a % not followed by two hex digits", fix: "write a % itself as %25")
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                if fragment { return Problem(description: "has a second #", fix: "percent-encode every # after the first as %23") }
                fragment = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") {
                if !authority.contains(index) { return unescaped(text, byteOffset: index) }
            } else if !isAllowed(byte) {
                return unescaped(text, byteOffset: index)
            }
            index += 1
        }
        return nil
    }

    /// `[userinfo@]"[" hex digits, colons, dots "]"[":" port]`.
    private static func isIPLiteral(_ authority: ArraySlice<UInt8>) -> Bool {
        let host = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
        guard host.first == UInt8(ascii: "["), let close = host.firstIndex(of: UInt8(ascii: "]")), close > host.startIndex + 1 else {
            return false
        }
        let address = host[(host.startIndex + 1)..<close]
        let rest = host[(close + 1)...]
        return address.allSatisfy { isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
            && (rest.isEmpty || (rest.first == UInt8(ascii: ":") && rest.dropFirst().allSatisfy(isDigit)))
    }

    /// RFC 3986's unreserved and reserved characters (`%` and brackets are checked apart).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~:/?#@!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f")) }

    /// The character starting at `byteOffset`, named, with its percent-encoding.
    private static func unescaped(_ text: String, byteOffset: Int) -> Problem {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: byteOffset)
        guard let scalar = text[start...].unicodeScalars.first else {
            return Problem(description: "is cut short", fix: "write it whole")
        }
        let encoded = String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        let name =
            switch scalar.value {
            case 0x20: "a space"
            case 0..<0x20, 0x7F: XMLText.name(scalar)
            default: "\(quote(String(scalar))) (\(XMLText.name(scalar)))"
            }
        return Problem(
            description: "has \(name), which a URL cannot carry unescaped", fix: "percent-encode it: \(name) is \(encoded)")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

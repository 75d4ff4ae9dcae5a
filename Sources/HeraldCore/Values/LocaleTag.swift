/// A BCP 47 tag of the form `language[-Script][-REGION]`, in canonical case:
/// `pt-br` → `pt-BR`, `ZH-hant-tw` → `zh-Hant-TW`; `_` is read as `-`.
public struct LocaleTag: Hashable, Comparable, Sendable, CustomStringConvertible, ValidatedString {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        guard let canonical = Self.canonical(raw) else {
            throw ValidationError(
                message: "invalid locale \(quote(raw)): use a BCP 47 tag language[-Script][-REGION], e.g. en, de, pt-BR, zh-Hant-TW")
        }
        rawValue = canonical
    }

    /// A tag already known to be canonical (a part of one).
    private init(canonical: String) {
        rawValue = canonical
    }

    /// The canonical form, or nil. Byte by byte: every valid tag is ASCII, and this runs for
    /// every event of an ingest and every locale of a publish.
    private static func canonical(_ raw: String) -> String? {
        var parts: [[UInt8]] = [[]]
        for byte in raw.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                guard parts.count < 3 else { return nil }
                parts.append([])
            } else {
                parts[parts.count - 1].append(byte)
            }
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func lower(_ byte: UInt8) -> UInt8 { byte | 0x20 }
        func upper(_ byte: UInt8) -> UInt8 { byte & ~0x20 }

        let language = parts[0]
        guard (2...3).contains(language.count), language.allSatisfy(isLetter) else { return nil }
        var canonical = language.map(lower)
        var next = 1
        if next < parts.count, parts[next].count == 4, parts[next].allSatisfy(isLetter) {
            let script = parts[next]
            canonical.append(UInt8(ascii: "-"))
            canonical.append(upper(script[0]))
            canonical += script.dropFirst().map(lower)
            next += 1
        }
        if next < parts.count {
            let region = parts[next]
            canonical.append(UInt8(ascii: "-"))
            if region.count == 2, region.allSatisfy(isLetter) {
                canonical += region.map(upper)
            } else if region.count == 3, region.allSatisfy(isDigit) {
                canonical += region
            } else {
                return nil
            }
            next += 1
        }
        guard next == parts.count else { return nil }
        return String(decoding: canonical, as: UTF8.self)
    }

    /// The language subtag alone (`pt` for `pt-BR`).
    public var language: LocaleTag {
        guard let dash = rawValue.utf8.firstIndex(of: UInt8(ascii: "-")) else { return self }
        return LocaleTag(canonical: String(rawValue[..<dash]))
    }

    /// Where content for this locale comes from, in order: the tag itself, its language,
    /// then the app's default locale (`pt-BR` → `pt` → `en`), without repeats.
    public func fallbackChain(defaultLocale: LocaleTag) -> [LocaleTag] {
        var chain: [LocaleTag] = []
        for tag in [self, language, defaultLocale] where !chain.contains(tag) {
            chain.append(tag)
        }
        return chain
    }

    public var description: String { rawValue }
    public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}

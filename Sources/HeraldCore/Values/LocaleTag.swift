/// A BCP 47 tag of the form `language[-Script][-REGION]`, in canonical case:
/// `pt-br` → `pt-BR`, `ZH-hant-tw` → `zh-Hant-TW`; `_` is read as `-`.
public struct LocaleTag: Hashable, Comparable, Sendable, CustomStringConvertible, ValidatedString {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        let parts = String(raw.map { $0 == "_" ? "-" : $0 }).split(separator: "-", omittingEmptySubsequences: false)
        let problem = ValidationError(
            message: "invalid locale \(quote(raw)): use a BCP 47 tag language[-Script][-REGION], e.g. en, de, pt-BR, zh-Hant-TW")
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isASCIILetter) else {
            throw problem
        }
        var canonical = [language.lowercased()]
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(\.isASCIILetter) {
            canonical.append(script.prefix(1).uppercased() + script.dropFirst().lowercased())
            rest = rest.dropFirst()
        }
        if let region = rest.first {
            if region.count == 2, region.allSatisfy(\.isASCIILetter) {
                canonical.append(region.uppercased())
            } else if region.count == 3, region.allSatisfy(\.isASCIIDigit) {
                canonical.append(String(region))
            } else {
                throw problem
            }
            rest = rest.dropFirst()
        }
        guard rest.isEmpty else { throw problem }
        rawValue = canonical.joined(separator: "-")
    }

    /// The language subtag alone (`pt` for `pt-BR`).
    public var language: LocaleTag {
        let head = String(rawValue.prefix { $0 != "-" })
        return (try? LocaleTag(head)) ?? self
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

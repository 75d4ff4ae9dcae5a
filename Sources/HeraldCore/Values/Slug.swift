/// A lowercase identifier that names a folder or an identity devices remember:
/// tenant, app and campaign keys, banner view ids. `[a-z0-9][a-z0-9-]{0,62}`.
public struct Slug: Hashable, Comparable, Sendable, CustomStringConvertible, ValidatedString {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        guard Self.isValid(raw) else {
            throw ValidationError(
                message: "invalid slug \(quote(raw)): use 1-63 lowercase letters, digits and hyphens, starting with a letter or digit")
        }
        rawValue = raw
    }

    public static func isValid(_ raw: String) -> Bool {
        let bytes = raw.utf8
        guard (1...63).contains(bytes.count), let first = bytes.first, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    public var description: String { rawValue }
    public static func < (lhs: Slug, rhs: Slug) -> Bool { lhs.rawValue < rhs.rawValue }
}

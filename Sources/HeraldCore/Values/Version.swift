/// An app or OS version as the clients compare it: dotted digits only (`3.2.1`), no leading
/// zeros, so that Herald's order is exactly the device's numeric-search order
/// (`2.10 > 2.9`, `2.4 < 2.4.0`) and equal versions are equal strings. At most 18 digits a
/// part: Foundation adds up a run of digits in a 64-bit integer that wraps silently, so
/// longer parts would compare differently on the device.
public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible, ValidatedString {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        let components = raw.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed =
            raw.utf8.count <= 64 && !components.isEmpty
            && components.allSatisfy { component in
                !component.isEmpty && component.count <= 18 && component.allSatisfy(\.isASCIIDigit)
                    && (component == "0" || component.first != "0")
            }
        guard wellFormed else {
            throw ValidationError(
                message: "invalid version \(quote(raw)): use dotted digits such as 2.4.0 (no letters, spaces or leading zeros, "
                    + "at most 18 digits a part), "
                    + "because devices compare versions numerically")
        }
        rawValue = raw
    }

    public var description: String { rawValue }

    public static func < (lhs: Version, rhs: Version) -> Bool {
        NumericSearch.compare(lhs.rawValue, rhs.rawValue) < 0
    }
}

/// An app or OS version as the clients meet it: whatever the app's Info.plist says
/// (`3.2.1`, `2.10b1`, `2.9.9-beta`, `10.0 (1234)`), compared as the devices compare it, by
/// Foundation's numeric search (`NumericSearch`): `2.10 > 2.9`, `2.4 < 2.4.0`,
/// `2.10b1 > 2.10`, `2.9.9-beta > 2.9.9`.
///
/// 1 to 64 printable ASCII characters, not starting or ending with a space. Non-ASCII text is
/// refused: Foundation compares it by canonical equivalence, which Herald does not model.
/// Equality is the text's (`2.04` and `2.4` are different values that devices order as equal;
/// `surprises` says so, and lint warns).
public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible, ValidatedString {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        let units = Array(raw.utf8)
        let wellFormed =
            (1...64).contains(units.count) && units.allSatisfy { (0x20...0x7E).contains($0) }
            && units.first != 0x20 && units.last != 0x20
        guard wellFormed else {
            throw ValidationError(
                message: "invalid version \(quote(raw)): use 1 to 64 printable ASCII characters without a leading or trailing space "
                    + "(2.4.0, 2.10b1, 2.9.9-beta), as the app's Info.plist has it")
        }
        rawValue = raw
    }

    public var description: String { rawValue }

    /// The device's order: numeric search.
    public static func < (lhs: Version, rhs: Version) -> Bool {
        NumericSearch.compare(lhs.rawValue, rhs.rawValue) < 0
    }

    /// Dotted digits without leading zeros, at most 19 digits a part: the form whose
    /// numeric-search order is what people expect.
    public var isPlain: Bool { surprises.isEmpty }

    /// Where the devices' numeric search orders this version differently from what a person
    /// would expect, in words; empty for plain dotted digits such as `2.4.0`.
    public var surprises: [String] {
        hasPlainForm ? [] : notes
    }

    /// Digits and single dots, a dot neither first nor last, each run of digits 1 to 19 long
    /// and not starting with 0 unless it is 0: none of `notes` applies. One pass over the
    /// bytes (a version is printable ASCII), for the versions nearly every campaign has.
    var hasPlainForm: Bool {
        var run = 0
        var runStartsWithZero = false
        for byte in rawValue.utf8 {
            if byte == UInt8(ascii: ".") {
                guard run > 0 else { return false }  // a leading dot, or two in a row
                run = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if run == 0 {
                    runStartsWithZero = byte == UInt8(ascii: "0")
                } else if runStartsWithZero {
                    return false
                }
                run += 1
                guard run <= 19 else { return false }
            } else {
                return false
            }
        }
        return run > 0  // not empty, no trailing dot
    }

    /// `surprises`, worked out.
    var notes: [String] {
        var notes: [String] = []
        let text = rawValue
        var runs: [Substring] = []
        var current: Substring.Index?
        for index in text.indices {
            if text[index].isASCIIDigit {
                if current == nil { current = index }
            } else if let start = current {
                runs.append(text[start..<index])
                current = nil
            }
        }
        if let start = current { runs.append(text[start...]) }
        if let padded = runs.first(where: { $0.count > 1 && $0.first == "0" }) {
            let value = padded.drop { $0 == "0" }
            notes.append(
                "\(text): devices read \(padded) as \(value.isEmpty ? "0" : value) (leading zeros do not count), so versions that differ "
                    + "only there compare as equal")
        }
        if let long = runs.first(where: { $0.count > 19 }) {
            notes.append(
                "\(text): devices add up the \(long.count)-digit run \(long.prefix(8))… in a 64-bit counter that overflows, "
                    + "so its order against other versions is arbitrary")
        }
        if let other = text.first(where: { !$0.isASCIIDigit && $0 != "." }) {
            let release = String(text.prefix { $0.isASCIIDigit || $0 == "." }).trimmingTrailingDots
            if release.isEmpty || release == text {
                notes.append(
                    "\(text): devices compare \(quote(String(other))) by character code against other versions' digits and dots, "
                        + "not as a word")
            } else {
                let next = release + ".1"
                let belowNext = NumericSearch.compare(text, next) < 0
                notes.append(
                    "\(text): devices order it above \(release) and \(belowNext ? "below" : "above") \(next) (numeric search compares "
                        + "\(quote(String(other))) by character code), not below \(release) as a pre-release")
            }
        } else if text.hasPrefix(".") || text.hasSuffix(".") || text.contains("..") {
            notes.append("\(text): an empty part between dots is compared as a dot against the other version's digits")
        }
        return notes
    }
}

extension String {
    fileprivate var trimmingTrailingDots: String {
        var text = self
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

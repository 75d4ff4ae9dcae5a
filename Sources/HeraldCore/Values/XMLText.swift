/// Human text that ends up in an XML plist (alerts) or JSON: XML 1.0 cannot carry C0
/// control characters other than tab, LF and CR, nor U+FFFE/U+FFFF, so they are refused
/// at input rather than silently dropped on the device.
public enum XMLText {
    public static func check(_ text: String, field: String) throws(ValidationError) {
        for (offset, scalar) in text.unicodeScalars.enumerated() where !isAllowed(scalar) {
            throw ValidationError(
                message: "\(field) contains \(name(scalar)) at character \(offset + 1), which XML cannot carry: remove it")
        }
    }

    /// Non-empty (after trimming) and XML-safe.
    public static func checkRequired(_ text: String, field: String) throws(ValidationError) {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw ValidationError(message: "\(field) is empty: give some text")
        }
        try check(text, field: field)
    }

    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00..<0x20: false
        case 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Characters that change how text reads without being seen: bidirectional controls (a
/// right-to-left override makes "Sale ‮evil.exe‬ ok" read "Sale exe.live ok"), zero-width
/// characters, and control characters (C0 but tab and line breaks, DEL, C1), which devices
/// draw as empty boxes or not at all. Shown to people as `‹U+202E›`.
public enum InvisibleText {
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks, embeddings, overrides, isolates
        case 0x200B...0x200D, 0x2060, 0xFEFF, 0x180E: true  // zero-width space, (non-)joiner, word joiner, BOM, Mongolian vowel separator
        case 0x2028, 0x2029: true
        default: false
        }
    }

    /// What the character is, in words.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x202A: "left-to-right embedding"
        case 0x202B: "right-to-left embedding"
        case 0x202C: "pop directional formatting"
        case 0x202D: "left-to-right override"
        case 0x202E: "right-to-left override"
        case 0x2066: "left-to-right isolate"
        case 0x2067: "right-to-left isolate"
        case 0x2068: "first strong isolate"
        case 0x2069: "pop directional isolate"
        case 0x200E: "left-to-right mark"
        case 0x200F: "right-to-left mark"
        case 0x061C: "Arabic letter mark"
        case 0x200B: "zero-width space"
        case 0x200C: "zero-width non-joiner"
        case 0x200D: "zero-width joiner"
        case 0x2060: "word joiner"
        case 0xFEFF: "zero-width no-break space"
        case 0x180E: "Mongolian vowel separator"
        case 0x2028: "line separator"
        case 0x2029: "paragraph separator"
        case 0x80...0x9F: "C1 control character"
        default: "control character"
        }
    }

    /// `‹U+202E›`.
    public static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "‹U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)›"
    }

    /// The invisible characters of `text`, each once, in the order they first occur.
    public static func found(in text: String) -> [Unicode.Scalar] {
        var seen: [Unicode.Scalar] = []
        // Most copy is printable ASCII: nothing to look for.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return seen }
        for scalar in text.unicodeScalars where isInvisible(scalar) && !seen.contains(scalar) { seen.append(scalar) }
        return seen
    }

    /// `text` with every invisible character shown as its code.
    public static func shown(_ text: String) -> String {
        guard !found(in: text).isEmpty else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) { out += code(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

/// What a message may show of the input: a bounded excerpt, so that a 50 MB value is never
/// echoed back whole, with every character a terminal would act on (control characters, line
/// breaks, bidirectional overrides) shown as an escape instead of sent raw.
public enum Excerpt {
    /// Characters (Unicode scalars) a message shows of one value.
    public static let limit = 80

    /// `value` in double quotes, cut after `limit` characters with "…" and its size in bytes.
    public static func quoted(_ value: String, limit: Int = Excerpt.limit) -> String {
        let (shown, cut) = visible(value, limit: limit)
        return cut ? "\"\(shown)…\" (\(value.utf8.count) bytes)" : "\"\(shown)\""
    }

    /// `value` without quotes (a path component, a name), cut after `limit` characters with "…".
    public static func plain(_ value: String, limit: Int = Excerpt.limit) -> String {
        let (shown, cut) = visible(value, limit: limit)
        return cut ? shown + "…" : shown
    }

    /// All of `value` with the invisible characters escaped (`‹U+000D›`): stored text as a line of a
    /// table or a `show`, where a newline would fake another row and an escape sequence would
    /// drive the terminal.
    public static func escaped(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: isInvisible) else { return value }
        return visible(value, limit: Int.max).0
    }

    /// Up to `limit` characters of `value` with the invisible ones escaped, and whether it was cut.
    static func visible(_ value: String, limit: Int) -> (String, Bool) {
        // Most text has nothing to escape and fits: it is returned as it is, not rebuilt
        // scalar by scalar (publish prints thousands of warnings through here).
        var scalars = 0
        var plain = true
        for scalar in value.unicodeScalars {
            scalars += 1
            if scalars > limit || isInvisible(scalar) {
                plain = false
                break
            }
        }
        if plain { return (value, false) }
        var shown = ""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == limit { return (shown, true) }
            count += 1
            if isInvisible(scalar) {
                shown += escape(scalar)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return (shown, false)
    }

    /// How a message shows a character it must not send raw: its code point, `‹U+202E›`,
    /// which a person reads (and looks up) and no terminal, shell or JSON reader acts on.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "‹U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "›"
    }

    /// Control characters (C0, DEL, C1), Unicode line and paragraph separators, the byte order
    /// mark and the bidirectional embeddings, overrides and isolates (which can make a line read
    /// differently from what it holds).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}

import Foundation
import HeraldCore

/// Text made safe for a terminal, kept readable.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                shown.append(contentsOf: Excerpt.escape(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// JSON text made safe the JSON way: the same characters as `\uXXXX` escapes (they occur
    /// only inside strings, where the escape reads back as the same string).
    public static func safeJSON(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                shown.append(contentsOf: "\\u\(String(format: "%04x", scalar.value))".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && scalar != "\r" && Excerpt.isInvisible(scalar)
    }
}

/// A message as it may reach a terminal: each line at most `limit` characters (cut with "…"),
/// control characters and other invisible ones shown as escapes. Messages quote bounded
/// excerpts of the input already; this is the net under all of them (and under the argument
/// parser's own messages, which quote whole arguments).
public func terminalSafe(_ message: String, limit: Int = 1000) -> String {
    // One line (nearly every message, thousands of publish warnings): no splitting by characters.
    if !message.utf8.contains(UInt8(ascii: "\n")) { return Excerpt.plain(message, limit: limit) }
    return message.split(separator: "\n", omittingEmptySubsequences: false).map { Excerpt.plain(String($0), limit: limit) }
        .joined(separator: "\n")
}

/// A piece of markup. Built by string interpolation, where every interpolated value that is
/// not itself `HTML` is escaped: campaign text comes from the database and is attacker-controlled,
/// so escaping is what happens unless a piece of markup is passed on as markup.
struct HTML: ExpressibleByStringInterpolation, Sendable, Equatable {
    private(set) var raw: String

    /// Markup that is trusted as it is: only for constants written in this module.
    init(trusted raw: String) {
        self.raw = raw
    }

    init(stringLiteral value: String) {
        raw = value
    }

    init(stringInterpolation: StringInterpolation) {
        raw = stringInterpolation.raw
    }

    /// `HTML("<p>\(text)</p>")`: a literal with escaped values, where a type is needed.
    init(_ html: HTML) {
        self = html
    }

    static let empty = HTML(trusted: "")

    var isEmpty: Bool { raw.isEmpty }

    struct StringInterpolation: StringInterpolationProtocol {
        var raw = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            raw.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            raw += literal
        }

        /// Markup as it is.
        mutating func appendInterpolation(_ html: HTML) {
            raw += html.raw
        }

        /// Pieces of markup one after another.
        mutating func appendInterpolation(_ pieces: [HTML]) {
            for piece in pieces { raw += piece.raw }
        }

        /// Any other value: its text, escaped for element content and quoted attributes alike.
        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            raw += HTML.escape(value.description)
        }

        /// An optional piece of markup: nothing when nil.
        mutating func appendInterpolation(_ html: HTML?) {
            if let html { raw += html.raw }
        }
    }

    /// `&`, `<`, `>`, `"` and `'` as character references: safe in text and in quoted attributes.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(trusted: lhs.raw + rhs.raw) }

    static func += (lhs: inout HTML, rhs: HTML) { lhs.raw += rhs.raw }
}

extension Array where Element == HTML {
    func joined(separator: HTML) -> HTML {
        HTML(trusted: map(\.raw).joined(separator: separator.raw))
    }
}

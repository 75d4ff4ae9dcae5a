import Foundation
import HeraldCore
import HeraldTestSupport
import Testing

@testable import HeraldPublish

/// Lint's byte-by-byte paths give the answers of the general code they stand in for (mostly
/// Foundation's): any divergence would change a warning, so each is compared with it over
/// many generated strings.
@Suite struct LintFastPathTests {
    /// ASCII that matters to the search (case, digits, marks that look like accents, CR LF)
    /// and non-ASCII that Foundation folds (accents, combining marks, ß, dotted I, Kelvin sign,
    /// ligatures), which must take Foundation's path. No lone LF: Foundation matches a needle
    /// starting with one inside a CR LF, where the word check traps (Foundation's path only:
    /// the byte search takes printable needles).
    static let asciiPieces = [
        "a", "b", "e", "p", "A", "B", "E", "P", "ap", "App", "1", "0", " ", ".", "-", "'", "^", "`", "~", "_", ":", "/", "\t", "\r\n",
    ]
    static let otherPieces = ["é", "É", "e\u{301}", "ß", "ü", "İ", "ı", "\u{212A}", "ﬀ", "😀", "Æ", "\u{A0}", "\u{3000}"]

    func text(_ random: inout SplitMix, ascii: Bool, length: ClosedRange<Int>) -> String {
        let pieces = ascii ? Self.asciiPieces : Self.asciiPieces + Self.otherPieces
        return (0..<random.int(length)).map { _ in random.pick(pieces) }.joined()
    }

    /// A needle: often a piece of the text with its case flipped here and there, so that
    /// matches (whole-word or not) are common.
    func needle(in text: String, _ random: inout SplitMix) -> String {
        let characters = Array(text)
        guard random.chance(70), characters.count >= 2 else { return self.text(&random, ascii: random.chance(80), length: 2...4) }
        let start = random.int(0...(characters.count - 2))
        let end = random.int((start + 2)...min(characters.count, start + 6))
        return characters[start..<end].map { random.chance(30) ? $0.uppercased() : String($0) }.joined()
    }

    @Test func wordRangeEqualsFoundation() {
        var random = SplitMix(seed: 4)
        for _ in 0..<20_000 {
            let haystack = text(&random, ascii: random.chance(75), length: 0...14)
            let needle = needle(in: haystack, &random)
            let ours = CopyLint.wordRange(of: needle, in: haystack)
            let foundation = CopyLint.foundationWordRange(of: needle, in: haystack)
            let offsets = { (range: Range<String.Index>?) in
                range.map { haystack.utf8.distance(from: haystack.startIndex, to: $0.lowerBound)..<haystack.utf8.distance(from: haystack.startIndex, to: $0.upperBound) }
            }
            #expect(offsets(ours) == offsets(foundation), "\(needle.debugDescription) in \(haystack.debugDescription)")
        }
    }

    @Test func trimmedNameEqualsFoundation() {
        var random = SplitMix(seed: 5)
        for _ in 0..<5_000 {
            let name = text(&random, ascii: random.chance(50), length: 0...6)
            #expect(CopyLint.trimmedName(name) == name.trimmingCharacters(in: .whitespaces), "\(name.debugDescription)")
        }
    }

    /// The scheme of an action URL, as lint and the device preview read it.
    @Test func schemeEqualsCharacterSearch() {
        var random = SplitMix(seed: 7)
        // Marks that join the character before them, a colon included.
        let marks = ["\u{301}", "\u{200D}", "\u{FE0F}"]
        for _ in 0..<20_000 {
            let pieces = Self.asciiPieces + [":", ":"] + (random.chance(40) ? Self.otherPieces + marks : [])
            let url = (0..<random.int(0...8)).map { _ in random.pick(pieces) }.joined()
            let expected = url.firstIndex(of: ":").flatMap { $0 == url.startIndex ? nil : url[..<$0].lowercased() }
            #expect(DevicePreview.schemeOf(url) == expected, "\(url.debugDescription)")
        }
    }
}

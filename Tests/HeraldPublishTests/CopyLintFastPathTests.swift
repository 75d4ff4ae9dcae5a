import Foundation
import HeraldCore
import Testing

@testable import HeraldPublish

/// CopyLint's byte-by-byte paths give Foundation's answers: any divergence would change a
/// warning, so each is compared with Foundation over many generated strings.
@Suite struct CopyLintFastPathTests {
    /// ASCII that matters to the search (case, digits, marks that look like accents, CR LF)
    /// and non-ASCII that Foundation folds (accents, combining marks, ß, dotted I, Kelvin sign,
    /// ligatures), which must take Foundation's path.
    static let asciiPieces = ["a", "b", "e", "p", "A", "B", "E", "P", "ap", "App", "1", "0", " ", ".", "-", "'", "^", "`", "~", "_", "\t", "\r\n", "\n"]
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
}

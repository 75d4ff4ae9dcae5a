import Foundation
@testable import HeraldBoard
import Testing

/// A publish warning is placed on the page of each campaign whose key it names as a whole word:
/// not inside a longer slug, whatever surrounds it.
@Suite struct WarningOwnerTests {
    @Test(arguments: [
        ("sale", "acme/weather: sale has no content", true),
        ("sale", "acme/weather: spring-sale has no content", false),
        ("sale", "acme/weather: sale-2 has no content", false),
        ("sale", "acme/weather: sales", false),
        ("sale", "acme/weather: Sale2", false),
        ("sale", "acme/weather: (sale)", true),
        ("sale", "acme/weather: «sale»", true),
        ("sale", "acme/weather: ésale", true),
        ("sale", "sale", true),
        ("sale", "spring-sale and sale", true),
        ("sale", "sal", false),
        ("", "anything", false),
    ])
    func aKeyIsFoundAsAWholeWordOnly(word: String, line: String, found: Bool) {
        #expect(BoardWarnings.containsWord(word, in: line[...]) == found)
    }
}

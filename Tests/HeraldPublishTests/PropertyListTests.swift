import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import HeraldPublish

/// The iNotify plist read back by an XML parser gives the device exactly the stored text.
@Suite struct PropertyListTests {
    /// Each string of the plist's inner dictionaries, as an XML 1.0 parser reports it.
    final class StringCollector: NSObject, XMLParserDelegate {
        var strings: [String] = []
        private var current: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == "string" { current = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            current? += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "string", let current { strings.append(current) }
            current = nil
        }
    }

    @Test(arguments: ["a\rb", "a\r\nb", "\r", "a\nb", "tab\there", "<&>\u{7F}\u{85}\u{2028}"])
    func textComesBackFromAnXMLParserUnchanged(_ text: String) throws {
        let bytes = PropertyList.dictionaryOfStringDictionaries(["2026/01/01": ["Title": text]])
        let collector = StringCollector()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.strings == [text])
        // A carriage return is written as a character reference; nothing else changes.
        #expect(!bytes.contains(0x0D))
    }
}

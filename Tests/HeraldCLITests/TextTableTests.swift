import HeraldText
import Testing

/// The tables `herald … list` prints: columns line up by characters, whatever a cell holds.
@Suite struct TextTableTests {
    @Test func columnsLineUpByCharactersEvenPastTheBasicPlane() {
        var table = TextTable("SLUG", "NAME", "CREATED")
        table.append("demo", "Demo Weather Co", "2026-11-27T21:45:50Z")
        table.append("café", "Café 👋🏽 Ünïcödé", "2026-11-28T00:00:00Z")
        table.append("x", "🎉", "-")
        let lines = table.render().split(separator: "\n").map(String.init)
        // The widest slug has 4 characters and the widest name 15 ("Demo Weather Co"), each
        // column followed by two spaces: the last column starts at character 23 in every line.
        #expect(lines.map { String(Array($0)[23...]) } == ["CREATED", "2026-11-27T21:45:50Z", "2026-11-28T00:00:00Z", "-"], "\(lines)")
        #expect(lines[3] == "x" + String(repeating: " ", count: 5) + "🎉" + String(repeating: " ", count: 16) + "-")
    }
}

import ArgumentParser
import Foundation
import HeraldStore
import Testing

@testable import herald

/// What a person reads before running anything: help with an example on every command, the
/// version, and a nudge when a subcommand is mistyped.
@Suite struct HelpAndVersionTests {
    /// Every command that runs something (no subcommands of its own), as the words that name it.
    static func leafCommands(_ command: any ParsableCommand.Type = Herald.self, path: [String] = []) -> [[String]] {
        let subcommands = command.configuration.subcommands
        if subcommands.isEmpty { return [path] }
        return subcommands.flatMap { leafCommands($0, path: path + [$0._commandName]) }
    }

    @Test func everyLeafCommandsHelpHasAnExample() throws {
        let leaves = Self.leafCommands()
        #expect(leaves.count > 30)
        let herald = InProcessHerald(database: nil)
        for leaf in leaves {
            let help = try herald.run(leaf + ["--help"])
            #expect(help.status == 0, "\(leaf)")
            #expect(help.stdout.contains("Example"), "herald \(leaf.joined(separator: " ")) --help has no example")
            // Prose is wrapped by ArgumentParser: a run of spaces inside a line means a
            // multi-line string literal carried its indentation into the text.
            for line in help.stdout.split(separator: "\n") where !line.hasPrefix(" ") {
                #expect(!line.trimmingCharacters(in: .whitespaces).contains(String(repeating: " ", count: 8)), "herald \(leaf.joined(separator: " ")) --help: \(line)")
            }
        }
    }

    /// Every `herald …` command line in the help's examples parses: the examples teach what works.
    @Test func everyExampleInTheHelpParses() throws {
        var examples = 0
        for command in Self.allCommands() {
            // The discussion as written (help output wraps it); examples continue with a trailing backslash.
            let discussion = command.configuration.discussion.replacingOccurrences(of: "\\\n", with: " ")
            guard let start = discussion.range(of: "Example") else { continue }
            for line in discussion[start.upperBound...].split(separator: "\n") {
                guard let herald = line.range(of: "herald ") else { continue }
                var text = line[herald.upperBound...]
                for end in ["#", "|", ")", ";"] {
                    if let cut = text.firstIndex(of: Character(end)) { text = text[..<cut] }
                }
                let words = Self.shellWords(String(text))
                examples += 1
                #expect(throws: Never.self, "herald \(words.joined(separator: " "))") { _ = try Herald.parseAsRoot(words) }
            }
        }
        #expect(examples >= 35)
    }

    static func allCommands(_ command: any ParsableCommand.Type = Herald.self) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { allCommands($0) }
    }

    /// Words of a shell command line: spaces split, single and double quotes group.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    @Test func versionNamesTheReleaseAndTheSchema() throws {
        let result = try InProcessHerald(database: nil).run(["--version"])
        #expect(result.status == 0)
        let newest = try #require(Migration.bundled.last)
        #expect(result.stdout == "herald \(HeraldVersion.release) (schema \(newest.name.replacingOccurrences(of: ".sql", with: "")), \(Migration.bundled.count) migrations)\n")
        #expect(try InProcessHerald(database: nil).run(["--help"]).stdout.contains("--version"))
    }

    @Test(arguments: [
        (["campain", "list"], "Did you mean 'campaign'?"),
        (["campaign", "lst"], "Did you mean 'list'?"),
        (["tenant", "grant-reportng", "acme"], "Did you mean 'grant-reporting'?"),
        (["publsh", "--out", "x"], "Did you mean 'publish'?"),
    ])
    func mistypedSubcommandSuggestsTheNearest(_ arguments: [String], _ suggestion: String) throws {
        let result = try InProcessHerald(database: nil).run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(suggestion), "\(result)")
    }

    @Test func farFromEverySubcommandSuggestsNothing() throws {
        let result = try InProcessHerald(database: nil).run(["zzzzzzzz"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("Did you mean"))
    }
}

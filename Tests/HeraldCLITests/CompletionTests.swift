import Foundation
import HeraldTestSupport
import Testing

/// Shell completion offers the keys that exist: run as the shell runs it, through the binary
/// (`herald ---completion …` is what the generated scripts call).
@Suite struct CompletionTests {
    @Test func completionOffersTenantsAppsCampaignsAndKinds() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = HeraldCLI(database: database)
            try herald.succeed(["apply", "-f", EventsCommandTests.example.path])
            func complete(_ words: [String], argument: String) throws -> [String] {
                // The generated bash script passes: the argument, the word index, the cursor, the words.
                let result = try herald.run(["---completion", "campaign", "show", "--", argument, String(words.count - 1), "0"] + words)
                #expect(result.status == 0, "\(result)")
                return result.stdout.split(separator: "\n").map(String.init)
            }
            #expect(try complete(["herald", "campaign", "show", "--tenant", ""], argument: "--tenant") == ["acme"])
            #expect(try complete(["herald", "campaign", "show", "--tenant", "acme", "--app", ""], argument: "--app") == ["weather"])
            #expect(
                try complete(["herald", "campaign", "show", "--tenant", "acme", "--app", "weather", ""], argument: "positional@0")
                    == ["spring-sale", "storm-check", "tour", "welcome"])
            // An unknown tenant offers nothing, and says nothing into the prompt.
            #expect(try complete(["herald", "campaign", "show", "--tenant", "nope", ""], argument: "positional@0").isEmpty)

            let script = try herald.succeed(["--generate-completion-script", "bash"]).stdout
            #expect(script.contains(#"'banner'$'\n''alert'$'\n''story'"#))
        }
    }
}

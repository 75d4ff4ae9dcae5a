import Foundation
import HeraldTestSupport
import PostgresClient
import Testing

/// One scenario, run in-process and as the built binary (as Hummingbird runs one test body
/// through its router and over a live server): the two must print the same, byte for byte,
/// and exit the same — so the fast in-process tests speak for the binary's commands.
@Suite struct TwoSpeedsTests {
    enum Speed: String, CaseIterable, Sendable { case inProcess, binary }

    static func runner(_ speed: Speed, database: ConnectionConfiguration) -> any HeraldRunner {
        switch speed {
        case .inProcess: InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme"])
        case .binary: HeraldCLI(database: database, environment: ["HERALD_TENANT": "acme"])
        }
    }

    /// A campaign made, changed, activated, refused and shown: what each step printed and its status.
    static func scenario(_ herald: any HeraldRunner) throws -> [String] {
        var transcript: [String] = []
        func step(_ arguments: [String]) throws {
            let result = try herald.run(arguments, stdin: nil)
            transcript.append("$ herald \(arguments.joined(separator: " "))\n\(result.status)\n\(result.stdout)\(result.stderr)")
        }
        try step(["tenant", "create", "acme", "--name", "Acme"])
        try step(["app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather", "--default-locale", "en", "--locales", "en,de"])
        try step([
            "campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "Welcome", "--title", "Hi",
            "--message", "Thanks", "--starts", "2026-05-01", "--all", "minAppVersion=1.0",
        ])
        try step(["campaign", "update", "welcome", "--app", "weather", "--locale", "de", "--title", "Hallo", "--message", "Danke"])
        try step(["campaign", "condition", "add", "welcome", "--app", "weather", "--all", "maxAppVersion=3.9"])
        try step(["campaign", "activate", "welcome", "--app", "weather"])
        try step(["campaign", "update", "welcome", "--app", "weather", "--locale", "fr", "--title", "Salut", "--message", "Merci"])
        try step(["campaign", "archive", "nothing", "--app", "weather"])
        try step(["campaign", "update", "welcome", "--app", "weather", "--priority", "high"])
        try step(["campaign", "show", "welcome", "--app", "weather", "--json"])
        try step(["campaign", "list", "--json"])
        return transcript
    }

    @Test func bothSpeedsPrintTheSame() throws {
        var transcripts: [Speed: [String]] = [:]
        for speed in Speed.allCases {
            transcripts[speed] = try HeraldFixtures.withMigratedDatabase { database in
                // What changes from run to run (times of creation) is not what this compares.
                try Self.scenario(Self.runner(speed, database: database)).map {
                    $0.replacingOccurrences(of: #""createdAt" : "[^"]*""#, with: "", options: .regularExpression)
                }
            }
        }
        let inProcess = try #require(transcripts[.inProcess])
        let binary = try #require(transcripts[.binary])
        #expect(inProcess.count == binary.count)
        for (fast, slow) in zip(inProcess, binary) { #expect(fast == slow) }
        // The scenario really exercises success and each kind of refusal.
        #expect(inProcess[5].contains("\n0\ncampaign welcome is active"))
        #expect(inProcess[6].contains("\n65\n") && inProcess[6].contains("fr"))
        #expect(inProcess[7].contains("\n65\n") && inProcess[7].contains("does not exist"))
        #expect(inProcess[8].contains("\n64\n"))
    }
}

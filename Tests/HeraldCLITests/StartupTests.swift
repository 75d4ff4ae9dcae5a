import ArgumentParser
import CHeraldStartup
import Foundation
import HeraldTestSupport
import Testing

@testable import herald

/// What every start of herald costs stays small: the numbers are `scripts/benchmark-cli`'s;
/// these check the two things that keep them so.
@Suite struct StartupTests {
    /// ArgumentParser names a command without a `commandName` from its type, by reflection
    /// (`String(describing:)`), and builds the whole command tree at every start: each such
    /// command searched every protocol conformance in the binary, a few milliseconds in all.
    @Test func everyCommandNamesItself() {
        func unnamed(_ command: any ParsableCommand.Type) -> [String] {
            (command.configuration.commandName == nil ? ["\(command)"] : []) + command.configuration.subcommands.flatMap(unnamed)
        }
        #expect(unnamed(Herald.self) == [], "give these commands a commandName")
    }

    /// libpq (with Kerberos, LDAP and GnuTLS behind it) and libcrypto are loaded by the first
    /// call that needs them, not by the dynamic loader: a command that needs no database does
    /// without them, one that connects loads them.
    @Test func onlyCommandsThatNeedThemLoadLibpqAndLibcrypto() throws {
        func loaded(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (libpq: Bool, libcrypto: Bool) {
            // glibc's loader names each library it maps (to standard error) under LD_DEBUG=files.
            let result = try HeraldCLI(database: nil, environment: extra.merging(["LD_DEBUG": "files"]) { $1 }).run(arguments)
            let files = result.stderr.split(separator: "\n").filter { $0.contains("file=") }
            #expect(!files.isEmpty, "LD_DEBUG=files said nothing: \(result)")
            return (files.contains { $0.contains("libpq.so") }, files.contains { $0.contains("libcrypto.so") })
        }
        let version = try loaded(["--version"])
        #expect(!version.libpq && !version.libcrypto)
        let help = try loaded(["tenant", "list", "--help"])
        #expect(!help.libpq && !help.libcrypto)
        let validate = try loaded(["validate", "--file", CopyLintCommandTests.example.path])
        #expect(!validate.libpq)
        // A server that is not there: the command still loads libpq to try it.
        let connecting = try loaded(["tenant", "list"], environment: ["HERALD_DATABASE_URL": "postgresql:///nothing?host=/nonexistent"])
        #expect(connecting.libpq && connecting.libcrypto)
    }

    /// A command that connects starts loading libpq before the Swift runtime starts (the two
    /// then overlap); help, the version, completion scripts and `validate` never load it.
    @Test func libpqIsLoadedAheadOnlyForCommandsThatConnect() {
        func connects(_ arguments: [String]) -> Bool {
            let copies = arguments.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
                herald_command_line_connects(Int32($0.count), $0.baseAddress)
            }
        }
        for connecting in [["tenant", "list"], ["publish", "--out", "site"], ["events", "ingest", "-"], ["db", "url"]] {
            #expect(connects(connecting), "\(connecting)")
        }
        for not in [[], ["--version"], ["--help"], ["help", "tenant"], ["tenant", "list", "-h"], ["publish", "--help"],
            ["validate", "--file", "campaigns.yaml"], ["--generate-completion-script", "zsh"], ["--experimental-dump-help"]]
        {
            #expect(!connects(not), "\(not)")
        }
    }
}

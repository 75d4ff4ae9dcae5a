import ArgumentParser

/// Before parsing any command line, ArgumentParser parses it twice more as two commands of its
/// own, to see whether it asks for `--generate-completion-script`. The Swift runtime's first
/// lookups of those commands' conformances search every conformance record of the binary
/// (9,000: Foundation's, NIO's and Herald's), which made that check a quarter of the CPU time
/// of `herald tenant list` (perf, 60 runs). ArgumentParser skips the check for a root that
/// declares a super command (`_superCommandName`, for commands run as another tool's
/// plugin), and reads that name nowhere else but in help and usage text.
///
/// So while `parse` runs, and only for command lines in which no argument starts with
/// `--generate-completion-script`, the root's configuration names one. Help, usage and error
/// messages are made after the parse (from the error, or by the help command's run), when the
/// configuration is the usual one again. A task-local, so that the in-process tests, which
/// parse side by side, never see one another's.
enum ParsingWithoutCompletionCheck {
    @TaskLocal static var isOn = false

    static let configuration: CommandConfiguration = {
        var configuration = Herald.standardConfiguration
        configuration._superCommandName = "herald"
        return configuration
    }()

    static func parse<Parsed>(_ arguments: [String], _ parse: ([String]) throws -> Parsed) throws -> Parsed {
        let asksForCompletionScript = arguments.contains { $0.hasPrefix("--generate-completion-script") }
        return try $isOn.withValue(!asksForCompletionScript) { try parse(arguments) }
    }
}

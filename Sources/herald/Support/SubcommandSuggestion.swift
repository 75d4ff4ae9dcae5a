import ArgumentParser

/// "Did you mean 'campaign'?" for a mistyped subcommand: ArgumentParser says only that the
/// word was unexpected.
enum SubcommandSuggestion {
    /// The suggestion for the first word of `arguments` that is not a subcommand where one was
    /// expected, when a subcommand is spelled close to it; nil otherwise.
    static func forUnknown(in arguments: [String], error: any Error) -> String? {
        // Failures of a command that ran (ExitCode) are not about spelling.
        guard !(error is ExitCode), Herald.exitCode(for: error) == .validationFailure else { return nil }
        var names = subcommandNames(of: Herald.self)
        var children: [any ParsableCommand.Type] = Herald.configuration.subcommands
        for word in arguments where !word.hasPrefix("-") {
            guard !names.isEmpty else { return nil }
            if let index = names.firstIndex(of: word) {
                let next = children[index]
                names = subcommandNames(of: next)
                children = next.configuration.subcommands
                continue
            }
            var best: (name: String, distance: Int)?
            for name in names {
                let distance = editDistance(word, name)
                if distance < (best?.distance ?? Int.max) { best = (name, distance) }
            }
            guard let best, best.distance <= max(2, word.count / 3) else { return nil }
            return "Did you mean '\(best.name)'?"
        }
        return nil
    }

    private static func subcommandNames(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.map { $0._commandName }
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

import Foundation

/// `--then CMD`: a shell command run after each watched run that changed files (a sync to the
/// static host, say), with the changed paths (relative to the site's folder, one per line) on
/// its standard input. Its output goes where herald's goes (the journal, under systemd).
public struct ThenCommand: Sendable {
    public let command: String
    /// The site's folder: the command's `HERALD_OUT`.
    public let out: URL

    public init(command: String, out: URL) {
        self.command = command
        self.out = out
    }

    public struct Failed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Runs the command through `/bin/sh -c` and waits for it; throws `Failed` unless it exits 0.
    public func run(paths: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_OUT"] = out.path
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            throw Failed(description: "--then could not start /bin/sh: \(error.localizedDescription)")
        }
        // A command that does not read its input must not stop herald: writing into a pipe
        // whose reader is gone raises SIGPIPE, which kills by default. Ignored around the write
        // only (after the command started), so that the command itself keeps the default.
        let text = paths.map { $0 + "\n" }.joined()
        let previous = signal(SIGPIPE, SIG_IGN)
        let handle = input.fileHandleForWriting
        try? handle.write(contentsOf: Data(text.utf8))
        try? handle.close()
        signal(SIGPIPE, previous)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
            throw Failed(description: "--then command \(how)")
        }
    }
}

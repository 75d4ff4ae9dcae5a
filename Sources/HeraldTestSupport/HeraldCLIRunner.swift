import Foundation
import HeraldCore
import PostgresClient
import Synchronization

/// What one run of the built `herald` binary did.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal's number when `killedBy` is set.
    public let status: Int32
    /// The signal that ended the process (SIGKILL from a `CrashPoint`), if one did.
    public let killedBy: Int32?
    public let stdout: String
    public let stderr: String

    public var description: String {
        "\(killedBy.map { "killed by signal \($0)" } ?? "exit \(status)")\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }

    public init(status: Int32, killedBy: Int32? = nil, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.killedBy = killedBy
    }
}

/// A way to run herald's commands: in the test process (fast: the same parsing, commands and
/// error reporting) or as the built binary (slow: the process's wiring, exit codes, signals).
/// A test written against it runs at either speed, or both.
public protocol HeraldRunner: Sendable {
    /// Runs `herald arguments…` and returns its exit status and what it printed.
    func run(_ arguments: [String], stdin: String?) throws -> CommandResult
}

extension HeraldRunner {
    /// `run` that expects success, for the steps of a scenario.
    @discardableResult
    public func succeed(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        let result = try run(arguments, stdin: stdin)
        guard result.status == 0 else {
            throw CLIRunnerError(message: "herald \(arguments.joined(separator: " ")) failed:\n\(result)")
        }
        return result
    }
}

/// Runs the real `herald` executable (built next to the test bundle) against a database,
/// the way a person would from a shell.
public struct HeraldCLI: HeraldRunner {
    public var environment: [String: String]

    public init(database: ConnectionConfiguration?, environment extra: [String: String] = [:]) {
        // Start from a clean slate so the developer's own PG*/HERALD_* settings never leak in.
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("PG") && !$0.key.hasPrefix("HERALD_")
        }
        environment["HERALD_ACTOR"] = "cli-test"
        if let database { environment["HERALD_DATABASE_URL"] = database.conninfo }
        environment["COLUMNS"] = "200"
        for (key, value) in extra { environment[key] = value }
        self.environment = environment
    }

    /// The same CLI, killed (SIGKILL, from inside) the `nth` time a run reaches `phase`.
    public func crashing(at phase: some CrashPoint.Phase, nth: Int = 1) -> HeraldCLI {
        var crashing = self
        crashing.environment[CrashPoint.variable] = nth == 1 ? phase.rawValue : "\(phase.rawValue):\(nth)"
        return crashing
    }

    public static func binaryURL() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["HERALD_TEST_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var candidates = [Bundle.main.bundleURL]
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for directory in candidates {
            for candidate in [directory, directory.deletingLastPathComponent()] {
                let url = candidate.appendingPathComponent("herald")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: url.path)
                {
                    return url
                }
            }
        }
        throw CLIRunnerError(message: "cannot find the built herald binary near \(candidates.map(\.path)); set HERALD_TEST_BINARY")
    }

    /// Runs `herald arguments…`; output goes through temp files (a full pipe would block).
    /// `killAfter`: sends it SIGKILL that many seconds after it started, if it still runs
    /// (a `kill -9` landing at a random instant).
    @discardableResult
    public func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil, killAfter: Double? = nil) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))

        let process = Process()
        process.executableURL = try Self.binaryURL()
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? input.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let pending = PendingKill(pid: process.processIdentifier)
        if let killAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) { pending.fire() }
        }
        process.waitUntilExit()
        pending.cancel()
        return CommandResult(
            status: process.terminationStatus,
            killedBy: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    public func run(_ arguments: [String], stdin: String?) throws -> CommandResult {
        try run(arguments, stdin: stdin, in: nil, killAfter: nil)
    }

    /// `run` that expects success, for the steps of a scenario.
    @discardableResult
    public func succeed(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> CommandResult {
        let result = try run(arguments, stdin: stdin, in: directory)
        guard result.status == 0 else {
            throw CLIRunnerError(message: "herald \(arguments.joined(separator: " ")) failed:\n\(result)")
        }
        return result
    }
}

/// A SIGKILL for a child, sent unless cancelled first (once the child was waited for, its
/// pid may belong to another process).
private final class PendingKill: Sendable {
    let pid: pid_t
    let cancelled = Mutex(false)

    init(pid: pid_t) { self.pid = pid }

    func fire() { cancelled.withLock { if !$0 { _ = kill(pid, SIGKILL) } } }
    func cancel() { cancelled.withLock { $0 = true } }
}

public struct CLIRunnerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}

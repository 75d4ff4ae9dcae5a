import Foundation
import HeraldTestSupport
import PostgresClient
import Synchronization

@testable import herald

/// Runs herald's commands inside the test process, as swift-argument-parser's own tests do:
/// the same parsing, commands and error reporting as the binary, with the environment,
/// standard input and both output streams bound to this one run (`Console`). Exit codes,
/// signals and the binary's wiring are left to the subprocess tests (`HeraldCLI`).
struct InProcessHerald: HeraldRunner {
    var environment: [String: String]

    /// The environment `HeraldCLI` would give the binary: none of the developer's PG* or
    /// HERALD_* settings, this database, a fixed actor.
    init(database: ConnectionConfiguration?, environment extra: [String: String] = [:]) {
        environment = HeraldCLI(database: database, environment: extra).environment
    }

    /// Runs `herald arguments…` and returns its exit status and what it printed.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        let input = try InputFile(stdin ?? "")
        defer { input.close() }
        let captured = Mutex((stdout: "", stderr: ""))
        let console = Console(
            environment: environment,
            inputDescriptor: input.descriptor,
            write: { stream, text in
                captured.withLock {
                    switch stream {
                    case .output: $0.stdout += text
                    case .error: $0.stderr += text
                    }
                }
            },
            errorIsTerminal: false)
        let status = Herald.run(arguments, console: console)
        return captured.withLock { CommandResult(status: status, stdout: $0.stdout, stderr: $0.stderr) }
    }
}

extension InProcessHerald {
    /// Herald on a fresh database holding tenant acme (HERALD_TENANT) with app weather in en
    /// and de, for tests that need no more than that to start from.
    static func withAcmeWeather(_ body: (InProcessHerald, ConnectionConfiguration) throws -> Void) throws {
        try HeraldFixtures.withMigratedDatabase { database in
            let herald = InProcessHerald(database: database, environment: ["HERALD_TENANT": "acme"])
            try herald.succeed(["tenant", "create", "acme", "--name", "Acme"])
            try herald.succeed([
                "app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather",
                "--default-locale", "en", "--locales", "en,de",
            ])
            try body(herald, database)
        }
    }
}

/// Standard input for one in-process run: an unlinked temporary file holding `text`.
private struct InputFile {
    let descriptor: Int32

    init(_ text: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-stdin-\(UUID().uuidString)").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CLIRunnerError(message: "cannot make \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw CLIRunnerError(message: "cannot write standard input: \(String(cString: strerror(errno)))") }
            written += count
        }
        lseek(descriptor, 0, SEEK_SET)
    }

    func close() { _ = Glibc.close(descriptor) }
}

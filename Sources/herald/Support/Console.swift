import Foundation
import HeraldCore
import HeraldText

/// What a command reads from and writes to its surroundings: the process's own when the
/// binary runs; a test's own when a test runs a command in-process, bound for that one
/// command with `Console.$current.withValue`. Commands reach their surroundings only
/// through `Console.current` (and the `print` below), never through ProcessInfo or stdio.
struct Console: Sendable {
    enum Stream: Sendable { case output, error }

    /// The environment variables the command sees.
    var environment: [String: String]
    /// Standard input as a file descriptor (`-` as a file name reads it).
    var inputDescriptor: Int32
    /// Writes text to standard output or standard error.
    var write: @Sendable (Stream, String) -> Void
    /// Whether standard error is a terminal (progress is drawn only there).
    var errorIsTerminal: Bool
    /// Whether commands may take over the process's signals (Ctrl-C): the binary's own
    /// console only, never a test's.
    var ownsProcessSignals = false

    @TaskLocal static var current = Console.process

    /// The process's own environment and standard streams.
    static var process: Console {
        Console(
            environment: ProcessInfo.processInfo.environment,
            inputDescriptor: STDIN_FILENO,
            write: { stream, text in
                switch stream {
                case .output: Swift.print(text, terminator: "")
                case .error: FileHandle.standardError.write(Data(text.utf8))
                }
            },
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            ownsProcessSignals: true)
    }

    /// All of standard input.
    func readAllInput() -> Data {
        FileHandle(fileDescriptor: inputDescriptor, closeOnDealloc: false).readDataToEndOfFile()
    }

    /// One line of standard input without its newline, or nil at its end.
    func readInputLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(inputDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to standard error as it is (no prefix, no newline added).
    func writeError(_ text: String) {
        write(.error, text)
    }
}

/// The standard library's `print`, sent to the current console's standard output: herald's
/// commands call `print` as usual, and an in-process test reads what they printed.
///
/// The net under every value herald prints: whatever a value holds, no character a terminal
/// acts on (C0 and C1 controls, escape sequences, bidirectional overrides) reaches it raw —
/// each is shown as its code point (`‹U+202E›`); line breaks and tabs are kept.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Console.current.write(.output, TerminalText.safe(items.map { "\($0)" }.joined(separator: separator) + terminator))
}

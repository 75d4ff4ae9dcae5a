import Foundation
import HeraldStore

/// PostgreSQL's program `name` (psql, pg_dump, …), from the server binaries Herald would use.
public func postgresProgram(_ name: String) throws -> URL {
    try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment).directory.appendingPathComponent(name)
}

/// Runs a program to its end; its exit status and what it said on either stream (through a
/// temp file: a full pipe would block it).
public func runProgram(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(executable.lastPathComponent)-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, String(decoding: try Data(contentsOf: output), as: UTF8.self))
}

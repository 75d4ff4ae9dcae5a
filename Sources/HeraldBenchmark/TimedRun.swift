import Foundation
import HeraldTestSupport

/// Runs `executable` with `arguments` and exactly `environment`, standard input from
/// /dev/null and standard output and error into files, timed from spawn to exit: posix_spawn
/// and waitpid, as cron or a shell starts it. Foundation's Process learns of the exit by
/// polling, which added some 35 ms to every run it timed (a fifth of a no-change publish).
func timedRun(
    _ executable: URL, _ arguments: [String], environment: [String: String], output: URL, errors: URL
) throws -> (seconds: Double, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable.path] + arguments).map { strdup($0) }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = (argv + [nil]).withUnsafeBufferPointer { arguments in
        (envp + [nil]).withUnsafeBufferPointer { variables -> Int32 in
            guard let arguments = arguments.baseAddress, let variables = variables.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable.path, &actions, nil, UnsafeMutablePointer(mutating: arguments), UnsafeMutablePointer(mutating: variables))
        }
    }
    guard spawned == 0 else { throw CLIRunnerError(message: "cannot run \(executable.path): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw CLIRunnerError(message: "waiting for \(executable.path) failed") }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // WIFEXITED / WEXITSTATUS by hand (the C macros are not imported).
    return (elapsed, status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
}

import Foundation

/// With HERALD_TIMING=1, prints how long each phase of a command took to stderr
/// (`timing: snapshot 0.123 s`), for operators and the benchmark; silent otherwise.
struct PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["HERALD_TIMING"] == "1"
    private var last = DispatchTime.now().uptimeNanoseconds

    mutating func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        FileHandle.standardError.write(Data(String(format: "timing: %@ %.3f s\n", phase, Double(now - last) / 1e9).utf8))
        last = now
    }
}

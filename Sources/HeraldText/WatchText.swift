import Foundation
import HeraldJobs

/// `publish --watch`'s log: one line per run that changed something, per problem and per
/// recovery; a compiler warning once (an incremental run repeats those of the apps it compiles).
public enum WatchText {
    public enum Level: Sendable { case info, warning, error }

    /// The lines `event` logs; `warned` holds the warnings logged so far.
    public static func lines(_ event: PublishWatcher.Event, warned: inout Set<String>) -> [(Level, String)] {
        switch event {
        case .published(let run):
            let milliseconds = Int((Double(run.duration.components.attoseconds) / 1e15).rounded())
                + Int(run.duration.components.seconds) * 1000
            let shown = (run.written + run.removed).prefix(3).map { terminalSafe($0) }.joined(separator: ", ")
            let more = run.written.count + run.removed.count > 3 ? ", …" : ""
            let line =
                "published run \(run.runID.map(String.init) ?? "-") (\(run.reason.rawValue), \(run.apps) app(s)) in \(milliseconds) ms: "
                + "\(run.written.count) written, \(run.removed.count) removed, \(run.unchanged) unchanged (\(shown)\(more))"
            return [(.info, line)] + run.warnings.filter { warned.insert($0).inserted }.map { (.warning, terminalSafe($0)) }
        case .runFailed(let failure, let retryIn):
            let when = retryIn.map { "; trying again in \(seconds($0))" } ?? "; publishing again at the next change"
            return [(.error, "publish failed: \(failure.lines.map { terminalSafe($0) }.joined(separator: " "))\(when)")]
        case .thenFailed(let reason, let pending, let retryIn):
            return [
                (.error, "\(terminalSafe(reason)); its \(pending) path(s) are given to it again after the next run (in \(seconds(retryIn)) at the latest)")
            ]
        case .thenRecovered(let paths):
            return [(.info, "--then succeeded again (\(paths) path(s))")]
        case .databaseUnavailable(let reason, let attempt, let retryIn):
            return [(.warning, "\(terminalSafe(reason)) (attempt \(attempt); trying again in \(seconds(retryIn)))")]
        case .reconnected(let attempts):
            return [(.info, "database reachable again after \(attempts) attempt(s): publishing once (changes meanwhile were not notified)")]
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value < 10 ? String(format: "%.1f s", value) : "\(Int(value.rounded())) s"
    }
}

import Foundation

/// Where a job reports how long each of its phases took: the phase's name and its seconds
/// (`herald` prints them as `timing: snapshot 0.123 s` with HERALD_TIMING=1).
public typealias PhaseTimes = (_ phase: String, _ seconds: Double) -> Void

/// Measures the time since the previous mark and reports it; does nothing without a reporter.
struct PhaseTimer {
    private let report: PhaseTimes?
    private var last = DispatchTime.now().uptimeNanoseconds

    init(_ report: PhaseTimes?) {
        self.report = report
    }

    mutating func mark(_ phase: @autoclosure () -> String) {
        guard let report else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        report(phase(), Double(now - last) / 1e9)
        last = now
    }
}

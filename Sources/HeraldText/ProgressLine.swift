import Foundation
import HeraldJobs

/// The one line an ingest redraws on a terminal: a bar, percent and ETA when the input's
/// size is known (a file), and always lines, stored events and the rate.
public enum ProgressLine {
    public static let barWidth = 24

    public static func render(_ progress: EventIngestJob.Progress) -> String {
        let rate = Double(progress.read) / max(progress.seconds, 0.001)
        let counts = "\(progress.read) lines · \(progress.inserted) stored · \(Int(rate.rounded())) lines/s"
        guard let total = progress.totalBytes, total > 0 else { return counts }
        let fraction = min(Double(progress.bytesRead) / Double(total), 1)
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let bytesPerSecond = Double(progress.bytesRead) / max(progress.seconds, 0.001)
        let eta = bytesPerSecond > 0 ? Double(total - progress.bytesRead) / bytesPerSecond : 0
        let percent = String(Int((fraction * 100).rounded(.down)))
        return "\(bar) \(String(repeating: " ", count: 3 - percent.count))\(percent)%  \(counts) · ETA \(duration(eta))"
    }

    /// `1:05` (minutes and seconds), `1:02:05` from an hour on.
    public static func duration(_ seconds: Double) -> String {
        let whole = max(Int(seconds.rounded()), 0)
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}

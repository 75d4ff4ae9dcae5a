import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// One log line per minute of activity (requests by outcome, events, acknowledgement p50/p99),
/// never one per request, and nothing while idle.
final class ActivityLog: Service, Sendable {
    private struct Window {
        var requests = 0
        var statuses: [Int: Int] = [:]
        var accepted = 0
        var duplicate = 0
        var rejected = 0
        /// Acknowledgement latencies in seconds (a bounded sample: enough for a p99).
        var latencies: [Double] = []
        var seen = 0
    }

    private static let sampleLimit = 100_000
    private let window = Mutex(Window())
    private let logger: Logger
    private let seconds: Int

    init(logger: Logger, seconds: Int) {
        self.logger = logger
        self.seconds = max(1, seconds)
    }

    func record(status: Int, seconds latency: Double, accepted: Int, duplicate: Int, rejected: Int) {
        window.withLock { window in
            window.requests += 1
            window.statuses[status, default: 0] += 1
            window.accepted += accepted
            window.duplicate += duplicate
            window.rejected += rejected
            window.seen += 1
            if window.latencies.count < Self.sampleLimit {
                window.latencies.append(latency)
            } else {
                // Reservoir sampling keeps the sample fair when a minute holds more.
                let slot = Int.random(in: 0..<window.seen)
                if slot < Self.sampleLimit { window.latencies[slot] = latency }
            }
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(self.seconds))
                self.flush()
            }
        }
        flush()
    }

    /// Logs the window's line when anything happened in it, and starts a new one.
    func flush() {
        let ended = window.withLock { window -> Window in
            let ended = window
            window = Window()
            return ended
        }
        guard ended.requests > 0 else { return }
        let sorted = ended.latencies.sorted()
        func percentile(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
            return String(format: "%.1f ms", sorted[max(0, index)] * 1000)
        }
        let statuses = ended.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        logger.info(
            "\(ended.requests) request(s) (\(statuses)) · events accepted \(ended.accepted) · duplicate \(ended.duplicate) · rejected \(ended.rejected) · ack p50 \(percentile(0.5)) p99 \(percentile(0.99))"
        )
    }
}

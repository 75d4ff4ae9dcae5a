import CoreMetrics
import Foundation
import Prometheus
import Synchronization

/// The collector's metrics, kept through swift-metrics in a Prometheus registry and served
/// as Prometheus text at /metrics: requests by status, events by outcome, the commit latency
/// histogram, the acknowledgement latency histogram and the requests in flight.
final class CollectorMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let counters: Mutex<[String: CoreMetrics.Counter]> = Mutex([:])
    let inFlight: Meter
    let queued: Meter
    let commitSeconds: CoreMetrics.Timer
    let requestSeconds: CoreMetrics.Timer
    let commitEvents: Recorder

    /// The process has one metrics system: the first collector made bootstraps it.
    private static let bootstrapped = Mutex<PrometheusCollectorRegistry?>(nil)

    init() {
        registry = Self.bootstrapped.withLock { existing in
            if let existing { return existing }
            let registry = PrometheusCollectorRegistry()
            var factory = PrometheusMetricsFactory(registry: registry)
            let latencies: [Duration] = [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50),
                .milliseconds(100), .milliseconds(200), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
            ]
            factory.durationHistogramBuckets["herald_collect_commit_seconds"] = latencies
            factory.durationHistogramBuckets["herald_collect_request_seconds"] = latencies
            factory.valueHistogramBuckets["herald_collect_commit_events"] = [1, 20, 100, 500, 1_000, 2_000, 5_000, 10_000]
            MetricsSystem.bootstrap(factory)
            existing = registry
            return registry
        }
        inFlight = Meter(label: "herald_collect_requests_in_flight")
        queued = Meter(label: "herald_collect_events_queued")
        commitSeconds = CoreMetrics.Timer(label: "herald_collect_commit_seconds")
        requestSeconds = CoreMetrics.Timer(label: "herald_collect_request_seconds")
        commitEvents = Recorder(label: "herald_collect_commit_events", aggregate: true)
    }

    func requestFinished(status: Int) {
        counter("herald_collect_requests_total", ("status", String(status))).increment()
    }

    func events(accepted: Int, duplicate: Int, rejected: Int) {
        if accepted > 0 { counter("herald_collect_events_total", ("outcome", "accepted")).increment(by: accepted) }
        if duplicate > 0 { counter("herald_collect_events_total", ("outcome", "duplicate")).increment(by: duplicate) }
        if rejected > 0 { counter("herald_collect_events_total", ("outcome", "rejected")).increment(by: rejected) }
    }

    /// The Prometheus text of every metric.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    private func counter(_ label: String, _ dimension: (String, String)) -> CoreMetrics.Counter {
        let key = "\(label){\(dimension.1)}"
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: label, dimensions: [dimension])
            counters[key] = counter
            return counter
        }
    }
}

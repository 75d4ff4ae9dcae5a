import Foundation

/// The collector's own commit numbers, read from its /metrics (Prometheus text): how many
/// transactions, how many events each took, and how long they ran (bucketed). The difference
/// of two readings describes the commits of the phase between them.
struct CollectorCommits {
    var count = 0.0
    var events = 0.0
    var seconds = 0.0
    /// Commits that took at most each bucket's bound (seconds), cumulative, as Prometheus keeps them.
    var buckets: [(bound: Double, count: Double)] = []

    /// Reads them through curl (Debian has it beside wrk).
    static func read(port: Int) throws -> CollectorCommits {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--max-time", "5", "http://127.0.0.1:\(port)/metrics"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return parse(String(decoding: data, as: UTF8.self))
    }

    static func parse(_ text: String) -> CollectorCommits {
        var commits = CollectorCommits()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let value = Double(parts[parts.count - 1]) else { continue }
            let name = String(parts[0])
            if name == "herald_collect_commit_seconds_count" { commits.count = value }
            if name == "herald_collect_commit_seconds_sum" { commits.seconds = value }
            if name == "herald_collect_commit_events_sum" { commits.events = value }
            let bucket = "herald_collect_commit_seconds_bucket{le=\""
            if name.hasPrefix(bucket) {
                let text = name.dropFirst(bucket.count).prefix { $0 != "\"" }
                if let bound = text == "+Inf" ? Double.infinity : Double(text) { commits.buckets.append((bound, value)) }
            }
        }
        return commits
    }

    /// What happened between `earlier` and this reading.
    func since(_ earlier: CollectorCommits) -> CollectorCommits {
        var phase = CollectorCommits(count: count - earlier.count, events: events - earlier.events, seconds: seconds - earlier.seconds)
        phase.buckets = buckets.map { bucket in
            (bucket.bound, bucket.count - (earlier.buckets.first { $0.bound == bucket.bound }?.count ?? 0))
        }
        return phase
    }

    /// One line: commits, events per commit, mean time, and the bucket bound under which 50%
    /// and 99% of them finished.
    var summary: String {
        guard count > 0 else { return "no commits" }
        func bound(_ share: Double) -> String {
            let target = count * share
            guard let bucket = buckets.sorted(by: { $0.bound < $1.bound }).first(where: { $0.count >= target }) else { return "?" }
            return bucket.bound.isInfinite ? "> 5 s" : String(format: "≤ %.0f ms", bucket.bound * 1000)
        }
        return String(
            format: "%.0f commits, %.0f events each, mean %.1f ms; p50 %@, p99 %@", count, events / count, seconds / count * 1000,
            bound(0.5), bound(0.99))
    }
}

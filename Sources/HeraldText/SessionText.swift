import Foundation
import HeraldJobs

/// `herald whoami`, `herald db status` and an ingest's summary line, for people.
public enum SessionText {
    public static func describe(_ answer: Whoami) -> String {
        var lines = ["login    \(answer.login)", "tenants  \(answer.tenants ?? "none")"]
        if let actor = answer.auditActor { lines.append("audit    changes are recorded as \(actor)") }
        for (index, line) in answer.may.enumerated() { lines.append("\(index == 0 ? "may      " : "         ")\(line)") }
        return lines.joined(separator: "\n")
    }

    public static func describe(_ status: DatabaseStatus) -> String {
        var lines = [
            "database    \(status.mode == "local" ? "Herald's local PostgreSQL" : "configured by the environment")",
            "connection  \(status.connection)",
        ]
        if let directory = status.directory { lines.append("directory   \(directory)\(status.initialized == true ? "" : " (not created yet)")") }
        lines.append("running     \(status.running ? "yes" + (status.pid.map { " (pid \($0))" } ?? "") : "no")")
        if let applied = status.appliedMigrations, let pending = status.pendingMigrations {
            lines.append("migrations  \(applied) applied, \(pending) pending")
        }
        return lines.joined(separator: "\n")
    }
}

extension EventIngestJob.Summary {
    /// `read 13 · inserted 10 · duplicate 2 · rejected 1  (0.1 s, 130 lines/s)`
    public var line: String {
        let rate = seconds > 0 ? Double(read) / seconds : 0
        return "read \(read) · inserted \(inserted) · duplicate \(duplicate) · rejected \(rejected)"
            + String(format: "  (%.1f s, %.0f lines/s)", seconds, rate)
    }
}

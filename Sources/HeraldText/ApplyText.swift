import HeraldPublish
import HeraldStore

/// `herald apply` for people: each step, and in a dry run each changed value, old (-) and new
/// (+), as the campaigns file writes it.
public enum ApplyText {
    public static func render(_ steps: [ApplyStep], dryRun: Bool) -> String {
        var lines: [String] = []
        for step in steps {
            lines.append(step.description)
            if dryRun, let diff = diff(step) {
                for line in diff.split(separator: "\n") where isChangeLine(line) { lines.append("    " + line) }
            }
        }
        lines.append(
            steps.isEmpty ? "no changes" : dryRun ? "dry run: \(steps.count) change(s) planned, nothing written" : "applied \(steps.count) change(s)")
        return lines.joined(separator: "\n")
    }

    /// An update's unified diff of the entity as the campaigns file writes it; nil otherwise.
    static func diff(_ step: ApplyStep) -> String? {
        guard let before = step.before, let after = step.after else { return nil }
        let diff = UnifiedDiff.render(path: step.path, old: before, new: after)
        return diff.isEmpty ? nil : diff
    }

    /// A removed or added line of a diff (not its headers or context).
    static func isChangeLine(_ line: Substring) -> Bool {
        (line.hasPrefix("-") && !line.hasPrefix("---")) || (line.hasPrefix("+") && !line.hasPrefix("+++"))
    }
}

/// `herald apply --json`: whether it was a dry run, and each step; `diff` is an update's old
/// and new values, as a unified diff of it in the file's form.
public struct ApplyJSON: Encodable {
    struct Step: Encodable {
        let action, entity, path: String
        let details: [String]
        let diff: String?
    }

    let dryRun: Bool
    let steps: [Step]

    public init(steps: [ApplyStep], dryRun: Bool) {
        self.dryRun = dryRun
        self.steps = steps.map {
            Step(action: $0.action.rawValue, entity: $0.entity, path: $0.path, details: $0.details, diff: ApplyText.diff($0))
        }
    }
}

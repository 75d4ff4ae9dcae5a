/// A unified diff of two texts, line by line (`diff -u`'s format, three lines of context), for
/// `publish --dry-run`: what a file would become, readable by people and `patch`.
public enum UnifiedDiff {
    /// The diff of `old` (nil: no such file) and `new` (nil: removed) under `path`; empty when equal.
    public static func render(path: String, old: String?, new: String?, context: Int = 3) -> String {
        let before = lines(old), after = lines(new)
        guard before != after else { return "" }
        let edits = script(before, after)
        var text = "--- \(old == nil ? "/dev/null" : "a/\(path)")\n+++ \(new == nil ? "/dev/null" : "b/\(path)")\n"
        // Group edits into hunks: runs of changes with up to `context` equal lines around them.
        var index = 0
        while index < edits.count {
            guard let firstChange = edits[index...].firstIndex(where: { $0.kind != .same }) else { break }
            let start = max(firstChange - context, index)
            var end = firstChange
            var lastChange = firstChange
            while end < edits.count {
                if edits[end].kind != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            end = min(lastChange + context + 1, edits.count)
            let hunk = edits[start..<end]
            let oldStart = hunk.first?.oldLine ?? 0, newStart = hunk.first?.newLine ?? 0
            let oldCount = hunk.filter { $0.kind != .added }.count, newCount = hunk.filter { $0.kind != .removed }.count
            text += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                text += (edit.kind == .same ? " " : edit.kind == .added ? "+" : "-") + edit.text + "\n"
            }
            index = end
        }
        return text
    }

    private enum Kind { case same, added, removed }

    private struct Edit {
        var kind: Kind
        var text: String
        /// 1-based line numbers where this edit sits in the old and the new text.
        var oldLine: Int
        var newLine: Int
    }

    private static func lines(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `a,b` as diff writes a hunk's range (`0,0` for an empty side).
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(max(start - 1, 0)),0" : count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// The edit script by longest common subsequence (published files are small).
    private static func script(_ a: [String], _ b: [String]) -> [Edit] {
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append(Edit(kind: .same, text: a[i], oldLine: i + 1, newLine: j + 1))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                // Removals before additions, as diff -u writes them.
                edits.append(Edit(kind: .removed, text: a[i], oldLine: i + 1, newLine: j + 1))
                i += 1
            } else {
                edits.append(Edit(kind: .added, text: b[j], oldLine: i + 1, newLine: j + 1))
                j += 1
            }
        }
        return edits
    }
}

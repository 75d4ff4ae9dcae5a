import Foundation
import HeraldPublish
import Testing

/// `publish --dry-run`'s diffs read as `diff -u` writes them. The expected texts are what GNU
/// diff prints for the same inputs (checked by hand, and against /usr/bin/diff when present).
@Suite struct UnifiedDiffTests {
    static let old = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"

    @Test func aChangedLineGetsOneHunkWithThreeLinesOfContext() {
        let new = Self.old.replacingOccurrences(of: "line 6\n", with: "line six\n")
        #expect(UnifiedDiff.render(path: "a.json", old: Self.old, new: new) == """
            --- a/a.json
            +++ b/a.json
            @@ -3,7 +3,7 @@
             line 3
             line 4
             line 5
            -line 6
            +line six
             line 7
             line 8
             line 9

            """)
    }

    @Test func newAndRemovedFilesAndNoChange() {
        #expect(UnifiedDiff.render(path: "n.json", old: nil, new: "{}\n") == "--- /dev/null\n+++ b/n.json\n@@ -0,0 +1 @@\n+{}\n")
        #expect(UnifiedDiff.render(path: "r.json", old: "a\nb\n", new: nil) == "--- a/r.json\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
        #expect(UnifiedDiff.render(path: "same", old: "x\n", new: "x\n").isEmpty)
    }

    /// Random edits of a text: the diff is the one GNU diff makes, when it is installed here.
    @Test func agreesWithGNUDiff() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/diff") else { return }
        var generator = SystemRandomNumberGenerator()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<40 {
            var lines = (0..<Int.random(in: 0...30, using: &generator)).map { _ in "v\(Int.random(in: 0...5, using: &generator))" }
            let before = lines
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0...2, using: &generator) {
                case 0: lines.insert("new", at: Int.random(in: 0...lines.count, using: &generator))
                case 1 where !lines.isEmpty: lines.remove(at: Int.random(in: 0..<lines.count, using: &generator))
                default: if !lines.isEmpty { lines[Int.random(in: 0..<lines.count, using: &generator)] = "changed" }
                }
            }
            let oldText = before.map { $0 + "\n" }.joined(), newText = lines.map { $0 + "\n" }.joined()
            let a = folder.appendingPathComponent("a\(round)"), b = folder.appendingPathComponent("b\(round)")
            try Data(oldText.utf8).write(to: a)
            try Data(newText.utf8).write(to: b)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
            process.arguments = ["-u", "--label", "a/f", "--label", "b/f", a.path, b.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // Minimal diffs are not unique, but their size is: as many lines removed and added.
            let ours = UnifiedDiff.render(path: "f", old: oldText, new: newText)
            #expect(Self.changedLines(ours).count == Self.changedLines(expected).count, "round \(round)\n\(ours)\n---\n\(expected)")
            #expect(Self.apply(ours, to: before) == lines, "round \(round)\n\(ours)")
        }
    }

    /// Removed and added lines, in order.
    static func changedLines(_ diff: String) -> [String] {
        diff.split(separator: "\n").filter { ($0.hasPrefix("-") || $0.hasPrefix("+")) && !$0.hasPrefix("---") && !$0.hasPrefix("+++") }.map(String.init)
    }

    /// The new text from the old and a diff: the hunks' line numbers must be right for this to work.
    static func apply(_ diff: String, to old: [String]) -> [String] {
        var result: [String] = []
        var next = 0  // index in old
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("@@") {
                // "-start,count": an empty old side names the line it comes after.
                let oldRange = line.split(separator: " ")[1].dropFirst().split(separator: ",")
                let oldStart = Int(oldRange[0]) ?? 0
                let target = oldRange.count > 1 && oldRange[1] == "0" ? oldStart : oldStart - 1
                while next < target { result.append(old[next]); next += 1 }
            } else if line.hasPrefix(" ") {
                result.append(String(line.dropFirst())); next += 1
            } else if line.hasPrefix("-"), !line.hasPrefix("---") {
                next += 1
            } else if line.hasPrefix("+"), !line.hasPrefix("+++") {
                result.append(String(line.dropFirst()))
            }
        }
        while next < old.count { result.append(old[next]); next += 1 }
        return result
    }
}

import Foundation
import HeraldCore

/// The recorded publish runs, newest first, with the files each changed.
enum HistoryPage {
    static func render(_ context: BoardContext) -> HTML {
        let runs = context.input.runs.sorted { $0.id > $1.id }
        var main: HTML = """
            <h1>Publish history</h1>
            <p class="lede">The recorded <code>herald publish</code> runs, newest first, and the files each changed (its \
            manifest against the one before it in the same folder). Runs that found nothing to change are left out: \
            <code>herald publish --history</code> lists every run, and <code>herald publish --rollback RUN --out DIR</code> puts \
            a folder back as a run left it.\(context.input.scope.map { HTML(" Only the files of tenant <strong>\($0)</strong>.") })</p>
            """
        if runs.isEmpty {
            main += "<p class=\"panel\">No publish runs recorded yet.</p>"
        }
        let items: [HTML] = runs.map { run in
            let outcome = run.outcome + (run.rollbackOf.map { " (back to run \($0))" } ?? "")
            // A tenant's board names no folder of the server and no OS user who ran Herald.
            let siteBoard = context.input.scope == nil
            let took: HTML = run.finishedAt.map { HTML(", took \(Self.duration(run.startedAt, $0))") } ?? .empty
            var facts: [HTML] = [
                siteBoard
                    ? "<dt>Started</dt><dd>\(When.text(run.startedAt))\(took) by \(run.actor)</dd>"
                    : "<dt>Started</dt><dd>\(When.text(run.startedAt))\(took)</dd>",
                siteBoard
                    ? "<dt>Folder</dt><dd><code>\(run.outDir)</code>\(run.scope.isEmpty ? HTML.empty : HTML(" · only \(run.scope)"))</dd>"
                    : .empty,
                "<dt>Site as at</dt><dd>\(When.text(run.publishAt))</dd>",
                context.input.scope == nil
                    ? "<dt>Files</dt><dd>\(run.written) written · \(run.unchanged) unchanged · \(run.removed) removed</dd>"
                    : "<dt>Files</dt><dd>\(run.written) of this board's written · \(run.removed) removed</dd>",
            ]
            // A run's note may name the server's folders: the site's board only.
            if siteBoard, let message = run.message { facts.append("<dt>Note</dt><dd>\(message)</dd>") }
            let changes: HTML
            if let list = run.changes {
                if list.isEmpty {
                    changes = "<p class=\"muted\">No file changed.</p>"
                } else {
                    let items: [HTML] = list.map { change in
                        "<li class=\"\(change.kind.rawValue)\">\(change.kind.rawValue) <code>\(change.path)</code></li>"
                    }
                    changes = """
                        <details\(list.count <= 12 ? HTML(trusted: " open") : .empty)><summary>\(list.count) file\(list.count == 1 ? "" : "s") changed</summary>\
                        <ul class="changes">\(items)</ul></details>
                        """
                }
            } else {
                changes = "<p class=\"muted\">Which files changed is not known (no manifest kept for this run).</p>"
            }
            return """
                <article class="panel run" id="run-\(run.id)" aria-labelledby="run-\(run.id)-h">
                <h3 id="run-\(run.id)-h">Run \(run.id) · \(outcome)</h3><dl class="facts">\(facts)</dl>\(changes)</article>
                """
        }
        main += "<div class=\"runs\">\(items)</div>"
        return Layout.page(title: "Publish history", root: "", breadcrumb: [("Board", "index.html"), ("Publish history", nil)], main: main)
    }

    static func duration(_ start: Date, _ end: Date) -> String {
        let seconds = max(0, end.timeIntervalSince(start))
        return seconds < 10 ? String(format: "%.2f s", seconds) : "\(Int(seconds)) s"
    }
}

extension BoardRun {
    /// The run as one tenant's board shows it: only that tenant's files; nil when it changed
    /// none of them (another tenant's work is not this board's business).
    public func scoped(to tenant: Slug) -> BoardRun? {
        let prefix = "\(tenant)/"
        var run = self
        if let changes {
            let mine = changes.filter { $0.path.hasPrefix(prefix) }
            guard !mine.isEmpty else { return nil }
            run.changes = mine
            run.written = mine.filter { $0.kind != .removed }.count
            run.removed = mine.filter { $0.kind == .removed }.count
            run.unchanged = 0  // not known per tenant; the page does not show it
        } else if !(scope.split(separator: " ").contains { $0 == tenant.rawValue || $0.hasPrefix(prefix) }) {
            return nil
        }
        return run
    }
}

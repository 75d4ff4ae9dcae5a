import Foundation
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldStore

extension PublishJob {
    /// The folder's manifest as a run checks it (refused as the run would refuse it).
    static func checkedManifest(_ folder: Folder, out: URL) throws -> SiteManifest {
        do {
            return try SiteWriter(root: folder.root).checkedManifest()
        } catch {
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
    }

    /// What a publish would change in `folder`, without writing: each file compared with what
    /// is on disk, and the files Herald published there before, in `scope`, that it would remove.
    /// A manifest (or marker) a real run would refuse is refused here too, with the same error:
    /// read as empty, it would show a plan for a fresh folder that no run would carry out.
    func preview(_ files: [SiteFile], in folder: Folder, scope: PublishScope) throws -> (SiteWriter.Outcome, [FileChange]) {
        let published = Set(files.map(\.path.description))
        let folders = folder.folders(of: scope)
        // Files the run would remove: the manifest's, within the scope, that it no longer publishes.
        let removed = try Self.checkedManifest(folder, out: out).files.keys.sorted().filter { path in
            guard !published.contains(path) else { return false }
            let segments = path.split(separator: "/").map(String.init)
            return folders.map({ $0.contains { Array(segments.prefix($0.count)) == $0 } }) ?? true
        }
        // What is there now, read as the run would read it (never through a symlink).
        let current: [String: [UInt8]]
        do {
            current = try SiteWriter(root: folder.root).currentContents(of: Array(published) + removed)
        } catch {
            throw PublishJobError.cannotWriteSite(out: out, reason: error)
        }
        var outcome = SiteWriter.Outcome()
        var changes: [FileChange] = []
        func onDisk(_ path: String) -> [UInt8]? { current[path] }
        for file in files {
            let path = file.path.description
            let before = onDisk(path)
            if before == file.bytes {
                outcome.unchanged += 1
            } else {
                outcome.written.append(path)
                changes.append(FileChange(path: folder.sitePath(path), before: before, after: file.bytes))
            }
        }
        for path in removed {
            outcome.removed.append(path)
            changes.append(FileChange(path: folder.sitePath(path), before: onDisk(path), after: nil))
        }
        return (outcome, changes)
    }
}

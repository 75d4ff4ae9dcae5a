import Foundation
import HeraldCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The site writer's filesystem layer: reads what the folder holds, and carries out a
/// `SitePlan`. Never writes outside the folder or through a symlink; a reader sees whole
/// files (temp file beside the target, then rename) and whole new folders (filled under a
/// hidden name, then renamed), and a run that dies anywhere leaves a marker the next run
/// cleans up after. The phases a test can stop a run at are `CrashPoint`'s `site.*`.
struct SiteFolder: Sendable {
    /// The folder's path, standardized: every file's path starts with it.
    let rootPath: String

    /// Present only while a run writes (or after one died doing so).
    var markerPath: String { rootPath + "/.herald-writing" }
    var manifestPath: String { rootPath + "/" + SiteManifest.fileName }

    // MARK: Reading

    /// The folder itself, made when missing.
    func createRoot() throws {
        var info = stat()
        if lstat(rootPath, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR || info.st_mode & S_IFMT == S_IFLNK else {
                throw SiteWriter.WriteError(description: "\(rootPath) is not a directory")
            }
            return
        }
        try FileManager.default.createDirectory(atPath: rootPath, withIntermediateDirectories: true)
    }

    /// The marker a run that died part-way left, if any.
    func readMarker() -> [UInt8]? { Self.readIfRegular(markerPath, expectedSize: nil) }

    /// The manifest of what is published here now (empty when there is none).
    func readManifest() -> SiteManifest {
        Self.readIfRegular(manifestPath, expectedSize: nil).flatMap(SiteManifest.parse) ?? SiteManifest()
    }

    /// Where each file goes and whether its bytes are there already, looked up on every core.
    func find(_ files: [SiteFile]) throws -> [SitePlan.Found] {
        try Self.inParallel(files) { file, checked in
            let location = try locate(file.path, checked: &checked)
            guard location.newFolder == nil, let existing = Self.readIfRegular(location.target, expectedSize: file.bytes.count) else {
                return SitePlan.Found(location: location, same: false)
            }
            return SitePlan.Found(location: location, same: existing == file.bytes)
        }
    }

    /// Every file `manifest` lists is still there (a regular file)? Checked on every core.
    func holdsEveryFile(of manifest: SiteManifest) -> Bool {
        let paths = manifest.apps.values.flatMap { $0.files.keys }
        let present = try? Self.inParallel(paths) { path, _ in
            var info = stat()
            return lstat(rootPath + "/" + path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
        return present?.allSatisfy { $0 } == true
    }

    /// The folders a thread has looked at during one `find`: each is checked once.
    struct Checked {
        var existing: Set<String> = []
        /// Tenant folders found missing.
        var missing: Set<String> = []
    }

    /// The file's location; refuses any component that is a symlink or not a directory.
    func locate(_ path: SitePath, checked: inout Checked) throws -> SitePlan.Location {
        for segment in path.segments {
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.utf8.contains(UInt8(ascii: "/")) else {
                throw SiteWriter.WriteError(description: "refusing path segment \"\(segment)\" in \(path)")
            }
        }
        var directory = rootPath
        var missingTenant: String?
        for (depth, segment) in path.segments.dropLast().enumerated() {
            directory += "/" + segment
            if checked.existing.contains(directory) { continue }
            if checked.missing.contains(directory) {
                missingTenant = directory
                continue
            }
            var info = stat()
            if lstat(directory, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK {
                    throw SiteWriter.WriteError(description: "refusing to write through the symlink \(directory)")
                }
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw SiteWriter.WriteError(description: "\(directory) is in the way: it is not a directory")
                }
            } else if depth > 0 {
                return SitePlan.Location(target: rootPath + "/" + path.description, newFolder: directory, missingTenant: missingTenant)
            } else {
                // The tenant's folder is made, not renamed into place: its apps appear one by one.
                checked.missing.insert(directory)
                missingTenant = directory
                continue
            }
            checked.existing.insert(directory)
        }
        let target = directory + "/" + (path.segments.last ?? "")
        var info = stat()
        if missingTenant == nil, lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw SiteWriter.WriteError(description: "refusing to replace the symlink \(target)")
        }
        return SitePlan.Location(target: target, newFolder: nil, missingTenant: missingTenant)
    }

    /// The file's bytes if it is a regular file (never through a symlink); nil when it is
    /// missing, something else, or not `expectedSize` long (then it differs anyway).
    static func readIfRegular(_ path: String, expectedSize: Int?) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        if let expectedSize, expectedSize != size { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(descriptor, $0 + offset, size - offset) } ?? -1
            }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    // MARK: Carrying out a plan

    /// Does what `plan` says, in an order that a crash at any point leaves readers whole files
    /// and the next run enough to finish: sweep, marker, files, removals, manifest, no marker.
    /// Returns the paths removed (those still there as regular files).
    func carryOut(_ plan: SitePlan) throws -> [String] {
        if plan.sweep { sweepTemporaryFiles() }
        try atomicWrite(plan.marker, to: markerPath)
        CrashPoint.reached(.siteMarker)
        for folder in plan.tenantFolders where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw SiteWriter.WriteError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        _ = try Self.inParallel(plan.replace) { item, _ in
            try atomicWrite(item.file.bytes, to: item.location.target, crashPoints: true)
        }
        _ = try Self.inParallel(plan.newFolders) { folder, _ in try Self.create(folder) }
        CrashPoint.reached(.siteRemovals)
        var removed: [String] = []
        for path in plan.remove {
            let target = rootPath + "/" + path
            var info = stat()
            guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            try FileManager.default.removeItem(atPath: target)
            removed.append(path)
            removeEmptyDirectories(from: String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)]))
        }
        CrashPoint.reached(.siteManifest)
        try atomicWrite(plan.manifest.serialized(), to: manifestPath)
        CrashPoint.reached(.siteMarkerRemoval)
        unlink(markerPath)
        return removed
    }

    /// A new folder with its files: made under a hidden name beside it
    /// (`.<name>.herald-<pid>`, swept if a run dies), files written straight in, then renamed
    /// into place, so no reader ever sees it partly filled.
    private static func create(_ new: SitePlan.NewFolder) throws {
        let folder = new.folder
        let slash = folder.lastIndex(of: "/") ?? folder.startIndex
        let staging = String(folder[..<slash]) + "/." + folder[folder.index(after: slash)...] + ".herald-\(getpid())"
        if mkdir(staging, 0o755) != 0 {
            throw SiteWriter.WriteError(description: "cannot create \(staging): \(String(cString: strerror(errno)))")
        }
        var made: Set<String> = [staging]
        for item in new.files {
            let target = item.location.target
            let inside = staging + target.dropFirst(folder.count)
            var directory = staging
            for segment in target.dropFirst(folder.count + 1).split(separator: "/").dropLast() {
                directory += "/" + segment
                if made.insert(directory).inserted, mkdir(directory, 0o755) != 0 {
                    throw SiteWriter.WriteError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
                }
            }
            let descriptor = open(inside, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SiteWriter.WriteError(description: "cannot write \(inside): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            try writeAll(item.file.bytes, to: descriptor, path: inside)
            CrashPoint.reached(.siteFolderFile)
        }
        CrashPoint.reached(.siteFolder)
        guard rename(staging, folder) == 0 else {
            throw SiteWriter.WriteError(description: "cannot move \(staging) to \(folder): \(String(cString: strerror(errno)))")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
            }
            guard wrote > 0 else { throw SiteWriter.WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += wrote
        }
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem. `crashPoints`:
    /// a published file (not the marker or the manifest), where a test may stop the run.
    private func atomicWrite(_ bytes: [UInt8], to target: String, crashPoints: Bool = false) throws {
        let slash = target.lastIndex(of: "/") ?? target.startIndex
        let temporary = String(target[..<slash]) + "/." + target[target.index(after: slash)...] + ".herald-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SiteWriter.WriteError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        do {
            defer { close(descriptor) }
            try Self.writeAll(bytes, to: descriptor, path: target)
        } catch {
            unlink(temporary)
            throw error
        }
        if crashPoints { CrashPoint.reached(.siteTempFile) }
        if rename(temporary, target) != 0 {
            let failure = String(cString: strerror(errno))
            unlink(temporary)
            throw SiteWriter.WriteError(description: "cannot write \(target): \(failure)")
        }
        if crashPoints { CrashPoint.reached(.siteFile) }
    }

    /// Temp files a killed run left behind (`.<name>.herald-<pid>`); only looked for after such a run.
    private func sweepTemporaryFiles() {
        guard let enumerator = FileManager.default.enumerator(atPath: rootPath) else { return }
        for case let relative as String in enumerator {
            let name = (relative as NSString).lastPathComponent
            guard name.hasPrefix("."), let marker = name.range(of: ".herald-", options: .backwards),
                name[marker.upperBound...].allSatisfy(\.isNumber), !name[marker.upperBound...].isEmpty
            else { continue }
            try? FileManager.default.removeItem(atPath: rootPath + "/" + relative)
            enumerator.skipDescendants()  // a new folder's hidden copy goes whole
        }
    }

    /// `directory` and the folders above it, up to the root, as long as they are empty.
    private func removeEmptyDirectories(from directory: String) {
        var current = directory
        while current.count > rootPath.count, current.hasPrefix(rootPath + "/") {
            guard let contents = try? FileManager.default.contentsOfDirectory(atPath: current), contents.isEmpty else { return }
            try? FileManager.default.removeItem(atPath: current)
            current = String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)])
        }
    }

    // MARK: Parallel work

    /// `body` over `items` on every core, in contiguous runs (neighbouring files share
    /// folders), results in the order of `items`; the first error, in that order, is thrown.
    /// Creating and renaming files is mostly kernel work, which spreads well across cores.
    /// `body`'s second argument is private to its thread (folders it has checked).
    static func inParallel<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ body: @Sendable (Item, inout Checked) throws -> Result
    ) throws -> [Result] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, items.count / 64))
        let slots = ConcurrentSlots<Swift.Result<[Result], any Error>>(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (items.count * worker / workers)..<(items.count * (worker + 1) / workers)
            var checked = Checked()
            var results: [Result] = []
            results.reserveCapacity(range.count)
            do {
                for index in range { results.append(try body(items[index], &checked)) }
                slots[worker] = .success(results)
            } catch {
                slots[worker] = .failure(error)
            }
        }
        var all: [Result] = []
        all.reserveCapacity(items.count)
        for slot in slots.values { all += try slot.get() }
        return all
    }
}

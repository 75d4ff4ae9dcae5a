import Foundation
import HeraldCore
import Synchronization

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

    /// The marker a run that died part-way left, if any (unchecked: for "is there one?").
    func readMarker() -> [UInt8]? { Self.readIfRegular(markerPath, expectedSize: nil) }

    /// The manifest of what is published here now (empty when there is none or it is refused).
    func readManifest() -> SiteManifest {
        (try? loadManifest()) ?? SiteManifest()
    }

    /// The manifest, checked before anything is removed on its word: empty when there is
    /// none; refused (thrown) when it is not a regular file (a symlink) or names any path
    /// Herald could not have written.
    func loadManifest() throws -> SiteManifest {
        guard let bytes = try Self.readOwnFile(manifestPath) else { return SiteManifest() }
        switch SiteManifest.decode(bytes) {
        case .success(let manifest): return manifest
        case .failure(let refusal):
            throw SiteWriter.WriteError(
                description: "refusing \(manifestPath): \(refusal); Herald removes files on its manifest's word, so it will not "
                    + "publish into this folder until the manifest is fixed or removed (then files it listed are no longer removed for you)")
        }
    }

    /// The marker a dead run left, checked as the manifest is: every line a path Herald could have written.
    func loadMarker() throws -> [UInt8]? {
        guard let bytes = try Self.readOwnFile(markerPath) else { return nil }
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !SitePath.isSafeRelative(line) {
            throw SiteWriter.WriteError(
                description: "refusing \(markerPath): line \(number + 1) names a path Herald could not have written; "
                    + "remove the marker to publish into this folder")
        }
        return bytes
    }

    /// One of Herald's own files at the root (manifest, marker): nil when missing; refused
    /// when it is anything but a regular file (a symlink is never followed, nor replaced silently).
    private static func readOwnFile(_ path: String) throws -> [UInt8]? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw SiteWriter.WriteError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG, let bytes = readIfRegular(path, expectedSize: nil) else {
            throw SiteWriter.WriteError(description: "refusing \(path): it is not a regular file (a symlink?); remove it to publish into this folder")
        }
        return bytes
    }

    /// The temp files a run killed while writing the marker or the manifest leaves at the
    /// root (`..herald-writing.herald-<pid>`, `..herald-manifest.herald-<pid>`): removed at
    /// every run, as the marker may not exist to say a run died. One readdir of the root.
    func sweepRootTemporaries() {
        guard let directory = opendir(rootPath) else { return }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            for own in [".herald-writing", SiteManifest.fileName] where name.hasPrefix("." + own + ".herald-") {
                let pid = name.dropFirst(own.count + 9)
                if !pid.isEmpty, pid.allSatisfy(\.isASCII), pid.allSatisfy(\.isNumber) { names.append(name) }
            }
        }
        for name in names { unlinkat(descriptor, name, 0) }  // a file or a symlink, never what a symlink names
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

    /// Does what `plan` says, in an order that a crash (or a failed write: a full disk) at any
    /// point leaves readers whole files, never a file naming one that is not there, and the
    /// next run enough to finish: sweep, marker, the files others name (views, stories) and
    /// new folders, then the files naming them (control.json, notifications.plist), then
    /// removals (files no longer named by anything), manifest, no marker. Returns the paths
    /// removed (those still there as regular files).
    func carryOut(_ plan: SitePlan) throws -> [String] {
        if plan.sweep { sweepTemporaryFiles() }
        try atomicWrite(plan.marker, to: markerPath, crashPoint: .siteMarkerTemp)
        CrashPoint.reached(.siteMarker)
        for folder in plan.tenantFolders where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw SiteWriter.WriteError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        // A new folder appears whole, whatever it holds: nothing published names a folder.
        _ = try Self.inParallel(plan.replace.filter { !$0.file.path.namesOtherFiles }) { item, _ in
            try atomicWrite(item.file.bytes, to: item.location.target, crashPoint: .siteTempFile)
        }
        _ = try Self.inParallel(plan.newFolders) { folder, _ in try Self.create(folder) }
        CrashPoint.reached(.siteNamingFiles)
        _ = try Self.inParallel(plan.replace.filter { $0.file.path.namesOtherFiles }) { item, _ in
            try atomicWrite(item.file.bytes, to: item.location.target, crashPoint: .siteTempFile)
        }
        CrashPoint.reached(.siteRemovals)
        let removed = try remove(plan.remove)
        CrashPoint.reached(.siteManifest)
        try atomicWrite(plan.manifest.serialized(), to: manifestPath)
        CrashPoint.reached(.siteMarkerRemoval)
        unlink(markerPath)
        return removed
    }

    /// Every folder of `paths` (relative, sorted) can be walked without meeting a symlink or
    /// something else than a folder: checked before a run changes anything, so a planted
    /// symlink refuses the run rather than stopping it half-way.
    func checkRemovals(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        let chain = try DirectoryChain(rootPath: rootPath)
        defer { chain.closeAll() }
        for path in paths {
            let segments = try Self.segments(of: path)
            _ = try chain.folder(segments.dropLast(), removingEmpty: false)
        }
    }

    /// Removes each of `paths` (relative, sorted) that is a regular file, walking down from
    /// the root one folder at a time with `openat(O_NOFOLLOW)` (never through a symlink, even
    /// one planted after the check), then the folders left empty (`unlinkat(AT_REMOVEDIR)`,
    /// which removes only empty folders). Returns the paths removed.
    private func remove(_ paths: [String]) throws -> [String] {
        guard !paths.isEmpty else { return [] }
        let chain = try DirectoryChain(rootPath: rootPath)
        defer { chain.closeAll() }
        var removed: [String] = []
        for path in paths {
            let segments = try Self.segments(of: path)
            guard let name = segments.last, let folder = try chain.folder(segments.dropLast(), removingEmpty: true) else { continue }
            var info = stat()
            guard fstatat(folder, String(name), &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            guard unlinkat(folder, String(name), 0) == 0 else {
                throw SiteWriter.WriteError(description: "cannot remove \(rootPath)/\(path): \(String(cString: strerror(errno)))")
            }
            chain.touch()
            removed.append(path)
        }
        chain.leave(downTo: 0, removingEmpty: true)
        return removed
    }

    /// A path's segments, refused unless Herald could have written it (relative, no `..`).
    private static func segments(of path: String) throws -> [Substring] {
        guard SitePath.isSafeRelative(path.utf8) else {
            throw SiteWriter.WriteError(description: "refusing to remove \"\(path)\": not a path Herald could have written")
        }
        return path.split(separator: "/")
    }

    /// The folders down to one below the root, each opened from its parent's descriptor
    /// without following a symlink; kept open while the next (sorted) path shares them.
    private final class DirectoryChain {
        let rootPath: String
        let root: Int32
        private var names: [Substring] = []
        private var descriptors: [Int32] = []
        /// Something was removed from the folder (so it may be empty now).
        private var touched: [Bool] = []

        init(rootPath: String) throws {
            self.rootPath = rootPath
            root = systemOpen(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard root >= 0 else { throw SiteWriter.WriteError(description: "cannot open \(rootPath): \(String(cString: strerror(errno)))") }
        }

        /// The folder `segments` below the root; nil when it does not exist; refused when one
        /// of them is a symlink or not a folder.
        func folder(_ segments: ArraySlice<Substring>, removingEmpty: Bool) throws -> Int32? {
            var common = 0
            while common < names.count, common < segments.count, names[common] == segments[segments.startIndex + common] { common += 1 }
            leave(downTo: common, removingEmpty: removingEmpty)
            for segment in segments.dropFirst(common) {
                let descriptor = openat(descriptors.last ?? root, String(segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard descriptor >= 0 else {
                    let failure = errno
                    let folder = rootPath + "/" + (names + [segment]).joined(separator: "/")
                    if failure == ENOENT { return nil }
                    if failure == ELOOP || failure == ENOTDIR {
                        throw SiteWriter.WriteError(description: "refusing to remove files under \(folder): it is a symlink or not a folder")
                    }
                    throw SiteWriter.WriteError(description: "cannot open \(folder): \(String(cString: strerror(failure)))")
                }
                names.append(segment)
                descriptors.append(descriptor)
                touched.append(false)
            }
            return descriptors.last ?? root
        }

        /// The innermost open folder lost a file.
        func touch() {
            if !touched.isEmpty { touched[touched.count - 1] = true }
        }

        /// Closes folders down to `count` open; those left empty by removals go too (not the root).
        func leave(downTo count: Int, removingEmpty: Bool) {
            var removing = removingEmpty
            while descriptors.count > count, let descriptor = descriptors.popLast(), let name = names.popLast(), let wasTouched = touched.popLast() {
                systemClose(descriptor)
                if removing, wasTouched, unlinkat(descriptors.last ?? root, String(name), AT_REMOVEDIR) == 0 {
                    touch()
                } else {
                    removing = false
                }
            }
        }

        func closeAll() {
            leave(downTo: 0, removingEmpty: false)
            systemClose(root)
        }
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
        if WriteFault.diskIsFull() {
            throw SiteWriter.WriteError(description: "cannot write \(path): \(String(cString: strerror(ENOSPC))) (\(WriteFault.variable))")
        }
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
            }
            guard wrote > 0 else { throw SiteWriter.WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += wrote
        }
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem. `crashPoint`:
    /// where a test may stop the run with the temp file written (a published file, the
    /// marker); a published file also has `site.file` once renamed.
    private func atomicWrite(_ bytes: [UInt8], to target: String, crashPoint: CrashPoint.Phase? = nil) throws {
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
        if let crashPoint { CrashPoint.reached(crashPoint) }
        if rename(temporary, target) != 0 {
            let failure = String(cString: strerror(errno))
            unlink(temporary)
            throw SiteWriter.WriteError(description: "cannot write \(target): \(failure)")
        }
        if crashPoint == .siteTempFile { CrashPoint.reached(.siteFile) }
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

/// A test hook simulating a full disk: with `HERALD_TEST_DISK_FULL_AFTER=N`, the first N
/// file writes of the process (marker, published files, manifest: every `writeAll`) succeed
/// and every one after fails with ENOSPC, as on a disk that filled up and stays full. A test
/// runs the real binary this way (no tmpfs or loop mount needs root) and checks what the
/// failed run left. Without the variable, it costs a load and a compare.
enum WriteFault {
    static let variable = "HERALD_TEST_DISK_FULL_AFTER"

    private static let allowed: Int? = getenv(variable).flatMap { Int(String(cString: $0)) }
    private static let writes = Atomic<Int>(0)

    static func diskIsFull() -> Bool {
        guard let allowed else { return false }
        return writes.wrappingAdd(1, ordering: .relaxed).newValue > allowed
    }
}

private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemClose(_ descriptor: Int32) { close(descriptor) }

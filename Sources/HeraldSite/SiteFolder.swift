import Foundation
import HeraldCore
import HeraldPublish
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
/// cleans up after. The phases a test can stop a run at are `SiteCrashPoint`'s.
struct SiteFolder: Sendable {
    /// The folder's path, standardized: every file's path starts with it.
    let rootPath: String

    /// Present only while a run writes (or after one died doing so).
    var markerPath: String { rootPath + "/.herald-writing" }
    var manifestPath: String { rootPath + "/" + SiteManifest.fileName }
    var sealPath: String { rootPath + "/" + FolderSeal.fileName }

    // MARK: Reading

    /// The folder itself, made when missing.
    func createRoot() throws {
        var info = stat()
        if lstat(rootPath, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR || info.st_mode & S_IFMT == S_IFLNK else {
                throw SiteWriter.WriteError.refusal("\(rootPath) is not a directory")
            }
            return
        }
        // A folder Herald makes is world-enterable whatever the umask, as everything it publishes.
        try FileManager.default.createDirectory(
            atPath: rootPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = chmod(rootPath, 0o755)
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
    /// `deferringGroups`: each app's files read when first asked for (a manifest the folder's
    /// seal vouches for: `SiteManifest.decodeDeferringGroups`).
    func loadManifest(deferringGroups: Bool = false) throws -> SiteManifest {
        guard let bytes = try Self.readOwnFile(manifestPath) else { return SiteManifest() }
        switch deferringGroups ? SiteManifest.decodeDeferringGroups(bytes) : SiteManifest.decode(bytes) {
        case .success(let manifest): return manifest
        case .failure(let refusal):
            throw SiteWriter.WriteError.refusal(
                "refusing \(manifestPath): \(refusal); Herald removes files on its manifest's word, so it will not "
                    + "publish into this folder until the manifest is fixed or removed (then files it listed are no longer removed for you)")
        }
    }

    /// The marker a dead run left, checked as the manifest is: every line a path Herald could have written.
    func loadMarker() throws -> [UInt8]? {
        guard let bytes = try Self.readOwnFile(markerPath) else { return nil }
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !SitePath.isSafeRelative(line) {
            throw SiteWriter.WriteError.refusal(
                "refusing \(markerPath): line \(number + 1) names a path Herald could not have written; "
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
            throw SiteWriter.WriteError.refusal("refusing \(path): it is not a regular file (a symlink?); remove it to publish into this folder")
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
            for own in [".herald-writing", SiteManifest.fileName, FolderSeal.fileName] where name.hasPrefix("." + own + ".herald-") {
                let pid = name.dropFirst(own.count + 9)
                if !pid.isEmpty, pid.allSatisfy(\.isASCII), pid.allSatisfy(\.isNumber) { names.append(name) }
            }
        }
        for name in names { unlinkat(descriptor, name, 0) }  // a file or a symlink, never what a symlink names
    }

    /// The root folder, opened once per pass (DIR itself may be a symlink: resolved here, once).
    func openRoot() throws -> Int32 {
        let root = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw SiteWriter.WriteError(description: "cannot open \(rootPath): \(String(cString: strerror(errno)))") }
        return root
    }

    /// Where each file goes and whether its bytes are there already, looked up on every core.
    func find(_ files: [SiteFile]) throws -> [SitePlan.Found] {
        let root = try openRoot()
        defer { close(root) }
        return try Self.inParallel(
            files, state: { (SiteDirectories(root: root, rootPath: rootPath, remembersMissing: true), ReadBuffer()) }
        ) { file, state in
            try locate(file, in: state.0, buffer: state.1)
        }
    }

    /// Every file `manifest` lists is still there (a regular file)? Checked on every core. A
    /// check only (nothing is written on its word): by path, which the kernel walks fastest.
    func holdsEveryFile(of manifest: SiteManifest) -> Bool {
        let paths = manifest.apps.values.flatMap { $0.files.keys }
        let present = try? Self.inParallel(paths, state: {}) { path, _ in
            var info = stat()
            return lstat(rootPath + "/" + path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
        return present?.allSatisfy { $0 } == true
    }

    /// The file's location, and whether its bytes are there (read into `buffer`, reused from
    /// file to file); refuses any folder on its way that is a symlink or not a folder, and a
    /// symlink in the file's own place.
    func locate(_ file: SiteFile, in directories: SiteDirectories, buffer: ReadBuffer) throws -> SitePlan.Found {
        let path = file.path
        for segment in path.segments {
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.utf8.contains(UInt8(ascii: "/")) else {
                throw SiteWriter.WriteError.refusal("refusing path segment \"\(segment)\" in \(path)")
            }
        }
        let folders = path.segments.dropLast()
        switch try directories.folder(Self.folder(of: path.description[...])) {
        case .missing(let depth):
            // Below an existing tenant folder, a new folder (an app, a locale, a stories folder)
            // appears whole; a missing tenant's folder is made, not renamed into place, and its
            // apps appear one by one. One new folder's files follow one another: its names are
            // made once and shared.
            let segments = depth > 0 ? depth + 1 : folders.count > 1 ? 2 : 1
            let relative = Self.prefix(path.description[...], segments: segments)
            if let memo = directories.newFolderMemo, memo.depth == depth, memo.relative == relative {
                return SitePlan.Found(
                    location: SitePlan.Location(newFolder: memo.folder, missingTenant: memo.tenant), same: false)
            }
            let folder = depth > 0 || folders.count > 1 ? rootPath + "/" + relative : nil
            let tenant = depth == 0 ? rootPath + "/" + (path.segments.first ?? "") : nil
            directories.newFolderMemo = (relative, depth, folder, tenant)
            return SitePlan.Found(location: SitePlan.Location(newFolder: folder, missingTenant: tenant), same: false)
        case .found(let folder):
            let location = SitePlan.Location(newFolder: nil, missingTenant: nil)
            let descriptor = openat(folder, path.segments.last ?? "", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                if errno == ELOOP { throw SiteWriter.WriteError.refusal("refusing to replace the symlink \(rootPath)/\(path)") }
                return SitePlan.Found(location: location, same: false)
            }
            defer { close(descriptor) }
            return SitePlan.Found(location: location, same: buffer.holds(descriptor, exactly: file.bytes))
        }
    }

    /// What the folder holds at each of `paths` (relative; those that are regular files),
    /// read as a run looks: by folder descriptor, never through a symlink. A symlink where a
    /// folder or file of the site goes refuses, with the message a run gives.
    func contents(of paths: [String]) throws -> [String: [UInt8]] {
        var info = stat()
        if stat(rootPath, &info) != 0 && errno == ENOENT { return [:] }  // a first run's folder
        let root = try openRoot()
        defer { close(root) }
        let directories = SiteDirectories(root: root, rootPath: rootPath, remembersMissing: true)
        var found: [String: [UInt8]] = [:]
        for path in paths {
            guard case .found(let folder) = try directories.folder(Self.folder(of: path[...])) else { continue }
            let name = String(path.split(separator: "/").last ?? "")
            let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                if errno == ELOOP { throw SiteWriter.WriteError.refusal("refusing to replace the symlink \(rootPath)/\(path)") }
                continue
            }
            defer { close(descriptor) }
            found[path] = Self.contents(of: descriptor, expectedSize: nil)
        }
        return found
    }

    /// The file's bytes if it is a regular file (never through a symlink); nil when it is
    /// missing, something else, or not `expectedSize` long (then it differs anyway).
    static func readIfRegular(_ path: String, expectedSize: Int?) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return contents(of: descriptor, expectedSize: expectedSize)
    }

    /// What an open file holds, if it is a regular file (`expectedSize` long, when given).
    static func contents(of descriptor: Int32, expectedSize: Int?) -> [UInt8]? {
        guard let size = ReadBuffer.regularFileSize(descriptor) else { return nil }
        if let expectedSize, expectedSize != size { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            complete = size == 0 || buffer.baseAddress.map { ReadBuffer.readFully(descriptor, into: $0, count: size) } == true
            initialized = complete ? size : 0
        }
        return complete ? bytes : nil
    }

    /// Writes `seal` beside the manifest (temp file, then rename); a failure is not reported:
    /// without a seal, the next run checks every file.
    func writeSeal(_ seal: FolderSeal) {
        writeSeal(bytes: seal.serialized)
    }

    /// A seal's file as `FolderSeal.patched` made it.
    func writeSeal(bytes: [UInt8]) {
        guard let root = try? openRoot() else { return }
        defer { close(root) }
        if (try? Self.atomicWrite(bytes, in: root, name: FolderSeal.fileName, shown: sealPath)) == nil {
            removeSeal()
        }
    }

    /// No seal: the next run checks every file.
    func removeSeal() {
        unlink(sealPath)
    }

    // MARK: Carrying out a plan

    /// Does what `plan` says, in an order that a crash (or a failed write: a full disk) at any
    /// point leaves readers whole files, never a file naming one that is not there, and the
    /// next run enough to finish: sweep, marker, the files others name (views, stories) and
    /// new folders, then the files naming them (control.json, notifications.plist), then
    /// removals (files no longer named by anything), manifest, no marker. Returns the paths
    /// removed (those still there as regular files).
    /// `manifest`: the bytes of `plan.manifest`, written last.
    func carryOut(_ plan: SitePlan, manifest: [UInt8]) throws -> [String] {
        // Everything below is done through descriptors opened from this one: nothing is
        // created, written, renamed or removed by a path, so no symlink below the root is followed.
        let root = try openRoot()
        defer { close(root) }
        if plan.sweep { Self.sweepTemporaryFiles(in: root) }
        let directories: @Sendable () -> SiteDirectories = { SiteDirectories(root: root, rootPath: rootPath) }
        try Self.atomicWrite(plan.marker, in: root, name: ".herald-writing", shown: markerPath, crashPoint: .markerTemp)
        CrashPoint.reached(SiteCrashPoint.marker)
        for folder in plan.tenantFolders {
            let name = String(folder.dropFirst(rootPath.count + 1))
            if mkdirat(root, name, 0o755) == 0 {
                let made = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if made >= 0 {
                    Self.publishable(made, folder: true)
                    close(made)
                }
            } else if errno != EEXIST {
                throw SiteWriter.WriteError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        }
        // A new folder appears whole, whatever it holds: nothing published names a folder.
        _ = try Self.inParallel(plan.replace.filter { !$0.file.path.namesOtherFiles }, state: directories) { item, directories in
            try Self.replace(item, in: directories)
        }
        _ = try Self.inParallel(plan.newFolders, state: directories) { folder, directories in
            try Self.create(folder, in: directories)
        }
        CrashPoint.reached(SiteCrashPoint.namingFiles)
        _ = try Self.inParallel(plan.replace.filter { $0.file.path.namesOtherFiles }, state: directories) { item, directories in
            try Self.replace(item, in: directories)
        }
        CrashPoint.reached(SiteCrashPoint.removals)
        let removed = try remove(plan.remove, root: root)
        CrashPoint.reached(SiteCrashPoint.manifest)
        try Self.atomicWrite(manifest, in: root, name: SiteManifest.fileName, shown: manifestPath)
        CrashPoint.reached(SiteCrashPoint.markerRemoval)
        unlinkat(root, ".herald-writing", 0)
        return removed
    }

    /// Every folder of `paths` (relative, sorted) can be walked without meeting a symlink or
    /// something else than a folder: checked before a run changes anything, so a planted
    /// symlink refuses the run rather than stopping it half-way.
    func checkRemovals(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        let root = try openRoot()
        defer { close(root) }
        let chain = DirectoryChain(root: root, rootPath: rootPath)
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
    private func remove(_ paths: [String], root: Int32) throws -> [String] {
        guard !paths.isEmpty else { return [] }
        let chain = DirectoryChain(root: root, rootPath: rootPath)
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
            throw SiteWriter.WriteError.refusal("refusing to remove \"\(path)\": not a path Herald could have written")
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

        /// `root`: the root's descriptor, the caller's to close.
        init(root: Int32, rootPath: String) {
            self.rootPath = rootPath
            self.root = root
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
                        throw SiteWriter.WriteError.refusal("refusing to remove files under \(folder): it is a symlink or not a folder")
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
        }
    }

    /// A changed file in a folder that exists: written beside its target, renamed over it.
    private static func replace(_ item: SitePlan.Write, in directories: SiteDirectories) throws {
        let (parent, name) = split(item.file.path.description[...])
        let folder = try directories.existing(parent)
        try atomicWrite(
            item.file.bytes, in: folder, name: name, shown: directories.rootPath + "/" + item.file.path.description,
            crashPoint: .tempFile)
    }

    /// `a/b/c` as its folder `a/b` and its name `c` (looked for byte by byte: by characters,
    /// every file paid for grapheme breaking).
    static func split(_ path: Substring) -> (folder: Substring, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", String(path)) }
        return (path[..<slash], String(path[path.utf8.index(after: slash)...]))
    }

    /// The first `segments` segments of `a/b/c` (`a/b` for 2), or all of it.
    static func prefix(_ path: Substring, segments: Int) -> Substring {
        var seen = 0
        for index in path.utf8.indices where path.utf8[index] == UInt8(ascii: "/") {
            seen += 1
            if seen == segments { return path[..<index] }
        }
        return path
    }

    /// `a/b/c`'s folder `a/b`.
    static func folder(of path: Substring) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return path[..<slash]
    }

    /// A new folder with its files: made under a hidden name beside it
    /// (`.<name>.herald-<pid>`, swept if a run dies), files written straight in, then renamed
    /// into place, so no reader ever sees it partly filled.
    private static func create(_ new: SitePlan.NewFolder, in directories: SiteDirectories) throws {
        // The new folder's segments: those of its files' paths, down to its own depth.
        let depth = new.folder.split(separator: "/").count - directories.rootPath.split(separator: "/").count
        guard depth > 0, let first = new.files.first else { return }
        let segments = first.file.path.segments.prefix(depth)
        let name = segments.last ?? ""
        let parent = try directories.existing(segments.dropLast().joined(separator: "/")[...])
        let staging = "." + name + ".herald-\(getpid())"
        let shown = String(new.folder.dropLast(name.utf8.count)) + staging
        guard mkdirat(parent, staging, 0o755) == 0 else {
            throw SiteWriter.WriteError(description: "cannot create \(shown): \(String(cString: strerror(errno)))")
        }
        var made: [String: Int32] = [:]
        defer { for descriptor in made.values { close(descriptor) } }
        let top = try openFolder(staging, in: parent, shown: shown)
        Self.publishable(top, folder: true)
        made[""] = top
        for item in new.files {
            var folder = top
            var key = ""
            let inside = item.file.path.segments.dropFirst(depth)
            for segment in inside.dropLast() {
                key += "/" + segment
                if let known = made[key] {
                    folder = known
                    continue
                }
                guard mkdirat(folder, segment, 0o755) == 0 else {
                    throw SiteWriter.WriteError(description: "cannot create \(shown + key): \(String(cString: strerror(errno)))")
                }
                folder = try openFolder(segment, in: folder, shown: shown + key)
                Self.publishable(folder, folder: true)
                made[key] = folder
            }
            func file() -> String { shown + "/" + inside.joined(separator: "/") }  // for an error only
            let descriptor = openat(folder, inside.last ?? "", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SiteWriter.WriteError(description: "cannot write \(file()): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            Self.publishable(descriptor, folder: false)
            try writeAll(item.file.bytes, to: descriptor, path: file())
            CrashPoint.reached(SiteCrashPoint.folderFile)
        }
        CrashPoint.reached(SiteCrashPoint.folder)
        guard renameat(parent, staging, parent, name) == 0 else {
            throw SiteWriter.WriteError(description: "cannot move \(shown) to \(new.folder): \(String(cString: strerror(errno)))")
        }
    }

    /// A folder this run just made, opened without following a symlink (one swapped in refuses the run).
    private static func openFolder(_ name: String, in parent: Int32, shown: String) throws -> Int32 {
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw SiteDirectories.refusal(shown, errno) }
        return descriptor
    }

    /// `path`: how errors name the file (made only for one: a cold publish writes tens of thousands).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: @autoclosure () -> String) throws {
        if WriteFault.diskIsFull() {
            throw SiteWriter.WriteError(description: "cannot write \(path()): \(String(cString: strerror(ENOSPC))) (\(WriteFault.variable))")
        }
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
            }
            guard wrote > 0 else { throw SiteWriter.WriteError(description: "cannot write \(path()): \(String(cString: strerror(errno)))") }
            offset += wrote
        }
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem. Both in
    /// `folder` (a descriptor), so neither goes through a symlink. `crashPoint`: where a test
    /// may stop the run with the temp file written (a published file, the marker); a
    /// published file also has `site.file` once renamed.
    private static func atomicWrite(
        _ bytes: [UInt8], in folder: Int32, name: String, shown target: String, crashPoint: SiteCrashPoint? = nil
    ) throws {
        let temporary = "." + name + ".herald-\(getpid())"
        let descriptor = try createExclusive(temporary, in: folder, shown: target)
        do {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: target)
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
        if let crashPoint { CrashPoint.reached(crashPoint) }
        if renameat(folder, temporary, folder, name) != 0 {
            let failure = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            throw SiteWriter.WriteError(description: "cannot write \(target): \(failure)")
        }
        if crashPoint == .tempFile { CrashPoint.reached(SiteCrashPoint.file) }
    }

    /// A new file `name` in `folder`, never opened through a symlink (`O_EXCL | O_NOFOLLOW`);
    /// whatever holds the name already (a dead run's temp file, a planted symlink) is
    /// unlinked first — `unlinkat` removes a symlink itself, never what it names, and no folder.
    private static func createExclusive(_ name: String, in folder: Int32, shown: String) throws -> Int32 {
        var descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EEXIST, unlinkat(folder, name, 0) == 0 {
            descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else {
            throw SiteWriter.WriteError(description: "cannot write \(shown): \(String(cString: strerror(errno)))")
        }
        publishable(descriptor, folder: false)
        return descriptor
    }

    /// A published file is world-readable (0644) and a folder world-enterable (0755) whatever
    /// the caller's umask: a static host (nginx as its own user) serves exactly what changed,
    /// never 403 for a file written under `umask 077`.
    private static func publishable(_ descriptor: Int32, folder: Bool) {
        _ = fchmod(descriptor, folder ? 0o755 : 0o644)
    }

    /// Temp files and hidden new folders a killed run left behind (`.<name>.herald-<pid>`),
    /// in `folder` and the folders below it; only looked for after such a run. Walked by
    /// descriptor, never into a symlink; a hidden folder goes whole.
    private static func sweepTemporaryFiles(in folder: Int32) {
        for (name, isFolder) in entries(of: folder) {
            if isTemporary(name) {
                removeWhole(name, in: folder)
            } else if isFolder {
                let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard inner >= 0 else { continue }
                sweepTemporaryFiles(in: inner)
                close(inner)
            }
        }
    }

    /// `.<name>.herald-<digits>`: a name only a run of Herald's gives.
    private static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: ".herald-", options: .backwards) else { return false }
        let pid = name[marker.upperBound...]
        return !pid.isEmpty && pid.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Removes `name` from `folder`: a file or a symlink (itself, never what it names), or a folder and all it holds.
    private static func removeWhole(_ name: String, in folder: Int32) {
        if unlinkat(folder, name, 0) == 0 { return }
        let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard inner >= 0 else { return }
        for (entry, _) in entries(of: inner) { removeWhole(entry, in: inner) }
        close(inner)
        unlinkat(folder, name, AT_REMOVEDIR)
    }

    /// The names in `folder` (not `.` and `..`), each with whether it is a folder (not a symlink to one).
    private static func entries(of folder: Int32) -> [(name: String, isFolder: Bool)] {
        let own = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)  // readdir's own position
        guard own >= 0, let directory = fdopendir(own) else {
            if own >= 0 { close(own) }
            return []
        }
        defer { closedir(directory) }
        var found: [(name: String, isFolder: Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isFolder = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            found.append((name, isFolder))
        }
        return found
    }

    // MARK: Parallel work

    /// `body` over `items` on every core, in contiguous runs (neighbouring files share
    /// folders), results in the order of `items`; the first error, in that order, is thrown,
    /// and no run is started after one. Creating and renaming files is mostly kernel work,
    /// which spreads well across cores. Runs are handed out as workers get free, not split up
    /// front: a worker slowed by another thread (the run history's storing, the server) would
    /// otherwise leave the others idle at the end. `body`'s second argument is private to its
    /// thread (`state` makes one per thread: the folders it has opened).
    static func inParallel<Item: Sendable, State, Result: Sendable>(
        _ items: [Item], state: @Sendable () -> State, _ body: @Sendable (Item, inout State) throws -> Result
    ) throws -> [Result] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, items.count / 64))
        let runs = workers == 1 ? 1 : min(workers * 8, max(workers, items.count / 64))
        let slots = ConcurrentSlots<Swift.Result<[Result], any Error>>(count: runs)
        let next = Atomic(0)
        let failed = Atomic(false)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var local = state()
            while !failed.load(ordering: .relaxed) {
                let run = next.add(1, ordering: .relaxed).oldValue
                guard run < runs else { break }
                let range = (items.count * run / runs)..<(items.count * (run + 1) / runs)
                var results: [Result] = []
                results.reserveCapacity(range.count)
                do {
                    for index in range { results.append(try body(items[index], &local)) }
                    slots[run] = .success(results)
                } catch {
                    slots[run] = .failure(error)
                    failed.store(true, ordering: .relaxed)
                }
            }
        }
        // Runs are started in order, so every run before the first failed one has finished.
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

private func systemClose(_ descriptor: Int32) { close(descriptor) }

import HeraldPublish

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run leaves beside the manifest (`.herald-seal`) so that the next run can trust the
/// folder without looking at each file: every folder that holds a file the manifest lists,
/// with its device, inode and status-change time (ctime), stamped once every file the
/// manifest lists in it was known to be there; and the manifest file it goes with.
///
/// Removing, renaming or replacing an entry of a folder (a file deleted, a symlink or a FIFO
/// put where a file was, a folder replaced by another) changes that folder's ctime, which no
/// one can set back (unlike the mtime), or its inode. So when every sealed folder still has its
/// stamp, every listed file is still there, as `holdsEveryFile` would find by looking at each:
/// one `fstatat` per folder (7,000 for a 1,000-app site) instead of one per file (36,000).
///
/// Not detected, as before: a file's bytes changed in place (a folder's ctime changes only
/// with its entries; the run compares bytes only of the files it writes, and `--full` compares
/// all). Not detected, unlike before: a change made by someone who also sets the system clock
/// back to a sealed ctime, or who rewrites `.herald-seal` itself (it only ever spares a check:
/// nothing is written or removed on its word, and a `--full` run checks every file). Anything
/// else that differs (the manifest rewritten, even with the same bytes; a folder missing, its
/// stamp different; the seal unreadable) sends the run back to checking every file, which
/// then seals the folder again.
struct FolderSeal: Equatable, Sendable {
    static let fileName = ".herald-seal"

    /// A file's or folder's identity and last status change, as `fstatat` gives them.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var changedSeconds: Int64
        var changedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            changedSeconds = Int64(info.st_ctim.tv_sec)
            changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        }

        init(device: UInt64, inode: UInt64, changedSeconds: Int64, changedNanoseconds: Int64) {
            self.device = device
            self.inode = inode
            self.changedSeconds = changedSeconds
            self.changedNanoseconds = changedNanoseconds
        }

        /// Changed at or after `time` (seconds, nanoseconds)?
        func changed(atOrAfter time: timespec) -> Bool {
            (changedSeconds, changedNanoseconds) >= (Int64(time.tv_sec), Int64(time.tv_nsec))
        }
    }

    /// The manifest file this seal goes with: the same inode, size and ctime (a manifest written
    /// again, even byte for byte, has another).
    var manifest: Stamp
    var manifestSize: Int64
    /// How many files the manifest lists (a run that changes nothing reports them unchanged).
    var fileCount: Int
    /// Folder (relative to the root) → its stamp.
    var folders: [String: Stamp]

    // MARK: The file

    private static let header = "herald-seal 1"

    var serialized: [UInt8] {
        var out = Array("\(Self.header) ".utf8)
        out.reserveCapacity(folders.count * 80)
        Self.write(manifest, to: &out)
        out.append(UInt8(ascii: " "))
        Self.write(UInt64(clamping: manifestSize), to: &out)
        out.append(UInt8(ascii: " "))
        Self.write(UInt64(clamping: fileCount), to: &out)
        out.append(UInt8(ascii: "\n"))
        // Sorted by the paths' bytes, for a person reading the file (parse takes any order).
        for (folder, stamp) in folders.map({ (Array($0.key.utf8), $0.value) }).sorted(by: { $0.0.lexicographicallyPrecedes($1.0) }) {
            Self.write(stamp, to: &out)
            out.append(UInt8(ascii: " "))
            out += folder
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// The seal file `kept` (checked against the folder by `holds(_:manifest:size:root:)`: every
    /// line a stamp and a path), made over for the manifest file `identity` of `size` bytes and
    /// `fileCount` files: the lines of the folders of `changedApps` (`tenant/app`) left out,
    /// `stamps` (those apps' folders, stamped afresh) merged in by path, every other line copied
    /// as it is. The bytes `serialized` would write for the same seal, without a string made
    /// per line: a run that changed one app of 1,000 rewrote 7,000 lines through a dictionary.
    /// Nil when `kept` is not sorted as `serialized` writes it.
    static func patched(
        _ kept: [UInt8], manifest identity: Stamp, size: Int64, fileCount: Int, changedApps: Set<String>, stamps: [String: Stamp]
    ) -> [UInt8]? {
        var seal = FolderSeal(manifest: identity, manifestSize: size, fileCount: fileCount, folders: stamps)
        // The new lines, sorted (with the header, which `serialized` writes first).
        let fresh = seal.serialized
        seal.folders = [:]
        let header = seal.serialized
        var added: [(path: ArraySlice<UInt8>, line: ArraySlice<UInt8>)] = []
        var start = header.count
        while start < fresh.count, let end = fresh[start...].firstIndex(of: UInt8(ascii: "\n")) {
            added.append((pathOf(fresh[start...end]), fresh[start...end]))
            start = end + 1
        }
        let dropped = Set(changedApps.map { ArraySlice($0.utf8) })
        guard let firstEnd = kept.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var out = header
        out.reserveCapacity(kept.count + fresh.count)
        var next = 0
        var previous: ArraySlice<UInt8>?
        start = firstEnd + 1
        while start < kept.count {
            guard let end = kept[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = kept[start...end]
            let path = pathOf(line)
            if let previous, !previous.lexicographicallyPrecedes(path) { return nil }
            previous = path
            while next < added.count, added[next].path.lexicographicallyPrecedes(path) {
                out += added[next].line
                next += 1
            }
            // A changed app's folders: the app's own (`tenant/app`), and those below it.
            if !dropped.contains(appOf(path)) { out += line }
            start = end + 1
        }
        for remaining in added[next...] { out += remaining.line }
        return out
    }

    /// `tenant/app` of a folder's path (the path itself when it has fewer parts).
    private static func appOf(_ path: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slashes = 0
        for index in path.indices where path[index] == UInt8(ascii: "/") {
            slashes += 1
            if slashes == 2 { return path[path.startIndex..<index] }
        }
        return path
    }

    /// The path of a seal line (`device inode seconds.nanoseconds path\n`): after its third space.
    private static func pathOf(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var spaces = 0
        var index = line.startIndex
        while index < line.endIndex, spaces < 3 {
            if line[index] == UInt8(ascii: " ") { spaces += 1 }
            index += 1
        }
        var end = line.endIndex
        if end > index, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return line[index..<end]
    }

    /// A stamp as the file holds it: `device inode seconds.nanoseconds`, in decimal digits (a
    /// time before 1970, which no folder Herald writes has, is written as 0).
    private static func write(_ stamp: Stamp, to out: inout [UInt8]) {
        write(stamp.device, to: &out)
        out.append(UInt8(ascii: " "))
        write(stamp.inode, to: &out)
        out.append(UInt8(ascii: " "))
        write(UInt64(clamping: stamp.changedSeconds), to: &out)
        out.append(UInt8(ascii: "."))
        write(UInt64(clamping: stamp.changedNanoseconds), to: &out)
    }

    private static func write(_ number: UInt64, to out: inout [UInt8]) {
        out.append(contentsOf: String(number).utf8)  // up to 15 digits, a string held inline
    }

    /// The seal in `bytes`, or nil when they are not one (then the folder is checked file by
    /// file): exactly the lines `serialized` writes, read in place without a string made per
    /// number (a 1,000-app site's seal has 7,000 lines, read again by every run that writes).
    static func parse(_ bytes: [UInt8]) -> FolderSeal? {
        bytes.withUnsafeBufferPointer { buffer -> FolderSeal? in
            let header = Array("\(Self.header) ".utf8)
            guard buffer.count >= header.count, buffer[0..<header.count].elementsEqual(header) else { return nil }
            var position = header.count
            guard let manifest = readStamp(buffer, &position), skip(UInt8(ascii: " "), buffer, &position),
                let size = readDecimal(buffer, &position).flatMap(Int64.init(exactly:)), skip(UInt8(ascii: " "), buffer, &position),
                let count = readDecimal(buffer, &position).flatMap(Int.init(exactly:)), skip(UInt8(ascii: "\n"), buffer, &position)
            else { return nil }
            var folders: [String: Stamp] = [:]
            folders.reserveCapacity(buffer.count / 60)
            while position < buffer.count {
                guard let stamp = readStamp(buffer, &position), skip(UInt8(ascii: " "), buffer, &position) else { return nil }
                var end = position
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                guard end < buffer.count else { return nil }  // every line ends with its newline
                let path = UnsafeBufferPointer(rebasing: buffer[position..<end])
                guard SitePath.isSafeRelative(path) else { return nil }
                folders[String(decoding: path, as: UTF8.self)] = stamp
                position = end + 1
            }
            return FolderSeal(manifest: manifest, manifestSize: size, fileCount: count, folders: folders)
        }
    }

    /// `device inode seconds.nanoseconds` at `position`, which moves past it.
    private static func readStamp(_ buffer: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Stamp? {
        guard let device = readDecimal(buffer, &position), skip(UInt8(ascii: " "), buffer, &position),
            let inode = readDecimal(buffer, &position), skip(UInt8(ascii: " "), buffer, &position),
            let seconds = readDecimal(buffer, &position).flatMap(Int64.init(exactly:)), skip(UInt8(ascii: "."), buffer, &position),
            let nanoseconds = readDecimal(buffer, &position).flatMap(Int64.init(exactly:))
        else { return nil }
        return Stamp(device: device, inode: inode, changedSeconds: seconds, changedNanoseconds: nanoseconds)
    }

    /// The decimal digits at `position` as a number (nil: none, or more than 64 bits hold);
    /// `position` moves past them.
    private static func readDecimal(_ buffer: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> UInt64? {
        var value: UInt64 = 0
        let first = position
        while position < buffer.count, buffer[position] >= UInt8(ascii: "0"), buffer[position] <= UInt8(ascii: "9") {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(buffer[position] - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            value = sum
            position += 1
        }
        return position > first ? value : nil
    }

    /// Whether `byte` is at `position` (which then moves past it).
    private static func skip(_ byte: UInt8, _ buffer: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Bool {
        guard position < buffer.count, buffer[position] == byte else { return false }
        position += 1
        return true
    }

    // MARK: Checking and stamping

    /// Every sealed folder is still there (a folder, not a symlink), with its stamp. On every core.
    func holds(root: Int32) -> Bool {
        let folders = Array(self.folders)
        let same = try? SiteFolder.inParallel(folders, state: {}) { entry, _ in
            var info = stat()
            return fstatat(root, entry.key, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
                && Stamp(info) == entry.value
        }
        return same?.allSatisfy { $0 } == true
    }

    /// The seal in `bytes` (a seal file's) checked against the folder without being built (no
    /// string nor dictionary made for its thousands of lines): made for the manifest file
    /// `identity` of `size` bytes, every line a stamp and a path Herald could have written, and
    /// every folder still there with its stamp. The manifest's file count when it holds.
    static func holds(_ bytes: [UInt8], manifest identity: Stamp, size: Int64, root: Int32) -> Int? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let seal = parse(Array(bytes[...newline])), seal.goes(with: identity, size: size)
        else { return nil }
        // NUL for newline: each folder's path is then a C string in place, handed to fstatat as it is.
        var text = bytes
        var starts: [Int] = []
        starts.reserveCapacity(bytes.count / 60)
        var start = newline + 1
        for index in start..<text.count where text[index] == UInt8(ascii: "\n") {
            text[index] = 0
            if index > start { starts.append(start) }
            start = index + 1
        }
        guard start == text.count else { return nil }  // the last line ends with its newline
        let lines = text
        let same = try? SiteFolder.inParallel(starts, state: {}) { start, _ -> Bool in
            lines.withUnsafeBufferPointer { buffer -> Bool in
                guard let base = buffer.baseAddress else { return false }
                var position = start
                guard let expected = readStamp(buffer, &position), skip(UInt8(ascii: " "), buffer, &position) else { return false }
                var end = position
                while end < buffer.count, buffer[end] != 0 { end += 1 }
                guard SitePath.isSafeRelative(UnsafeBufferPointer(rebasing: buffer[position..<end])) else { return false }
                var info = stat()
                return fstatat(root, base + position, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
                    && Stamp(info) == expected
            }
        }
        guard let same, same.allSatisfy({ $0 }) else { return nil }
        return seal.fileCount
    }

    /// What stamping found in one folder.
    enum Found: Sendable {
        /// Every file is there; the folder's stamp was taken before they were looked at.
        case sealed(Stamp)
        /// A file is missing (or is no regular file), or the folder is.
        case missing
        /// The folder changed within the clock's current tick: a change later in the same tick
        /// could get the same ctime, so it cannot be sealed yet.
        case unsettled(Stamp)
    }

    /// Looks at each of `folders` (relative folder → the names of the files listed in it) and
    /// each of its files, on every core: the folder's stamp first, then its files, so that any
    /// change after the files were seen shows in its stamp. A folder whose ctime is not older
    /// than the coarse clock read just before its stamp (ctimes are taken from that clock, which
    /// moves in ticks of a few milliseconds) is looked at again once the clock has moved past it
    /// (a run that has just written it waits one tick; someone writing it all the time leaves
    /// it unsettled, and the folder unsealed).
    static func stamp(_ folders: [(folder: String, files: [String])], root: Int32) -> [String: Found] {
        var found: [String: Found] = [:]
        var pending = folders
        for attempt in 0..<3 {
            let results =
                (try? SiteFolder.inParallel(pending, state: {}) { entry, _ -> Found in
                    let now = coarseNow()
                    var info = stat()
                    guard fstatat(root, entry.folder, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFDIR else { return .missing }
                    let stamp = Stamp(info)
                    for name in entry.files {
                        var file = stat()
                        guard fstatat(root, entry.folder + "/" + name, &file, AT_SYMLINK_NOFOLLOW) == 0, file.st_mode & S_IFMT == S_IFREG
                        else { return .missing }
                    }
                    return stamp.changed(atOrAfter: now) ? .unsettled(stamp) : .sealed(stamp)
                }) ?? []
            var unsettled: [(folder: String, files: [String])] = []
            var newest = timespec()
            for (entry, result) in zip(pending, results) {
                found[entry.folder] = result
                guard case .unsettled(let stamp) = result else { continue }
                unsettled.append(entry)
                if stamp.changed(atOrAfter: newest) { newest = timespec(tv_sec: Int(stamp.changedSeconds), tv_nsec: Int(stamp.changedNanoseconds)) }
            }
            guard !unsettled.isEmpty, attempt < 2 else { break }
            // Until the clock has moved past the newest of them (a tick: 4 ms at HZ 250), at most 30 ms.
            for _ in 0..<60 {
                let now = coarseNow()
                if (Int64(now.tv_sec), Int64(now.tv_nsec)) > (Int64(newest.tv_sec), Int64(newest.tv_nsec)) { break }
                usleep(500)
            }
            pending = unsettled
        }
        return found
    }

    private static func coarseNow() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return now
    }

    /// The folders that hold the files of `paths` (relative), each with the names of its files.
    /// Nil when a file lies at the root, which cannot be sealed (every run writes there).
    static func folders(of paths: some Sequence<String>) -> [(folder: String, files: [String])]? {
        var byFolder: [Substring: [String]] = [:]
        for path in paths {
            let (folder, name) = SiteFolder.split(path[...])
            if folder.isEmpty { return nil }
            byFolder[folder, default: []].append(name)
        }
        return byFolder.map { (String($0.key), $0.value) }
    }
}

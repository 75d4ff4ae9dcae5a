import Foundation
import HeraldCore

/// What Herald has published under an output folder: path → SHA-256 of its bytes, grouped by
/// app folder (`tenant/app`). Kept in the folder itself, so Herald removes only files it
/// wrote and never anything else; grouped so a run that changed one app touches one group.
///
/// A line format, quick to read and write for tens of thousands of files:
///   herald-manifest 2 complete [ARCHIVE]  ("incomplete" while a run writes; ARCHIVE: the digest
///                                        the run history keeps this manifest under)
///   % owner <installation> site|board    (the Herald database that writes this folder, and what
///                                        it writes: a published site or a review board)
///   @ <shard sha256> <tenant/app>        (an app's group; "-" when its shard is not archived yet)
///   <sha256 hex> <path>                  ("-" for a path whose content is not known yet)
/// Version 1 (no groups) is still read.
public struct SiteManifest: Equatable, Sendable {
    public static let fileName = ".herald-manifest"

    /// One app folder's files and the digest of its shard in the run history, when that is
    /// known to match these files.
    public struct AppFiles: Equatable, Sendable {
        /// The files, or (in a manifest decoded `deferringGroups`) the lines they are read from
        /// the first time they are asked for.
        private var list: FileList

        public var files: [String: String] {
            get { list.files }
            set {
                list = FileList(newValue)
                lines = nil
            }
            _modify {
                // Changed in place when this app is the list's only holder (a copy otherwise).
                if isKnownUniquelyReferenced(&list) { list.read() } else { list = FileList(list.files) }
                lines = nil
                yield &list.parsed
            }
        }
        public var shardDigest: String?
        /// The app's file lines as a manifest file held them (read, or written, by this process),
        /// while `files` is unchanged: written out again as they are, so that a run that changed
        /// one app does not sort and format the lines of all the others again.
        var lines: ArraySlice<UInt8>?

        public init(files: [String: String] = [:], shardDigest: String? = nil) {
            list = FileList(files)
            self.shardDigest = shardDigest
        }

        /// An app whose files are read from `lines` (its group's, in a manifest file) when first
        /// asked for.
        init(deferred lines: ArraySlice<UInt8>, folder: String, shardDigest: String?) {
            list = FileList(deferred: lines, folder: folder)
            self.shardDigest = shardDigest
            self.lines = lines
        }

        /// How many files, without reading deferred lines (one per line).
        public var count: Int { list.count }

        /// The same files as `other`: at once when both hold the same list (an app carried over
        /// from the manifest a run started from), without reading it.
        public func sameFiles(as other: AppFiles) -> Bool {
            list === other.list || files == other.files
        }

        public static func == (lhs: AppFiles, rhs: AppFiles) -> Bool {
            lhs.shardDigest == rhs.shardDigest && lhs.sameFiles(as: rhs)
        }
    }

    /// An app's files, or the group lines they are read from when first asked for (by any
    /// thread: the first reader reads them under the lock). Only `AppFiles` changes `parsed`,
    /// and only while it holds the list alone.
    final class FileList: @unchecked Sendable {
        var parsed: [String: String]
        private var deferred: (lines: ArraySlice<UInt8>, folder: String)?
        /// How many lines `deferred` has, once counted.
        private var deferredCount: Int?
        private let lock = NSLock()

        init(_ files: [String: String]) {
            parsed = files
        }

        init(deferred lines: ArraySlice<UInt8>, folder: String) {
            parsed = [:]
            deferred = (lines, folder)
        }

        var files: [String: String] {
            lock.withLock {
                readLocked()
                return parsed
            }
        }

        var count: Int {
            lock.withLock {
                guard let deferred else { return parsed.count }
                if let counted = deferredCount { return counted }
                // Its lines, blank ones left out, as reading them would count them: from newline
                // to newline by memchr.
                let counted = deferred.lines.withUnsafeBufferPointer { bytes -> Int in
                    guard let base = bytes.baseAddress else { return 0 }
                    var lines = 0
                    var start = 0
                    while start < bytes.count {
                        let end = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
                            .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
                        if end > start { lines += 1 }
                        start = end + 1
                    }
                    return lines
                }
                deferredCount = counted
                return counted
            }
        }

        func read() { lock.withLock { readLocked() } }

        /// The deferred lines read (a line `decode` would refuse is left out: these are the lines
        /// of a manifest the folder's seal vouches for, which a whole decode read before).
        private func readLocked() {
            guard let (lines, folder) = deferred else { return }
            deferred = nil
            var files: [String: String] = [:]
            files.reserveCapacity(lines.count / 90)
            for line in lines.split(separator: UInt8(ascii: "\n")) {
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
                let pathBytes = line[(space + 1)...]
                guard SitePath.isSafeRelative(pathBytes) else { continue }
                let path = String(decoding: pathBytes, as: UTF8.self)
                guard SiteManifest.appFolderPrefix(of: path) == folder else { continue }
                let digest = line[line.startIndex..<space]
                files[path] = digest.elementsEqual("-".utf8) ? "" : String(decoding: digest, as: UTF8.self)
            }
            parsed = files
        }
    }

    /// App folder → its files.
    public var apps: [String: AppFiles]
    /// False while a run is writing: a manifest left that way means the run died part-way.
    public var complete: Bool
    /// The digest of this manifest in the run history (`ManifestArchive`), when known.
    public var archiveDigest: String?
    /// Which Herald wrote the folder (nil: a folder written before Herald recorded it).
    public var owner: Owner?

    /// The Herald database a folder belongs to (its installation id, which a dump and restore
    /// keep), and what it writes there. A run from another database is refused: an empty
    /// database would otherwise wipe the site it did not write.
    public struct Owner: Equatable, Sendable, CustomStringConvertible {
        public enum Purpose: String, Sendable { case site, board }
        public var installation: String
        public var purpose: Purpose

        public init(installation: String, purpose: Purpose) {
            self.installation = installation
            self.purpose = purpose
        }

        public var description: String { "\(purpose == .board ? "the review board" : "the site") of Herald installation \(installation)" }

        /// A UUID as PostgreSQL writes it: 36 lowercase hexadecimal digits and dashes.
        public static func isInstallation(_ text: Substring) -> Bool {
            text.utf8.count == 36
                && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
        }
    }

    public init(files: [String: String] = [:], complete: Bool = true, archiveDigest: String? = nil) {
        var apps: [String: AppFiles] = [:]
        for (path, digest) in files { apps[Self.appFolder(of: path), default: AppFiles()].files[path] = digest }
        self.init(apps: apps, complete: complete, archiveDigest: archiveDigest)
    }

    public init(apps: [String: AppFiles], complete: Bool = true, archiveDigest: String? = nil) {
        self.apps = apps
        self.complete = complete
        self.archiveDigest = archiveDigest
    }

    /// Every path → digest (builds a dictionary of the whole site: for tests and rollbacks).
    public var files: [String: String] {
        var all: [String: String] = [:]
        for app in apps.values { all.merge(app.files) { $1 } }
        return all
    }

    public var fileCount: Int { apps.values.reduce(0) { $0 + $1.count } }

    /// The digest recorded for `path` ("" when unknown); setting one forgets the app's shard digest.
    public subscript(path: String) -> String? {
        get { apps[Self.appFolder(of: path)]?.files[path] }
        set {
            let folder = Self.appFolder(of: path)
            var app = apps[folder] ?? AppFiles()
            app.files[path] = newValue
            app.shardDigest = nil
            apps[folder] = app.files.isEmpty ? nil : app
        }
    }

    /// The files among `files` this manifest does not list with the same digest at the same
    /// path. One look-up of an app's files per app: files come app by app, as compiled.
    public func filesNotListed(_ files: [SiteFile]) -> [SiteFile] {
        var folder: Substring?
        var listed: [String: String]?
        return files.filter { file in
            let path = file.path.description
            let fileFolder = Self.appFolderPrefix(of: path)
            if fileFolder != folder {
                folder = fileFolder
                listed = apps[String(fileFolder)]?.files
            }
            return listed?[path] != file.digest
        }
    }

    /// The same files with no shard digest trusted (they are recomputed when archived).
    public func forgettingShardDigests() -> SiteManifest {
        var manifest = SiteManifest(
            apps: apps.mapValues { app in
                var forgotten = app
                forgotten.shardDigest = nil
                return forgotten
            }, complete: complete, archiveDigest: archiveDigest)
        manifest.owner = owner
        return manifest
    }

    /// `tenant/app` of `tenant/app/locale/...`.
    public static func appFolder(of path: String) -> String {
        String(appFolderPrefix(of: path))
    }

    /// The same, as part of `path` (nothing made).
    public static func appFolderPrefix(of path: String) -> Substring {
        var slashes = 0
        for index in path.utf8.indices where path.utf8[index] == UInt8(ascii: "/") {
            slashes += 1
            if slashes == 2 { return path[..<index] }
        }
        return path[...]
    }

    /// `shards`: shard bytes by digest (`ManifestArchive.Packed.shards`), whose lines are an
    /// app's lines here when its shard digest names them: copied, not sorted and written again.
    /// An app's lines known already (`AppFiles.lines`) are copied too.
    public func serialized(reusing shards: [String: [UInt8]] = [:]) -> [UInt8] {
        var copy = self
        return copy.serializing(reusing: shards)
    }

    /// `serialized(reusing:)`, remembering in each app the lines written for it (a long-running
    /// publisher writes them out again at its next run).
    public mutating func serializing(reusing shards: [String: [UInt8]] = [:]) -> [UInt8] {
        var out = Array("herald-manifest 2 \(complete ? "complete" : "incomplete")\(archiveDigest.map { " " + $0 } ?? "")\n".utf8)
        if let owner { out += Array("% owner \(owner.installation) \(owner.purpose.rawValue)\n".utf8) }
        out.reserveCapacity(fileCount * 100)
        var ranges: [(folder: String, range: Range<Int>)] = []
        ranges.reserveCapacity(apps.count)
        for (folder, app) in apps.sorted(by: { $0.key < $1.key }) {
            out += Array("@ \(app.shardDigest ?? "-") \(folder)\n".utf8)
            let start = out.count
            if let digest = app.shardDigest, let shard = shards[digest], shard.starts(with: Self.shardHeader) {
                out += shard[Self.shardHeader.count...]
            } else if let lines = app.lines {
                out += lines
            } else {
                Self.appendLines(app.files, to: &out)
            }
            ranges.append((folder, start..<out.count))
        }
        for (folder, range) in ranges { apps[folder]?.lines = out[range] }
        return out
    }

    /// The first line of a shard; its other lines are the app's, as the manifest has them.
    private static let shardHeader = Array("herald-manifest 1 complete\n".utf8)

    /// One app's files in the shard format the run history keeps (version 1, sorted).
    public static func shardBytes(_ files: [String: String]) -> [UInt8] {
        var out = shardHeader
        appendLines(files, to: &out)
        return out
    }

    private static func appendLines(_ files: [String: String], to out: inout [UInt8]) {
        for (path, digest) in files.sorted(by: { $0.key < $1.key }) {
            out += digest.isEmpty ? Array("-".utf8) : Array(digest.utf8)
            out.append(UInt8(ascii: " "))
            out += Array(path.utf8)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// What a manifest's first lines say, read without its file lines (megabytes for a large
    /// site): a run that finds nothing changed, and the ownership check, need only these.
    public struct Header: Equatable, Sendable {
        public var complete: Bool
        public var archiveDigest: String?
        public var owner: Owner?
    }

    /// The header of the manifest that starts with `prefix` (its first lines, as read from the
    /// file's start; `wholeFile`: the file ends there); nil when they are not a manifest's header
    /// as `decode` reads it.
    public static func header(_ prefix: some Collection<UInt8>, wholeFile: Bool) -> Header? {
        var lines = prefix.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next(), wholeFile || first.count < prefix.count else { return nil }  // a whole first line
        let words = String(decoding: first, as: UTF8.self).split(separator: " ")
        guard words.count >= 3, words.count <= 4, words[0] == "herald-manifest", words[1] == "1" || words[1] == "2",
            words[2] == "complete" || words[2] == "incomplete"
        else { return nil }
        var header = Header(complete: words[2] == "complete", archiveDigest: words.count == 4 ? String(words[3]) : nil, owner: nil)
        // The owner line, as `decode` reads it (only a whole line counts).
        if words[1] == "2", let second = lines.next(), lines.next() != nil || wholeFile, second.first == UInt8(ascii: "%") {
            let words = String(decoding: second, as: UTF8.self).split(separator: " ")
            guard words.count == 4, words[1] == "owner", let purpose = Owner.Purpose(rawValue: String(words[3])), Owner.isInstallation(words[2])
            else { return nil }
            header.owner = Owner(installation: String(words[2]), purpose: purpose)
        }
        return header
    }

    public static func parse(_ bytes: [UInt8]) -> SiteManifest? {
        try? decode(bytes).get()
    }

    /// Why a manifest cannot be trusted: Herald removes files on its word, so a manifest
    /// naming a path Herald could not have written (`..`, absolute, `//`, NUL, hidden, too
    /// long) is refused whole, never half-used.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The manifest in `bytes`, or why it is refused (line numbers from 1). A large grouped
    /// manifest's app groups are decoded on every core, in runs of whole groups: a run that
    /// changed one app of 1,000 waited about 35 ms for its 3.7 MB on one core.
    public static func decode(_ bytes: [UInt8]) -> Result<SiteManifest, Refusal> {
        decode(bytes, runs: bytes.count > 1 << 20 ? ProcessInfo.processInfo.activeProcessorCount : 1)
    }

    /// The same, its groups cut into `runs` runs (the tests ask for each count).
    static func decode(_ bytes: [UInt8], runs count: Int) -> Result<SiteManifest, Refusal> {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let header = lines.first else { return .failure(Refusal(description: "it is empty")) }
        let words = String(decoding: header, as: UTF8.self).split(separator: " ")
        guard words.count >= 3, words.count <= 4, words[0] == "herald-manifest", words[1] == "1" || words[1] == "2",
            words[2] == "complete" || words[2] == "incomplete"
        else { return .failure(Refusal(description: "line 1 is not a Herald manifest header: \(shown(header))")) }
        let grouped = words[1] == "2"
        var owner: Owner?
        var first = 1
        if grouped, lines.count > 1, lines[1].first == UInt8(ascii: "%") {
            let words = String(decoding: lines[1], as: UTF8.self).split(separator: " ")
            guard words.count == 4, words[1] == "owner", let purpose = Owner.Purpose(rawValue: String(words[3])),
                Owner.isInstallation(words[2])
            else { return .failure(Refusal(description: "line 2 is not a Herald owner line: \(shown(lines[1]))")) }
            owner = Owner(installation: String(words[2]), purpose: purpose)
            first = 2
        }
        let runs = grouped ? groupRuns(lines, from: first, count: count) : [first..<lines.count]
        let decoded = ConcurrentSlots<Result<[String: AppFiles], Refusal>>(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            decoded[index] = fileLines(lines, runs[index], of: bytes, grouped: grouped)
        }
        // In file order: the first refusal is the one the file's first bad line gives, and a
        // folder grouped twice keeps its last group, as one pass over the lines would.
        var apps: [String: AppFiles] = [:]
        for result in decoded.values {
            switch result {
            case .failure(let refusal): return .failure(refusal)
            case .success(let run): apps.merge(run) { _, later in later }
            }
        }
        var manifest = SiteManifest(apps: apps, complete: words[2] == "complete", archiveDigest: words.count == 4 ? String(words[3]) : nil)
        manifest.owner = owner
        return .success(manifest)
    }

    /// The manifest in `bytes` with each app's files read only when first asked for: for the
    /// manifest of a folder whose seal holds (its bytes are the very ones a run wrote, and a
    /// whole decode read), where a run that changed one app of 1,000 reads that app's lines,
    /// and writes the others' back as they are. Only the header and the group lines are read
    /// now (found with `memmem`); anything else about the file sends it to `decode`.
    public static func decodeDeferringGroups(_ bytes: [UInt8]) -> Result<SiteManifest, Refusal> {
        let prefix = bytes.prefix(4096)
        guard let header = header(prefix, wholeFile: prefix.count == bytes.count), let firstEnd = bytes.firstIndex(of: UInt8(ascii: "\n")),
            bytes[..<firstEnd].split(separator: UInt8(ascii: " ")).dropFirst().first?.elementsEqual("2".utf8) == true
        else { return decode(bytes) }
        var bodyStart = firstEnd + 1
        if header.owner != nil {
            guard let ownerEnd = bytes[bodyStart...].firstIndex(of: UInt8(ascii: "\n")) else { return decode(bytes) }
            bodyStart = ownerEnd + 1
        }
        // Where each group line ("@ <shard> <tenant/app>") starts: an "@ " just after a newline,
        // found by memchr (an "@" is rare elsewhere).
        var groupStarts: [Int] = []
        groupStarts.reserveCapacity(bytes.count / 3_000)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var from = bodyStart
            while from < buffer.count, let found = memchr(base + from, Int32(UInt8(ascii: "@")), buffer.count - from) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if at + 1 < buffer.count, buffer[at + 1] == UInt8(ascii: " "), at == bodyStart || buffer[at - 1] == UInt8(ascii: "\n") {
                    groupStarts.append(at)
                }
                from = at + 1
            }
        }
        // Before the first group, blank lines only (what else there is, `decode` refuses).
        let firstGroup = groupStarts.first ?? bytes.count
        guard bytes[bodyStart..<firstGroup].allSatisfy({ $0 == UInt8(ascii: "\n") }) else { return decode(bytes) }
        var apps: [String: AppFiles] = [:]
        apps.reserveCapacity(groupStarts.count)
        for (number, start) in groupStarts.enumerated() {
            let lineEnd = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let rest = bytes[(start + 2)..<lineEnd]
            guard let gap = rest.firstIndex(of: UInt8(ascii: " ")), SitePath.isSafeRelative(rest[(gap + 1)...]) else { return decode(bytes) }
            let digest = String(decoding: rest[..<gap], as: UTF8.self)
            let folder = String(decoding: rest[(gap + 1)...], as: UTF8.self)
            let linesStart = min(lineEnd + 1, bytes.count)
            let linesEnd = number + 1 < groupStarts.count ? groupStarts[number + 1] : bytes.count
            let lines = bytes[linesStart..<max(linesStart, linesEnd)]
            var app = AppFiles(deferred: lines, folder: folder, shardDigest: digest == "-" ? nil : digest)
            // Whole lines only (a last line without its newline is written out afresh), as `decode` keeps them.
            if lines.last.map({ $0 != UInt8(ascii: "\n") }) ?? false { app.lines = nil }
            apps[folder] = app
        }
        var manifest = SiteManifest(apps: apps, complete: header.complete, archiveDigest: header.archiveDigest)
        manifest.owner = header.owner
        return .success(manifest)
    }

    /// `lines[from...]` cut into up to `count` runs of about the same length, each starting at
    /// a group's line (`@ …`) but the first.
    private static func groupRuns(_ lines: [ArraySlice<UInt8>], from first: Int, count: Int) -> [Range<Int>] {
        var starts = [first]
        if count > 1 {
            let step = (lines.count - first) / count
            for part in 1..<count {
                var index = max(first + part * step, starts[starts.count - 1] + 1)
                while index < lines.count, !(lines[index].starts(with: [UInt8(ascii: "@"), UInt8(ascii: " ")])) { index += 1 }
                if index < lines.count { starts.append(index) }
            }
        }
        return starts.indices.map { starts[$0]..<(($0 + 1 < starts.count) ? starts[$0 + 1] : lines.count) }
    }

    /// The apps of the file lines `lines[run]` (`bytes` split at each newline): each app's
    /// files, and its lines as they are in `bytes`; or why they are refused.
    private static func fileLines(
        _ lines: [ArraySlice<UInt8>], _ run: Range<Int>, of bytes: [UInt8], grouped: Bool
    ) -> Result<[String: AppFiles], Refusal> {
        func refuse(_ why: String) -> Result<[String: AppFiles], Refusal> { .failure(Refusal(description: why)) }
        var apps: [String: AppFiles] = [:]
        var folder: String?
        var current = AppFiles()
        // Where the current group's file lines start in `bytes` (they are kept with its files).
        var groupStart = bytes.startIndex
        func closeGroup(at end: Int) {
            guard let folder else { return }
            let lines = bytes[groupStart..<max(groupStart, end)]
            // Whole lines only (a last line without its newline is written out afresh).
            current.lines = lines.last.map { $0 == UInt8(ascii: "\n") } ?? true ? lines : nil
            apps[folder] = current
        }
        for number in run {
            let line = lines[number]
            if line.isEmpty { continue }
            guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return refuse("line \(number + 1) is not \"DIGEST PATH\": \(shown(line))") }
            let first = String(decoding: line[line.startIndex..<space], as: UTF8.self)
            let restBytes = line[(space + 1)...]
            if grouped, first == "@" {
                guard let gap = restBytes.firstIndex(of: UInt8(ascii: " ")), SitePath.isSafeRelative(restBytes[(gap + 1)...]) else {
                    return refuse("line \(number + 1) names no app folder Herald could have made: \(shown(line))")
                }
                closeGroup(at: line.startIndex)
                let digest = String(decoding: restBytes[..<gap], as: UTF8.self)
                folder = String(decoding: restBytes[(gap + 1)...], as: UTF8.self)
                current = AppFiles(shardDigest: digest == "-" ? nil : digest)
                groupStart = min(line.endIndex + 1, bytes.endIndex)
                continue
            }
            guard SitePath.isSafeRelative(restBytes) else {
                return refuse("line \(number + 1) names a path Herald could not have written (it must be relative, without \"..\", \"//\", hidden or unusual names): \(shown(restBytes))")
            }
            let rest = String(decoding: restBytes, as: UTF8.self)
            if grouped {
                guard let folder, appFolder(of: rest) == folder else { return refuse("line \(number + 1) names \(shown(restBytes)) outside its app's group") }
                current.files[rest] = first == "-" ? "" : first
            } else {
                apps[appFolder(of: rest), default: AppFiles()].files[rest] = first == "-" ? "" : first
            }
        }
        // The run's last group ends where the next run's first line starts.
        closeGroup(at: run.upperBound < lines.count ? lines[run.upperBound].startIndex : bytes.endIndex)
        return .success(apps)
    }

    /// A line as a refusal quotes it: its first 120 bytes, NUL shown.
    private static func shown(_ text: some Collection<UInt8>) -> String {
        let text = String(decoding: text.prefix(120), as: UTF8.self).replacingNulls()
        return "\"\(text)\"" + (text.utf8.count >= 120 ? "…" : "")
    }
}

extension String {
    /// NUL shown as `\0`, so a refusal can quote the line that held it.
    fileprivate func replacingNulls() -> String {
        unicodeScalars.contains("\u{0}") ? String(String.UnicodeScalarView(unicodeScalars.flatMap { $0 == "\u{0}" ? Array("\\0".unicodeScalars) : [$0] })) : self
    }
}

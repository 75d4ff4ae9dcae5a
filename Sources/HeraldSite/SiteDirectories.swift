#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The site's folders as descriptors, each opened from its parent's with
/// `openat(O_NOFOLLOW | O_DIRECTORY)` down from the root's: everything a run reads, creates,
/// writes or renames below the root goes through one of them, never by a path, so a symlink
/// put where a folder was (before the run, or while it runs) is refused, never followed.
/// One per thread. Only the folders of the path looked up last stay open (the next file, in
/// path order, usually shares them): a run over thousands of folders that kept each open would
/// pass the common limit of 1,024 open files, and every growth of the process's table of them
/// makes all its threads wait. A descriptor it returns is valid until its next look-up. The
/// root's descriptor is the caller's (opened once per run).
final class SiteDirectories {
    let rootPath: String
    let root: Int32
    /// The open folders, outermost first: the segments of the folder looked up last (or of as
    /// much of it as exists), each with its descriptor.
    private var chain: [(name: Substring, descriptor: Int32)] = []
    /// The folder looked up last, when found (files of one folder come one after another: no
    /// segment compared then).
    private var last: (relative: String, descriptor: Int32)?
    /// Folders found missing, when `remembersMissing`: a cold run's files all miss the same
    /// tenant folder, and asking the kernel again for each costs a failed lookup per file.
    private var missing: Set<String> = []
    private let remembersMissing: Bool
    /// The missing folder looked up last, when `remembersMissing` (a cold run's files all
    /// miss folders, one folder's files one after another: no string made nor hashed then).
    private var lastMissing: (relative: String, depth: Int)?
    /// The new folder `SiteFolder.locate` named last (relative path, depth found, its full
    /// path and its missing tenant's), shared by the files that follow in it.
    var newFolderMemo: (relative: Substring, depth: Int, folder: String?, tenant: String?)?

    /// `remembersMissing`: a folder found missing stays missing for this instance (a pass
    /// that only reads, as `SiteFolder.find`; a pass that makes folders must ask again).
    init(root: Int32, rootPath: String, remembersMissing: Bool = false) {
        self.root = root
        self.rootPath = rootPath
        self.remembersMissing = remembersMissing
    }

    deinit {
        for folder in chain { close(folder.descriptor) }
    }

    /// How a folder's lookup ended.
    enum Lookup {
        case found(Int32)
        /// It does not exist; `depth`: how many of the segments do (0: not even the first).
        case missing(depth: Int)
    }

    /// The folder `relative` (`a/b/c`, "" for the root) below the root; a symlink, or anything
    /// else than a folder, where one of its folders should be refuses the run. The folders it
    /// shares with the one looked up last are not opened again.
    func folder(_ relative: Substring) throws -> Lookup {
        if relative.isEmpty { return .found(root) }
        if let last, last.relative == relative { return .found(last.descriptor) }
        if let lastMissing, lastMissing.relative == relative { return .missing(depth: lastMissing.depth) }
        last = nil
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        var shared = 0
        while shared < chain.count, shared < segments.count, chain[shared].name == segments[shared] { shared += 1 }
        while chain.count > shared, let folder = chain.popLast() { close(folder.descriptor) }
        for depth in shared..<segments.count {
            let prefix = depth == 0 ? segments[0] : relative[..<segments[depth].endIndex]
            if remembersMissing, missing.contains(String(prefix)) {
                lastMissing = (String(relative), depth)
                return .missing(depth: depth)
            }
            let next = openat(chain.last?.descriptor ?? root, String(segments[depth]), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let failure = errno
                if failure == ENOENT {
                    if remembersMissing {
                        missing.insert(String(prefix))
                        lastMissing = (String(relative), depth)
                    }
                    return .missing(depth: depth)
                }
                throw Self.refusal(rootPath + "/" + prefix, failure)
            }
            chain.append((segments[depth], next))
        }
        let descriptor = chain.last?.descriptor ?? root
        last = (String(relative), descriptor)
        return .found(descriptor)
    }

    /// The folder `relative`, which must exist.
    func existing(_ relative: Substring) throws -> Int32 {
        switch try folder(relative) {
        case .found(let descriptor): return descriptor
        case .missing:
            throw SiteWriter.WriteError(description: "cannot write into \(rootPath)/\(relative): \(String(cString: strerror(ENOENT)))")
        }
    }

    /// Why a folder cannot be opened: a symlink or a file in the way is refused as such.
    static func refusal(_ path: String, _ failure: Int32) -> SiteWriter.WriteError {
        if failure == ELOOP || failure == ENOTDIR {
            return SiteWriter.WriteError.refusal("refusing to write through \(path): it is a symlink or not a folder")
        }
        return SiteWriter.WriteError(description: "cannot open \(path): \(String(cString: strerror(failure)))")
    }
}

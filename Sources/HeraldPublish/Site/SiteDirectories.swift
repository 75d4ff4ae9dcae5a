#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The site's folders as descriptors, each opened from its parent's with
/// `openat(O_NOFOLLOW | O_DIRECTORY)` down from the root's: everything a run reads, creates,
/// writes or renames below the root goes through one of them, never by a path, so a symlink
/// put where a folder was (before the run, or while it runs) is refused, never followed.
/// One per thread; it keeps the folders it opened (neighbouring files share them) and closes
/// them when it goes. The root's descriptor is the caller's (opened once per run).
final class SiteDirectories {
    let rootPath: String
    let root: Int32
    /// Folder (relative path) → its descriptor.
    private var opened: [String: Int32] = [:]

    init(root: Int32, rootPath: String) {
        self.root = root
        self.rootPath = rootPath
    }

    deinit {
        for descriptor in opened.values { close(descriptor) }
    }

    /// How a folder's lookup ended.
    enum Lookup {
        case found(Int32)
        /// It does not exist; `depth`: how many of the segments do (0: not even the first).
        case missing(depth: Int)
    }

    /// The folder `segments` below the root; a symlink, or anything else than a folder, where
    /// one of them should be refuses the run.
    func folder<Segments: Collection>(_ segments: Segments) throws -> Lookup where Segments.Element: StringProtocol {
        var descriptor = root
        var relative = ""
        for (depth, segment) in segments.enumerated() {
            relative += depth == 0 ? String(segment) : "/" + segment
            if let known = opened[relative] {
                descriptor = known
                continue
            }
            let next = openat(descriptor, String(segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let failure = errno
                if failure == ENOENT { return .missing(depth: depth) }
                throw Self.refusal(rootPath + "/" + relative, failure)
            }
            opened[relative] = next
            descriptor = next
        }
        return .found(descriptor)
    }

    /// The folder `segments`, which must exist.
    func existing<Segments: Collection>(_ segments: Segments) throws -> Int32 where Segments.Element: StringProtocol {
        switch try folder(segments) {
        case .found(let descriptor): return descriptor
        case .missing:
            let path = rootPath + "/" + segments.map { String($0) }.joined(separator: "/")
            throw SiteWriter.WriteError(description: "cannot write into \(path): \(String(cString: strerror(ENOENT)))")
        }
    }

    /// Forgets a folder (renamed or removed by the run), so it is opened again if needed.
    func forget(_ relative: String) {
        if let descriptor = opened.removeValue(forKey: relative) { close(descriptor) }
    }

    /// Why a folder cannot be opened: a symlink or a file in the way is refused as such.
    static func refusal(_ path: String, _ failure: Int32) -> SiteWriter.WriteError {
        if failure == ELOOP || failure == ENOTDIR {
            return SiteWriter.WriteError(description: "refusing to write through \(path): it is a symlink or not a folder")
        }
        return SiteWriter.WriteError(description: "cannot open \(path): \(String(cString: strerror(failure)))")
    }
}

import HeraldPublish
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder as the last run left it (no marker, a complete manifest, every file it lists
/// there): what a run that finds nothing changed in the database, or a few apps, starts from.
public struct IntactFolder: Sendable {
    /// The digest the run history keeps the manifest under.
    public let digest: String
    /// How many files the manifest lists.
    public let fileCount: Int
    /// The manifest, when it was read (checking the folder against its seal does not read it:
    /// `SiteWriter.manifest(of:)` does).
    public let manifest: SiteManifest?
    /// The seal the folder matched (as remembered, or as its file's bytes: parsed only when a
    /// run carries it over), or the one checking each file made.
    let source: SealSource
    /// `seal` is the one the folder keeps already (false: `SiteWriter.keepSeal` writes it).
    var sealKept: Bool {
        switch source {
        case .remembered, .kept: true
        case .made, .none: false
        }
    }

    enum SealSource: Sendable {
        case remembered(FolderSeal)
        case kept([UInt8])
        case made(FolderSeal)
        /// None could be made (a folder that changed in the last clock tick, a file at the root).
        case none
    }

    var seal: FolderSeal? {
        switch source {
        case .remembered(let seal), .made(let seal): seal
        case .kept(let bytes): FolderSeal.parse(bytes)
        case .none: nil
        }
    }

    init(digest: String, fileCount: Int, manifest: SiteManifest?, source: SealSource) {
        self.digest = digest
        self.fileCount = fileCount
        self.manifest = manifest
        self.source = source
    }
}

/// What a long-running publisher remembers of its folder between runs: the manifest it left
/// (parsed: megabytes for a large site) and its seal. Used only while the manifest file is the
/// very one it wrote (same inode, size and ctime) and every sealed folder still matches.
public final class FolderMemory: Sendable {
    private let state = Mutex<(seal: FolderSeal, manifest: SiteManifest)?>(nil)

    public init() {}

    var remembered: (seal: FolderSeal, manifest: SiteManifest)? { state.withLock { $0 } }

    func remember(_ seal: FolderSeal?, manifest: SiteManifest) {
        state.withLock { $0 = seal.map { ($0, manifest) } }
    }

    /// Whether anything is remembered (for tests).
    public var isEmpty: Bool { state.withLock { $0 == nil } }
}

extension SiteWriter {
    /// The folder, if the last run left it intact: checked against its seal (one look per
    /// folder, and the manifest's first lines), or else file by file, as the manifest lists them
    /// (which makes a new seal). Nil when a marker says a run died here, the manifest is missing,
    /// incomplete or not one, or a file it lists is missing.
    public func intactFolder() -> IntactFolder? {
        guard folder.readMarker() == nil else { return nil }
        let descriptor = open(folder.manifestPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let identity = FolderSeal.Stamp(info)
        let size = Int64(info.st_size)
        guard let root = try? folder.openRoot() else { return nil }
        defer { close(root) }

        // The seal this manifest goes with: remembered by a watcher, or kept beside it (checked
        // as its file's bytes, without building it).
        var sealed: (count: Int, source: IntactFolder.SealSource, manifest: SiteManifest?)?
        if let remembered = memory?.remembered, remembered.seal.goes(with: identity, size: size) {
            if remembered.seal.holds(root: root) { sealed = (remembered.seal.fileCount, .remembered(remembered.seal), remembered.manifest) }
        } else if let bytes = SiteFolder.readIfRegular(folder.sealPath, expectedSize: nil),
            let count = FolderSeal.holds(bytes, manifest: identity, size: size, root: root)
        {
            sealed = (count, .kept(bytes), nil)
        }
        if let sealed {
            var prefix = [UInt8](repeating: 0, count: 4096)
            let read = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            if read > 0, let header = SiteManifest.header(prefix[..<read], wholeFile: Int64(read) == size), header.complete,
                let digest = header.archiveDigest
            {
                return IntactFolder(digest: digest, fileCount: sealed.count, manifest: sealed.manifest, source: sealed.source)
            }
        }

        // File by file, as the manifest lists them.
        guard let bytes = SiteFolder.contents(of: descriptor, expectedSize: Int(size)), let manifest = SiteManifest.parse(bytes),
            manifest.complete, let digest = manifest.archiveDigest
        else { return nil }
        guard let folders = FolderSeal.folders(of: manifest.apps.values.lazy.flatMap(\.files.keys)) else {
            return folder.holdsEveryFile(of: manifest)
                ? IntactFolder(digest: digest, fileCount: manifest.fileCount, manifest: manifest, source: .none) : nil
        }
        var stamps: [String: FolderSeal.Stamp]? = [:]
        for (name, found) in FolderSeal.stamp(folders, root: root) {
            switch found {
            case .missing: return nil
            case .unsettled: stamps = nil
            case .sealed(let stamp): stamps?[name] = stamp
            }
        }
        let made = stamps.map { FolderSeal(manifest: identity, manifestSize: size, fileCount: manifest.fileCount, folders: $0) }
        return IntactFolder(digest: digest, fileCount: manifest.fileCount, manifest: manifest, source: made.map { .made($0) } ?? .none)
    }

    /// The manifest `intact` was checked with, read now if the seal spared reading it (then
    /// each app's files are read when first asked for: the seal vouches for the bytes).
    public func manifest(of intact: IntactFolder) throws -> SiteManifest {
        if let manifest = intact.manifest { return manifest }
        let manifest = try folder.loadManifest(deferringGroups: intact.sealKept)
        guard manifest.archiveDigest == intact.digest else {
            throw WriteError(description: "\(folder.manifestPath) changed while this run read it: run the publish again")
        }
        return manifest
    }

    /// Keeps the seal that checking `intact` file by file made (a run that changed nothing),
    /// so that the next run need not check each file again. Only Herald's own hidden file is
    /// written; failing to write it costs the next run time, nothing else.
    public func keepSeal(_ intact: IntactFolder) {
        guard case .made(let seal) = intact.source else { return }
        if let manifest = intact.manifest { memory?.remember(seal, manifest: manifest) }
        folder.writeSeal(seal)
    }

    /// After a run: the seal of the folder as it left it, from what it carried over from the
    /// check it started with (`intact`, or the seal kept beside an unchanged manifest) and
    /// stamps of the folders of the apps it changed (of every folder, when it has nothing to
    /// carry over). Written beside the manifest, and remembered; when a folder cannot be sealed
    /// (a file missing, a folder written all the time), there is no seal and the next run checks
    /// every file.
    func reseal(_ manifest: SiteManifest, changedApps: Set<String>, intact: IntactFolder?) {
        guard let root = try? folder.openRoot() else { return }
        defer { close(root) }
        var info = stat()
        guard fstatat(root, SiteManifest.fileName, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else {
            memory?.remember(nil, manifest: manifest)
            return
        }
        let identity = FolderSeal.Stamp(info)
        let size = Int64(info.st_size)
        if changedApps.isEmpty, let intact, intact.sealKept, let seal = intact.seal, seal.goes(with: identity, size: size) {
            memory?.remember(seal, manifest: manifest)
            return
        }
        // The seal kept beside the manifest this run started from, made over line by line: the
        // changed apps' folders stamped afresh, every other line copied (a run with a memory
        // keeps a seal value instead, made below).
        if memory == nil, !changedApps.isEmpty, case .kept(let bytes)? = intact?.source {
            if let stamps = Self.stamps(ofFoldersOf: Self.paths(of: changedApps, in: manifest), root: root),
                let patched = FolderSeal.patched(
                    bytes, manifest: identity, size: size, fileCount: manifest.fileCount, changedApps: changedApps, stamps: stamps)
            {
                folder.writeSeal(bytes: patched)
            } else {
                folder.removeSeal()
            }
            return
        }
        let carried = intact?.seal?.folders
        if carried == nil, changedApps.isEmpty,
            let kept = SiteFolder.readIfRegular(folder.sealPath, expectedSize: nil).flatMap(FolderSeal.parse),
            kept.goes(with: identity, size: size), kept.holds(root: root)
        {
            memory?.remember(kept, manifest: manifest)
            return
        }
        var stamps: [String: FolderSeal.Stamp] = [:]
        let paths: [String]
        if let carried {
            for (name, stamp) in carried where !changedApps.contains(String(SiteManifest.appFolderPrefix(of: name))) {
                stamps[name] = stamp
            }
            paths = Self.paths(of: changedApps, in: manifest)
        } else {
            paths = manifest.apps.values.flatMap(\.files.keys)
        }
        var sealed: FolderSeal?
        if let fresh = Self.stamps(ofFoldersOf: paths, root: root) {
            stamps.merge(fresh) { $1 }
            sealed = FolderSeal(manifest: identity, manifestSize: size, fileCount: manifest.fileCount, folders: stamps)
        }
        memory?.remember(sealed, manifest: manifest)
        if let sealed { folder.writeSeal(sealed) } else { folder.removeSeal() }
    }

    /// The paths of the files `manifest` lists for `apps`.
    private static func paths(of apps: Set<String>, in manifest: SiteManifest) -> [String] {
        apps.flatMap { manifest.apps[$0]?.files.keys.map { $0 } ?? [] }
    }

    /// The stamp of every folder that holds one of `paths`, each file seen there; nil when one
    /// cannot be sealed (a file missing, a folder still changing, a file at the root).
    private static func stamps(ofFoldersOf paths: [String], root: Int32) -> [String: FolderSeal.Stamp]? {
        guard let folders = FolderSeal.folders(of: paths) else { return nil }
        var stamps: [String: FolderSeal.Stamp] = [:]
        for (name, found) in FolderSeal.stamp(folders, root: root) {
            guard case .sealed(let stamp) = found else { return nil }
            stamps[name] = stamp
        }
        return stamps
    }
}

extension FolderSeal {
    /// Made for the manifest file `identity` of `size` bytes?
    func goes(with identity: Stamp, size: Int64) -> Bool {
        manifest == identity && manifestSize == size
    }
}

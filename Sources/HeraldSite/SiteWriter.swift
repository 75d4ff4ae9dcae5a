import Foundation
import HeraldCore
import HeraldPublish

/// The one writer of the published site. Writes a file only when its bytes differ from what
/// is on disk (temp file in the same directory, then rename: a reader never sees half a
/// file); leaves unchanged files untouched, mtime included (devices revalidate with
/// If-Modified-Since); removes files it published before and no longer publishes — only
/// those; never writes outside its folder or through a symlink.
///
/// Each run looks at the folder (`SiteFolder`), decides everything it will do without
/// touching it (`SitePlan`, pure), then has `SiteFolder` carry that out.
public struct SiteWriter: Sendable {
    public let root: URL

    public struct Outcome: Equatable, Sendable {
        public var written: [String] = []
        public var unchanged = 0
        public var removed: [String] = []
        public var manifest = SiteManifest()
        /// The manifest as the run history keeps it (set when the manifest was written).
        public var archive: ManifestArchive.Packed?

        public init() {}
    }

    public struct WriteError: Error, CustomStringConvertible {
        /// Why a run stopped: the folder was refused, or an operation on it failed.
        public enum Kind: Sendable {
            /// The folder was refused (a symlink, a path Herald could not have written, a file
            /// where the folder should be): trying again changes nothing until someone fixes it.
            case refused
            /// A read or write failed (a full disk, a permission): it may work next time.
            case failed
        }

        public let description: String
        public let kind: Kind

        public init(description: String, kind: Kind = .failed) {
            self.description = description
            self.kind = kind
        }

        /// A folder refused: `description` says what is wrong and how to fix it.
        static func refusal(_ description: String) -> WriteError { WriteError(description: description, kind: .refused) }

        public var isRefusal: Bool { kind == .refused }
    }

    /// The Herald this writer writes for, recorded in the manifest (nil: leave what is there).
    public var owner: SiteManifest.Owner?

    /// What a long-running publisher remembers of this folder between runs (nil: nothing).
    public var memory: FolderMemory?

    public init(root: URL, owner: SiteManifest.Owner? = nil, memory: FolderMemory? = nil) {
        self.root = root.standardizedFileURL
        self.owner = owner
        self.memory = memory
        folder = SiteFolder(rootPath: self.root.path)
    }

    /// The filesystem layer that reads the folder and carries out each run's `SitePlan`.
    let folder: SiteFolder

    /// Makes the folder hold `files`. `scope` lists the path prefixes this publish manages
    /// (`[["acme"]]` for one tenant); files outside it are neither removed nor forgotten.
    /// `previous`: the manifest as `intactState()` read it, when the caller has checked it
    /// against the run history (its shard digests are then trusted, not recomputed).
    /// `loaded`: the folder's manifest as `loadManifest()` gave it earlier in this run, under
    /// the same publish lock (a `--full` run reads it while the database is read).
    /// `intact`: the check `previous` came from, whose seal is carried over for the folders of
    /// the apps this run leaves as they are.
    @discardableResult
    public func sync(
        _ files: [SiteFile], scope: [[String]]? = nil, previous known: SiteManifest? = nil,
        loaded: Result<SiteManifest, any Error>? = nil, intact: IntactFolder? = nil
    ) throws -> Outcome {
        try folder.createRoot()
        folder.sweepRootTemporaries()
        // What is there, then what to do about it (compared first: when nothing differs,
        // nothing is touched, not even the manifest), then doing it. A manifest or marker
        // naming a path Herald could not have written refuses the run: files are removed on
        // their word.
        let previous = try known ?? (loaded?.get() ?? folder.loadManifest()).forgettingShardDigests()
        let unfinished = try folder.loadMarker()
        let found = try folder.find(files)
        let plan = SitePlan(files: files, found: found, previous: previous, unfinished: unfinished, scope: scope, owner: owner)
        var outcome = Outcome()
        outcome.unchanged = plan.unchanged
        outcome.manifest = plan.manifest
        if plan.isEmpty {
            reseal(plan.manifest, changedApps: [], intact: intact)
            return outcome
        }
        // A symlink (or a file) planted where a folder of a file to remove was refuses the
        // run before anything changes; removal walks without following symlinks anyway.
        try folder.checkRemovals(plan.remove)
        // The manifest's bytes, made before anything is written; the manifest keeps its apps'
        // lines, for a long-running publisher's next run.
        var manifest = plan.manifest
        let manifestBytes = manifest.serializing(reusing: plan.archive?.shards ?? [:])
        outcome.removed = try folder.carryOut(plan, manifest: manifestBytes)
        outcome.written = plan.written
        outcome.archive = plan.archive
        outcome.manifest = manifest
        let changedApps = Set((plan.written + plan.remove).map { String(SiteManifest.appFolderPrefix(of: $0)) })
        reseal(manifest, changedApps: changedApps, intact: intact)
        return outcome
    }

    /// The folder as the last run left it, if that run completed and every file it lists is
    /// still there: the manifest and the digest it is archived under.
    public func intactState() -> (manifest: SiteManifest, digest: String)? {
        guard let intact = intactFolder(), let manifest = try? manifest(of: intact) else { return nil }
        return (manifest, intact.digest)
    }

    /// The first lines of the folder's manifest (nil when there is none, or they are not a
    /// manifest's): who owns the folder, without reading the megabytes of its file lines.
    public func manifestHeader() -> SiteManifest.Header? {
        let descriptor = open(folder.manifestPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let size = ReadBuffer.regularFileSize(descriptor) else { return nil }
        var prefix = [UInt8](repeating: 0, count: 4096)
        let read = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read > 0 else { return nil }
        return SiteManifest.header(prefix[..<read], wholeFile: read == size)
    }

    /// The folder's manifest as `sync` reads it (refused, thrown, as `sync` would refuse it),
    /// for reading it ahead of `sync(_:loaded:)`.
    public func loadManifest() throws -> SiteManifest {
        try folder.loadManifest()
    }

    /// The manifest as a run checks it before removing files on its word: refused (thrown,
    /// with the message a run gives) when it or a dead run's marker is not a regular file or
    /// names a path Herald could not have written. A dry run says so as the run would.
    public func checkedManifest() throws -> SiteManifest {
        _ = try folder.loadMarker()
        return try folder.loadManifest()
    }

    /// What the folder holds at each of `paths` (relative): a dry run's "before", read as a
    /// run reads, never through a symlink below the folder (one refuses, as the run would).
    public func currentContents(of paths: [String]) throws -> [String: [UInt8]] {
        try folder.contents(of: paths)
    }

    /// The manifest of what is published here now (empty when there is none or it is refused).
    public func readManifest() -> SiteManifest {
        folder.readManifest()
    }
}

import HeraldCore

/// What one sync does to the site folder, decided from what was found there without touching
/// it: the files to write (in folders that exist, or in new folders that appear whole), the
/// files to remove, and the manifest to leave. Pure; `SiteFolder` carries it out, and
/// `SiteWriter` joins the two.
struct SitePlan: Sendable {
    /// Where a file goes, as `SiteFolder.locate` found it.
    struct Location: Sendable {
        /// The file's full path.
        let target: String
        /// The first of its folders that does not exist yet (below the tenant's: an app, a
        /// locale, a stories folder), if any: it is filled under a hidden name, then renamed.
        let newFolder: String?
        /// The tenant's folder, when it does not exist yet (made before anything is written).
        let missingTenant: String?
    }

    /// What was found where one file goes.
    struct Found: Sendable {
        let location: Location
        /// Its bytes are on disk already.
        let same: Bool
    }

    /// A changed file and where it goes.
    struct Write: Sendable {
        let file: SiteFile
        let location: Location
    }

    /// A folder that does not exist yet and every changed file inside it.
    struct NewFolder: Sendable {
        let folder: String
        let files: [Write]
    }

    /// Nothing differs: nothing is touched, not even the manifest.
    var isEmpty = false
    /// A run died part-way here (marker left, or manifest incomplete): its temp files and
    /// hidden folders are swept before anything is written.
    var sweep = false
    /// The marker, written before any file: the paths the manifest does not know yet, so a
    /// run that dies half-way is cleaned up after.
    var marker: [UInt8] = []
    /// Tenant folders to make before writing.
    var tenantFolders: [String] = []
    /// Changed files in folders that exist: each written beside its target and renamed over it.
    var replace: [Write] = []
    /// New folders, in path order, each made whole under a hidden name and renamed into place.
    var newFolders: [NewFolder] = []
    /// Files published here before and no longer (relative paths, sorted).
    var remove: [String] = []
    /// The manifest the run leaves, written last.
    var manifest: SiteManifest
    /// The manifest as the run history keeps it (nil when nothing is written).
    var archive: ManifestArchive.Packed?
    /// Every changed file, in the order of the files asked for.
    var written: [String] = []
    var unchanged = 0

    /// `files` with what was `found` where each goes (same order); `previous`: the manifest
    /// the folder holds, `unfinished`: the marker a dead run left there, if any; `scope`: the
    /// path prefixes this sync manages (`[["acme"]]` for one tenant; nil: all), outside which
    /// files are neither removed nor forgotten.
    init(files: [SiteFile], found: [Found], previous known: SiteManifest, unfinished: [UInt8]?, scope: [[String]]?) {
        var previous = known
        // The new paths a dead run announced are remembered, so they are removed if no longer published.
        if let unfinished {
            for line in unfinished.split(separator: UInt8(ascii: "\n")) {
                let path = String(decoding: line, as: UTF8.self)
                if previous[path] == nil { previous[path] = "" }
            }
            previous.complete = false
        }
        sweep = !previous.complete
        // Scopes name a tenant or an app; whole app folders are in or out.
        let prefixes = scope?.map { $0.joined(separator: "/") + "/" }
        func inScope(_ folder: String) -> Bool {
            guard let prefixes else { return true }
            let folder = folder + "/"
            return prefixes.contains { folder.hasPrefix($0) }
        }

        manifest = SiteManifest(apps: previous.apps.filter { !inScope($0.key) })
        var changed: [Write] = []
        for (file, found) in zip(files, found) {
            let path = file.path.description
            if found.same { unchanged += 1 } else { changed.append(Write(file: file, location: found.location)) }
            manifest.apps[SiteManifest.appFolder(of: path), default: SiteManifest.AppFiles()].files[path] = file.digest
        }
        // Apps in scope whose files differ from the previous run's (each compared once here,
        // not again below: a --full run compares thousands of apps).
        var differing = 0
        for (folder, app) in previous.apps where inScope(folder) {
            let now = manifest.apps[folder]
            if now?.files == app.files {
                manifest.apps[folder]?.shardDigest = app.shardDigest  // same files: same shard
            } else {
                differing += 1
                remove += app.files.keys.filter { now?.files[$0] == nil }
            }
        }
        remove.sort()
        if changed.isEmpty, remove.isEmpty, previous.complete, differing == 0, previous.apps.count == manifest.apps.count,
            previous.apps.allSatisfy({ inScope($0.key) || manifest.apps[$0.key]?.files == $0.value.files })
        {
            isEmpty = true
            return
        }

        var newPaths = ""
        for item in changed where previous[item.file.path.description] == nil {
            newPaths += item.file.path.description + "\n"
        }
        marker = Array(newPaths.utf8)
        tenantFolders = Set(changed.compactMap(\.location.missingTenant)).sorted()
        // In folders that exist, one file at a time; a new folder with all its files (one
        // rename, not one per file: a cold publish makes thousands).
        replace = changed.filter { $0.location.newFolder == nil }
        newFolders = Dictionary(grouping: changed.filter { $0.location.newFolder != nil }) { $0.location.newFolder ?? "" }
            .sorted { $0.key < $1.key }
            .map { NewFolder(folder: $0.key, files: $0.value) }
        written = changed.map { $0.file.path.description }
        let archive = ManifestArchive.pack(manifest)
        manifest = archive.manifest
        manifest.archiveDigest = archive.indexDigest
        self.archive = archive
    }
}

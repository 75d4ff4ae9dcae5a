import HeraldCore
import HeraldPublish

/// What one sync does to the site folder, decided from what was found there without touching
/// it: the files to write (in folders that exist, or in new folders that appear whole), the
/// files to remove, and the manifest to leave. Pure; `SiteFolder` carries it out, and
/// `SiteWriter` joins the two.
struct SitePlan: Sendable {
    /// Where a file goes, as `SiteFolder.locate` found it.
    struct Location: Sendable {
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
    /// `owner`: the Herald that writes the folder (nil: keep what the manifest says).
    init(
        files: [SiteFile], found: [Found], previous known: SiteManifest, unfinished: [UInt8]?, scope: [[String]]?,
        owner: SiteManifest.Owner? = nil
    ) {
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
        manifest.owner = owner ?? previous.owner
        // Each changed file goes straight where it is written from (in place, or with its new
        // folder): one copy of each, not one per pass (a cold publish changes tens of thousands).
        var newFolderFiles: [(folder: String, files: [Write])] = []
        var newFolderIndex: [String: Int] = [:]  // a folder's group, for files not next to its others
        var tenants: Set<String> = []
        var lastTenant: String?
        var newPaths: [UInt8] = []
        var changedCount = 0
        // An app's files come one after another: its previous files are looked up once per
        // app, and each file compared with the previous run's as it comes. An app whose files
        // all match, as many as before, is the same app: its previous entries are kept as they
        // are (no second comparison below, and no entries gathered: a --full run compares
        // thousands of apps that did not change). An app's entries are gathered only once one
        // of its files differs, or they do not come in path order (which proves them distinct).
        var folder = ""
        var appStart = 0
        var previousApp: SiteManifest.AppFiles?
        var gathered: [String: String]?
        var sameAsBefore: Set<String> = []
        func entries(_ range: Range<Int>) -> [String: String] {
            var entries: [String: String] = [:]
            entries.reserveCapacity(range.count)
            for index in range { entries[files[index].path.description] = files[index].digest }
            return entries
        }
        func keep(upTo end: Int) {
            guard end > appStart else { return }
            if manifest.apps[folder] == nil {
                if gathered == nil, let previousApp, previousApp.files.count == end - appStart {
                    sameAsBefore.insert(folder)
                    manifest.apps[folder] = previousApp
                } else {
                    manifest.apps[folder] = SiteManifest.AppFiles(files: gathered ?? entries(appStart..<end))
                }
            } else {
                sameAsBefore.remove(folder)  // more files for an app seen before: compared in full below
                manifest.apps[folder]?.files.merge(gathered ?? entries(appStart..<end)) { $1 }
            }
        }
        // By index: a pair taken out of the arrays is a copy of every field (retains, then releases).
        let count = min(files.count, found.count)
        for index in 0..<count {
            let path = files[index].path.description
            let fileFolder = SiteManifest.appFolderPrefix(of: path)
            if fileFolder != folder {
                keep(upTo: index)
                folder = String(fileFolder)
                appStart = index
                previousApp = previous.apps[folder]
                gathered = previousApp == nil ? [:] : nil
            }
            let before = previousApp?.files[path]
            if gathered != nil {
                gathered?[path] = files[index].digest
            } else if before != files[index].digest || (index > appStart && files[index - 1].path.description >= path) {
                gathered = entries(appStart..<(index + 1))
            }
            if found[index].same {
                unchanged += 1
            } else {
                changedCount += 1
                if before == nil {
                    newPaths += path.utf8
                    newPaths.append(UInt8(ascii: "\n"))
                }
                if let tenant = found[index].location.missingTenant, tenant != lastTenant {
                    tenants.insert(tenant)
                    lastTenant = tenant
                }
                let write = Write(file: files[index], location: found[index].location)
                if let newFolder = write.location.newFolder {
                    // Files come in path order: a folder's files follow one another.
                    if let last = newFolderFiles.indices.last, newFolderFiles[last].folder == newFolder {
                        newFolderFiles[last].files.append(write)
                    } else if let index = newFolderIndex[newFolder] {
                        newFolderFiles[index].files.append(write)
                    } else {
                        newFolderIndex[newFolder] = newFolderFiles.count
                        newFolderFiles.append((newFolder, [write]))
                    }
                } else {
                    replace.append(write)
                }
            }
        }
        keep(upTo: count)
        // Apps in scope whose files differ from the previous run's (each compared once here,
        // not again below: a --full run compares thousands of apps).
        var differing = 0
        for (folder, app) in previous.apps where inScope(folder) {
            let now = manifest.apps[folder]
            if sameAsBefore.contains(folder) || now?.files == app.files {
                manifest.apps[folder]?.shardDigest = app.shardDigest  // same files: same shard
            } else {
                differing += 1
                remove += app.files.keys.filter { now?.files[$0] == nil }
            }
        }
        remove.sort()
        if changedCount == 0, remove.isEmpty, previous.complete, differing == 0, previous.apps.count == manifest.apps.count,
            previous.owner == manifest.owner,
            previous.apps.allSatisfy({ folder, app in inScope(folder) || manifest.apps[folder]?.sameFiles(as: app) == true })
        {
            isEmpty = true
            return
        }

        marker = newPaths
        tenantFolders = tenants.sorted()
        // In folders that exist, one file at a time (`replace`); a new folder with all its
        // files (one rename, not one per file: a cold publish makes thousands).
        newFolders = newFolderFiles.sorted { $0.folder < $1.folder }.map { NewFolder(folder: $0.folder, files: $0.files) }
        written.reserveCapacity(changedCount)
        for index in files.indices where index < found.count && !found[index].same { written.append(files[index].path.description) }
        let archive = ManifestArchive.pack(manifest)
        let owner = manifest.owner
        manifest = archive.manifest
        manifest.archiveDigest = archive.indexDigest
        manifest.owner = owner
        self.archive = archive
    }
}

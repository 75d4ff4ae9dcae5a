import HeraldCore

/// Where a test can stop the site writer (`CrashPoint`), in the order a run reaches them.
public enum SiteCrashPoint: String, CrashPoint.Phase {
    /// The marker's temp copy is written, not yet renamed into place: no marker yet.
    case markerTemp = "site.marker-temp"
    /// The marker announcing the run (`.herald-writing`) is written; no file yet.
    case marker = "site.marker"
    /// A changed file's temp copy is written beside it, not yet renamed over it.
    case tempFile = "site.temp-file"
    /// A changed file in an existing folder is renamed into place.
    case file = "site.file"
    /// A file is written into a new folder that is still under its hidden name.
    case folderFile = "site.folder-file"
    /// A new folder is filled under its hidden name, not yet renamed into place.
    case folder = "site.folder"
    /// The files others name (views, stories) and new folders are in place; the files
    /// naming them in existing folders (control.json, notifications.plist) are not yet.
    case namingFiles = "site.naming-files"
    /// Every file is written; files no longer published are not removed yet.
    case removals = "site.removals"
    /// Files are written and removed; the manifest is not written yet.
    case manifest = "site.manifest"
    /// The manifest is written; the marker is not removed yet.
    case markerRemoval = "site.marker-removal"
}

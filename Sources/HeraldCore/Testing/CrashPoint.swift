import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook — the only one in HeraldCore, and its only reach outside pure values: it
/// reads one environment variable and can kill the process. With
/// `HERALD_TEST_CRASH_AT=<phase>` (or `<phase>:<n>`, the n-th time any thread reaches it) the
/// process sends itself SIGKILL at that point, as a `kill -9` landing at that instant would;
/// tests run the real binary stopped at each named phase and check what it left behind.
/// Without the variable, `reached` costs a load and a compare.
public enum CrashPoint {
    public enum Phase: String, CaseIterable, Sendable {
        // The site writer (HeraldPublish), in the order a run reaches them.
        /// The marker's temp copy is written, not yet renamed into place: no marker yet.
        case siteMarkerTemp = "site.marker-temp"
        /// The marker announcing the run (`.herald-writing`) is written; no file yet.
        case siteMarker = "site.marker"
        /// A changed file's temp copy is written beside it, not yet renamed over it.
        case siteTempFile = "site.temp-file"
        /// A changed file in an existing folder is renamed into place.
        case siteFile = "site.file"
        /// A file is written into a new folder that is still under its hidden name.
        case siteFolderFile = "site.folder-file"
        /// A new folder is filled under its hidden name, not yet renamed into place.
        case siteFolder = "site.folder"
        /// The files others name (views, stories) and new folders are in place; the files
        /// naming them in existing folders (control.json, notifications.plist) are not yet.
        case siteNamingFiles = "site.naming-files"
        /// Every file is written; files no longer published are not removed yet.
        case siteRemovals = "site.removals"
        /// Files are written and removed; the manifest is not written yet.
        case siteManifest = "site.manifest"
        /// The manifest is written; the marker is not removed yet.
        case siteMarkerRemoval = "site.marker-removal"

        // Campaigns as code (HeraldStore).
        /// An apply's changes are written in its transaction, not yet committed.
        case applyWritten = "apply.written"

        // Event ingest (HeraldStore), per batch.
        /// A batch is COPYed into staging inside its transaction, not yet stored.
        case ingestCopied = "ingest.copied"
        /// A batch's transaction has committed.
        case ingestCommitted = "ingest.committed"
    }

    /// The environment variable that arms a crash point.
    public static let variable = "HERALD_TEST_CRASH_AT"

    /// Stops the process here if the environment names `phase` and this is its n-th arrival.
    public static func reached(_ phase: Phase) {
        guard let armed, armed.phase == phase else { return }
        if armed.arrivals.wrappingAdd(1, ordering: .relaxed).newValue == armed.nth {
            kill(getpid(), SIGKILL)
            _exit(137)  // not reached: SIGKILL cannot be caught
        }
    }

    /// The point the environment names, read once.
    private static let armed: Armed? = {
        guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1)
        guard let phase = Phase(rawValue: String(parts[0])),
            let nth = parts.count == 2 ? Int(parts[1]) : 1, nth >= 1
        else {
            // A misspelt phase must not pass for "never reached": refuse loudly.
            let message = "herald: \(variable)=\(value) names no crash point: " + Phase.allCases.map(\.rawValue).joined(separator: ", ") + " (then :N for the n-th time)\n"
            _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            exit(70)
        }
        return Armed(phase: phase, nth: nth)
    }()

    private final class Armed: Sendable {
        let phase: Phase
        let nth: Int
        let arrivals = Atomic<Int>(0)

        init(phase: Phase, nth: Int) {
            self.phase = phase
            self.nth = nth
        }
    }
}

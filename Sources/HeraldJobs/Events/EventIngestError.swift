/// Why an ingest stopped (rejected lines do not stop it: they are counted and reported).
public enum EventIngestError: Error {
    /// The input file cannot be opened.
    case inputUnreadable(path: String, reason: String)
    /// Reading the open input failed.
    case inputFailed(reason: String)
    /// The input cannot be parsed at all (a CSV header without a needed column, say).
    case malformedInput(String)
    /// The rejects file cannot be created.
    case rejectsUnwritable(path: String)
    /// Storing failed after `stored` events were committed; running the same input again
    /// finishes the work (stored events count as duplicates).
    case interrupted(stored: Int, reason: any Error)
}

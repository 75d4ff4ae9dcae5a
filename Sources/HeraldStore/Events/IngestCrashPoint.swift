import HeraldCore

/// Where a test can stop an event ingest (`CrashPoint`), per batch.
public enum IngestCrashPoint: String, CrashPoint.Phase {
    /// A batch is COPYed into staging inside its transaction, not yet stored.
    case copied = "ingest.copied"
    /// A batch's transaction has committed.
    case committed = "ingest.committed"
}

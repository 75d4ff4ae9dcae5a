import HeraldCore

/// Where a test can stop an apply (`CrashPoint`).
public enum ApplyCrashPoint: String, CrashPoint.Phase {
    /// An apply's changes are written in its transaction, not yet committed.
    case written = "apply.written"
}

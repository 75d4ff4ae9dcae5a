/// What a publish read: its transaction's snapshot (`pg_current_snapshot()`), and the
/// PostgreSQL cluster it was taken on. Transaction ids mean something on their own cluster
/// only: after a restore onto another server, a snapshot from the old one would make changes
/// look seen that were never published.
public struct SourceSnapshot: Equatable, Sendable {
    public let cluster: String
    public let snapshot: String

    public init(cluster: String, snapshot: String) {
        self.cluster = cluster
        self.snapshot = snapshot
    }

    /// Both recorded, or none (a run recorded before clusters were is compared in full).
    init?(cluster: String?, snapshot: String?) {
        guard let cluster, let snapshot else { return nil }
        self.init(cluster: cluster, snapshot: snapshot)
    }
}

import Foundation
import HeraldCore
import PostgresClient

/// Which apps' published files can have changed since an earlier publish: apps whose rows
/// (or whose campaigns' rows) changed in a transaction that publish did not see, and apps
/// with a campaign that started or ended between the two publish times.
public struct ChangeTracker {
    let connection: Connection

    public init(_ session: OperatorSession) {
        connection = session.connection
    }

    /// The snapshot of the current transaction, to record with a run.
    public func currentSnapshot() throws -> SourceSnapshot {
        let row = try connection.query(.currentSnapshot)[0]
        return SourceSnapshot(cluster: try row.decode("cluster"), snapshot: try row.decode("s"))
    }

    /// App ids to republish, given the snapshot and publish time of the previous run; nil when
    /// that snapshot was taken on another cluster (a restored database): it tells nothing here.
    public func changedApps(since previous: SourceSnapshot, current: SourceSnapshot, previousAt: Date, at: Date) throws -> Set<Int64>? {
        guard previous.cluster == current.cluster else { return nil }
        let edited = try connection.query(AppsEditedSince(snapshot: previous.snapshot))
        let crossed = try connection.query(AppsWithCampaignsStartingOrEnding(previousAt: previousAt, at: at))
        var apps = Set<Int64>()
        for row in Array(edited) + Array(crossed) {
            if let id = try row.decode("app_id", as: Int64?.self) { apps.insert(id) }
        }
        return apps
    }
}

extension OperatorSession {
    public var changes: ChangeTracker { ChangeTracker(self) }
}

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
    public func currentSnapshot() throws -> String {
        try connection.query(.currentSnapshot)[0].decode("s")
    }

    /// App ids to republish, given the snapshot and publish time of the previous run.
    public func changedApps(since snapshot: String, previousAt: Date, at: Date) throws -> Set<Int64> {
        let edited = try connection.query(AppsEditedSince(snapshot: snapshot))
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

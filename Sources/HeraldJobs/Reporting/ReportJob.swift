import HeraldCore
import HeraldStore

/// Reports on delivery events (`herald report`), read from the `reporting` views analysts query.
public struct ReportJob {
    let database: HeraldDatabase

    public init(_ database: HeraldDatabase) {
        self.database = database
    }

    public enum Kind: String, CaseIterable, Sendable {
        /// Per campaign over the window, with its unique devices of all time.
        case campaigns
        /// Per campaign, day, locale and event kind.
        case daily
        /// One device's events in order.
        case device
    }

    /// The report of `kind` for `filter`; a tenant operator's login reads its own tenant's
    /// rows whatever `filter.tenant` names (another is refused).
    public func report(_ kind: Kind, _ filter: ReportFilter) throws -> ReportTable {
        var filter = filter
        filter.tenant = try database.optionalTenant(filter.tenant)
        return try database.asOperator(readOnly: true) { session in
            switch kind {
            case .campaigns: try session.reports.campaigns(filter)
            case .daily: try session.reports.daily(filter)
            case .device: try session.reports.device(filter)
            }
        }
    }
}

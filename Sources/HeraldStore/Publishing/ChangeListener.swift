import Foundation
import HeraldCore
import PostgresClient

/// A connection of its own that listens for committed changes to the published site (0029: the
/// audit log's trigger notifies the site's channel and each changed tenant's, once per
/// transaction). A notification says only that something changed: the publish that follows
/// reads the database to learn what.
///
/// Not Sendable: owned and used by one thread, like `HeraldDatabase`.
public final class ChangeListener {
    private let connection: Connection

    /// What ended a wait.
    public enum Wake: Sendable, Equatable {
        /// At least one committed transaction changed what is watched.
        case changed
        /// The wake-up descriptor became readable.
        case woken
        case timedOut
    }

    /// Connects as `database`'s login and listens on the channel of the tenant with id
    /// `tenantID` (nil: the whole site). A login that may not watch it is refused.
    public init(_ database: HeraldDatabase, tenantID: Int64?) throws {
        do {
            connection = try Connection(configuration: database.configuration)
            let channel = try connection.query(PublishChannel(tenantID: tenantID))[0].decode("channel", as: String?.self)
            guard let channel else {
                throw StoreError.permissionDenied(
                    "this login may not watch \(tenantID == nil ? "the whole site" : "that tenant"): a tenant's operator watches "
                        + "its own tenant (its login's tenant, or --tenant with it)")
            }
            try connection.listen(channel)
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }

    /// Waits until a change commits, `wakeDescriptor` is readable, or `timeout` passes. A lost
    /// connection throws `StoreError.unavailable`: notifications sent meanwhile are lost.
    public func wait(timeout: Duration?, wakeDescriptor: Int32?) throws -> Wake {
        do {
            switch try connection.waitForNotifications(timeout: timeout, wakeDescriptor: wakeDescriptor) {
            case .notified: return .changed
            case .woken: return .woken
            case .timedOut: return .timedOut
            }
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }

    /// One round trip: a connection that went away without a word (a network that dropped it)
    /// is found out here rather than by waiting forever.
    public func check() throws {
        do {
            try connection.execute("SELECT 1")
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }
}

extension ChangeTracker {
    /// The first moment after `at` at which an active campaign (of the tenant with id
    /// `tenantID`, or of any this login sees) starts or ends; nil when none will.
    public func nextBoundary(after at: Date, tenantID: Int64?) throws -> Date? {
        try connection.query(NextScheduleBoundary(at: at, tenantID: tenantID))[0].decode("next", as: Date?.self)
    }
}

import HeraldCore
import PostgresClient

/// Applies take turns per tenant (0018_apply_locks.sql): an apply holds its tenants' `apply`
/// rows of tenant_locks (0023), FOR UPDATE, in the transaction it plans and writes in, so a second
/// apply of a tenant plans only after the first committed, against what that one wrote.
extension HeraldDatabase {
    /// `StoreError.busy`'s message when another apply holds one of `tenants`.
    public static func applyBusy(_ tenants: [Slug]) -> String {
        let names = tenants.map(\.rawValue).joined(separator: ", ")
        return "another `herald apply` is changing tenant \(names); try again when it ends, or pass --wait to wait for it"
    }

    /// Runs `body` in one transaction that first takes the apply turn of every tenant of
    /// `tenants` (all tenants a campaigns file names). `wait: false` throws
    /// `StoreError.busy(applyBusy)` at once when another apply holds one of them.
    /// `rollingBack`: a dry run, whose transaction is rolled back once `body` returned its value.
    public func transaction<T>(
        applyingTo tenants: [Slug], wait: Bool, rollingBack: Bool = false, _ body: (UnitOfWork) throws -> T
    ) throws -> T {
        var planned: T?
        do {
            let result = try applyTurn(tenants, wait: wait) { unit in
                let result = try body(unit)
                if rollingBack {
                    planned = result
                    throw RolledBack()
                }
                return result
            }
            return result
        } catch is RolledBack {
            guard let planned else { throw StoreError.database("a dry run lost its result") }
            return planned
        }
    }

    /// The rollback of a dry run, thrown out of its transaction.
    private struct RolledBack: Error {}

    private func applyTurn<T>(_ tenants: [Slug], wait: Bool, _ body: (UnitOfWork) throws -> T) throws -> T {
        let names = Set(tenants.map(\.rawValue)).sorted()
        do {
            return try transaction { unit in
                let session = try unit.asOperator()
                let connection = session.connection
                let existing = try connection.query("SELECT count(*) AS n FROM tenants WHERE slug = ANY($1::text[])", [names])
                if try existing[0].decode("n", as: Int.self) < names.count, session.confinedTo == nil {
                    // A tenant the file creates has no row to lock yet: its creators take turns
                    // on one key instead, and whoever comes second finds the tenant made.
                    try Self.takeCreatorsTurn(connection, wait: wait)
                }
                // Tenants made before 0018 (or outside Herald) have no row yet: added here, in
                // this transaction, so a dry run still leaves nothing behind.
                _ = try connection.execute(Self.addApplyRows, [names])
                let nowait = wait ? UnsafeSQL("") : UnsafeSQL(" NOWAIT")  // one of two constant clauses
                _ = try connection.query(
                    """
                    SELECT l.tenant_id FROM tenant_locks l JOIN tenants t ON t.id = l.tenant_id
                    WHERE l.purpose = 'apply' AND t.slug = ANY($1::text[])
                    ORDER BY l.tenant_id
                    FOR UPDATE OF l\(nowait)
                    """, [names])
                let result = try body(unit)
                CrashPoint.reached(ApplyCrashPoint.written)
                return result
            }
        } catch StoreError.busy {
            throw StoreError.busy(Self.applyBusy(tenants))
        }
    }

    private static let addApplyRows: SQL = """
        INSERT INTO tenant_locks (tenant_id, purpose)
        SELECT id, 'apply' FROM tenants WHERE slug = ANY($1::text[])
        ON CONFLICT (tenant_id, purpose) DO NOTHING
        """

    /// The turn of applies that create tenants (Herald's operator's alone: a tenant operator
    /// creates none), until the transaction ends.
    private static func takeCreatorsTurn(_ connection: Connection, wait: Bool) throws {
        let key = AdvisoryLock.applyCreatingTenants.rawValue
        if wait {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [key])
        } else if try !connection.query("SELECT pg_try_advisory_xact_lock($1::bigint) AS taken", [key])[0].decode("taken", as: Bool.self) {
            throw StoreError.busy("")
        }
    }
}

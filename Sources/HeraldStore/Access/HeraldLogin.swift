import HeraldCore
import PostgresClient

/// Who the connected login is to Herald, as the database says (`herald_login()`, keyed on the
/// session's authenticated role, which nothing in the session can change).
public struct HeraldLogin: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Herald's own login (the database owner): every tenant, through herald_operator.
        case owner
        /// A tenant operator (`herald tenant grant-operator`): one tenant, bound by PostgreSQL.
        case tenantOperator = "operator"
        /// A tenant's analyst (`herald tenant grant-reporting`): reads the reporting views.
        case analyst
        /// A login Herald gave nothing.
        case none
    }

    /// The role the session authenticated as.
    public let name: String
    public let kind: Kind
    /// The tenant of a tenant operator or analyst.
    public let tenant: Slug?
    let tenantID: Int64?

    /// The tenant this login is bound to when it operates one tenant only.
    public var operatedTenant: Slug? { kind == .tenantOperator ? tenant : nil }

    /// `functionIsKnown`: the schema is known to be current, so herald_login() is there.
    static func read(_ connection: Connection, functionIsKnown: Bool = false) throws -> HeraldLogin {
        // Before the migrations that know logins, whoever connects is the owner migrating. The
        // function is called, and its absence read from the failure, rather than asked about first.
        let row: Row
        do {
            row = try connection.query(.heraldLogin)[0]
        } catch let error as PostgresError where !functionIsKnown && error.sqlState == .undefinedFunction {
            let name: String = try connection.query(.sessionLogin)[0].decode("login")
            return HeraldLogin(name: name, kind: .owner, tenant: nil, tenantID: nil)
        }
        let kindText: String = try row.decode("kind")
        return HeraldLogin(
            name: try row.decode("login"), kind: Kind(rawValue: kindText) ?? .none,
            tenant: try row.decode("tenant", as: String?.self).map { try Slug($0) }, tenantID: try row.decode("tenant_id"))
    }

    /// Why this login may not act on `tenant`, if it may not.
    func refusal(toActOn tenant: Slug) -> StoreError? {
        switch kind {
        case .owner: nil
        case .tenantOperator where self.tenant == tenant: nil
        case .tenantOperator:
            .permissionDenied("\(name) operates tenant \(self.tenant?.rawValue ?? "?") only: it cannot act on tenant \(tenant)")
        case .analyst, .none: refusalOfHeraldWork
        }
    }

    /// Why this login may do no Herald work at all, if it may not.
    public var refusalOfHeraldWork: StoreError? {
        switch kind {
        case .owner, .tenantOperator: nil
        case .analyst:
            .permissionDenied(
                "\(name) is an analyst login of tenant \(tenant?.rawValue ?? "?"): it reads the reporting views (psql), "
                    + "and herald commands need an operator's login")
        case .none: .permissionDenied("\(name) is not a login of Herald's: herald commands need Herald's own login or a tenant operator's")
        }
    }
}

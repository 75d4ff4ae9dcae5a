import HeraldCore
import PostgresClient

/// Herald's one connection, and the only way to run work on it: every unit of work is one
/// transaction under one of the two roles the schema's row-level security knows.
///
/// - `operator`: cross-tenant work (tenants, publishing);
/// - `tenant`: everything inside one tenant; RLS confines it to that tenant's rows, so a
///   query that forgets its WHERE clause still cannot see or touch another tenant.
///
/// A tenant operator's login (`HeraldLogin`) cannot become herald_operator: its "operator"
/// work runs as herald_tenant in its own tenant, and the database holds it there whatever
/// it asks for. Asking for another tenant is refused here first, in words.
///
/// Not Sendable: the connection is owned here and used from one thread. It never leaves
/// HeraldStore: callers get units of work, schema operations and advisory locks.
public final class HeraldDatabase {
    let connection: Connection
    let configuration: ConnectionConfiguration
    public let actor: String
    private(set) var knownLogin: HeraldLogin?
    /// Whether this connection found the schema to be all this binary carries: then the
    /// functions of every migration are there, and reading the login need not ask first.
    private(set) var schemaIsKnownCurrent = false
    /// A second connection opening beside this one, until `connectAgain` hands it out.
    private var spare: BackgroundMade<HeraldDatabase>?

    /// Connects to `location` and labels the session with `actor` for the audit log.
    public convenience init(location: DatabaseLocation, actor: String) throws {
        try self.init(configuration: location.configuration, actor: actor)
    }

    /// Connects and labels the session with `actor` for the audit log.
    public convenience init(configuration: ConnectionConfiguration, actor: String) throws {
        try self.init(configuration: configuration, actor: actor, known: nil)
    }

    /// `known`: what another connection of the same login found (who the login is, whether
    /// the schema is current), so this one need not ask again.
    private init(configuration: ConnectionConfiguration, actor: String, known: Connector.Known?) throws {
        self.configuration = configuration
        self.actor = actor
        knownLogin = known?.login
        schemaIsKnownCurrent = known?.schemaIsCurrent ?? false
        // The statements of queries/ are parsed before connecting, while libpq may still be
        // loading on its own thread (herald's CHeraldStartup starts it): then not after it.
        _ = Query.embedded
        do {
            // Who acts, for the audit log, and every kind of scan for Herald's own planning (a
            // tenant's login starts with some off, so that the reporting plans it is shown count
            // its own rows only: 0025; Herald shows no plans): set with the session's own settings.
            connection = try Connection(
                configuration: configuration, settings: ["herald.actor": actor, "enable_seqscan": "on", "enable_indexscan": "on"])
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }

    /// Another connection to the same database for the same actor (work spread over connections).
    /// It shares nothing with this one, so it can be handed to another thread. The spare, if
    /// one was opened beside this connection (`keepSpare`), is handed out first, knowing what
    /// this one found.
    public func connectAgain() throws -> sending HeraldDatabase {
        let spare = self.spare
        self.spare = nil
        // A spare that could not connect says nothing: the connection is made again here.
        guard let database = try? spare?.take() else { return try connector.connect() }
        database.knownLogin = knownLogin
        database.schemaIsKnownCurrent = schemaIsKnownCurrent
        return database
    }

    /// Keeps `spare`, a second connection opening on another thread beside this one, for the
    /// next `connectAgain`: for work that will need two (a publish holds its tenants' locks on
    /// one), whose second server process then starts while this one's does.
    public func keepSpare(_ spare: BackgroundMade<HeraldDatabase>) {
        self.spare = spare
    }

    /// How to open another connection of this login and actor, from any thread (a publish
    /// opens its helpers' connections on their own threads, while this one works).
    /// What this connection knows passes on: the same login on the same database is the same
    /// login, so the new connection skips asking who it is and whether the schema is current.
    public var connector: Connector {
        Connector(
            configuration: configuration, actor: actor,
            known: knownLogin.map { Connector.Known(login: $0, schemaIsCurrent: schemaIsKnownCurrent) })
    }

    public struct Connector: Sendable {
        struct Known: Sendable {
            let login: HeraldLogin
            let schemaIsCurrent: Bool
        }

        let configuration: ConnectionConfiguration
        let actor: String
        var known: Known? = nil

        public func connect() throws -> sending HeraldDatabase {
            try HeraldDatabase(configuration: configuration, actor: actor, known: known)
        }
    }

    // MARK: The login

    /// Who this connection's login is, when it is known without asking (the local cluster's
    /// superuser).
    func knowLogin(_ login: HeraldLogin) {
        knownLogin = login
    }

    /// Who this connection's login is to Herald (read once).
    public func login() throws -> HeraldLogin {
        if let knownLogin { return knownLogin }
        let login = try translatingErrors { try HeraldLogin.read(connection, functionIsKnown: schemaIsKnownCurrent) }
        knownLogin = login
        return login
    }

    /// The SCRAM verifier of `password` for `role`, computed on this side: grant functions are
    /// given the verifier, never the password.
    public func passwordVerifier(_ password: String, role: String) throws -> String {
        try translatingErrors { try connection.scramVerifier(password: password, user: role) }
    }

    // MARK: Schema

    public func migrationStatus() throws -> MigrationStatus {
        let status = try afterARestore { try translatingErrors { try Migrator().status(connection) } }
        if status.isCurrent { schemaIsKnownCurrent = true }
        return status
    }

    @discardableResult
    public func migrate(progress: (Migration) -> Void = { _ in }) throws -> [String] {
        let applied = try afterARestore { try translatingErrors { try Migrator().migrate(connection, progress: progress) } }
        schemaIsKnownCurrent = true  // migrate refuses, by throwing, a schema it cannot make current
        return applied
    }

    /// Herald's objects still belong to whoever restored them (`pg_restore --no-owner`) until
    /// a superuser runs `herald migrate` once: a login refused them is told so.
    private func afterARestore<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StoreError.permissionDenied(let message) {
            throw StoreError.permissionDenied(
                "this login may not read or change Herald's schema (\(message)): after a restore, run `herald migrate` once "
                    + "as a superuser (HERALD_DATABASE_URL=\"dbname=herald user=postgres\" herald migrate), which hands Herald's "
                    + "objects back to the database's owner")
        }
    }

    /// Makes Herald's roles, rights, object owners and tenants' logins what the schema needs
    /// (`herald_ensure_access()`): a database restored on a server without them works again.
    /// Returns what was repaired, in words; nothing when all was in place.
    @discardableResult
    public func ensureAccess() throws -> [String] {
        let notes = try translatingErrors { try Migrator().ensureAccess(connection) }
        knownLogin = nil  // the login may have become Herald's own
        return notes
    }

    /// Every command but `migrate` calls this first: it refuses a database whose schema is
    /// not exactly what this binary carries.
    public func requireCurrentSchema() throws {
        let status: MigrationStatus
        do {
            status = try migrationStatus()
        } catch StoreError.permissionDenied(let message) {
            throw StoreError.schema(message)
        }
        if let refusal = Migrator.refusal(status) { throw refusal }
        if !status.pending.isEmpty {
            // What to do comes first: a terminal cuts a long line, and a new database lists every migration.
            let pending = status.pending.map(\.name)
            let names = pending.count > 4 ? "\(pending[0]) … \(pending[pending.count - 1])" : pending.joined(separator: ", ")
            throw StoreError.schema(
                "the database has \(pending.count) pending migration(s); run `herald migrate` first (\(names))")
        }
    }

    // MARK: Advisory locks

    /// Runs `body` holding `lock` for this session (not tied to a transaction: the body may run
    /// several), released when the body ends. `wait: false` throws `StoreError.busy(busyMessage)`
    /// at once when another session holds the lock; `wait: true` waits for it.
    public func withAdvisoryLock<T>(
        _ lock: AdvisoryLock, wait: Bool, busyMessage: @autoclosure () -> String, _ body: () throws -> T
    ) throws -> T {
        try translatingErrors {
            if wait {
                try connection.advisoryLock(lock.rawValue)
            } else if try !connection.tryAdvisoryLock(lock.rawValue) {
                throw StoreError.busy(busyMessage())
            }
        }
        defer { _ = try? connection.advisoryUnlock(lock.rawValue) }
        return try body()
    }

    // MARK: Units of work

    /// One command's work: a single transaction (all or nothing) in which the body picks
    /// the role for each part, operator or one tenant.
    public func transaction<T>(
        _ isolation: TransactionIsolation = .readCommitted, readOnly: Bool = false, importing snapshot: TransactionSnapshot? = nil,
        _ body: (UnitOfWork) throws -> T
    ) throws -> T {
        let login = try login()
        return try translatingErrors {
            try connection.transaction(isolation.level, readOnly: readOnly, importing: snapshot) { tx in
                try body(UnitOfWork(connection: tx, login: login))
            }
        }
    }

    /// Cross-tenant work in one transaction as `herald_operator`.
    public func asOperator<T>(
        _ isolation: TransactionIsolation = .readCommitted, readOnly: Bool = false, importing snapshot: TransactionSnapshot? = nil,
        _ body: (OperatorSession) throws -> T
    ) throws -> T {
        try transaction(isolation, readOnly: readOnly, importing: snapshot) { try body($0.asOperator()) }
    }

    /// `asOperator`, run again (up to `attempts` times in all) when PostgreSQL broke a
    /// deadlock or a serialization conflict by rolling this transaction back: work that
    /// runs beside other connections, where that can happen and a retry is always safe.
    public func asOperatorRetryingConflicts<T>(attempts: Int = 5, _ body: (OperatorSession) throws -> T) throws -> T {
        var attempt = 1
        let login = try login()
        while true {
            do {
                return try connection.transaction { try body(UnitOfWork(connection: $0, login: login).asOperator()) }
            } catch let error as PostgresError where attempt < attempts && Self.isBrokenConflict(error) {
                attempt += 1
            } catch let error as PostgresError {
                throw StoreError.from(error)
            }
        }
    }

    /// A rollback PostgreSQL chose to break a conflict between transactions: a retry may succeed.
    static func isBrokenConflict(_ error: PostgresError) -> Bool {
        error.sqlState == .deadlockDetected || error.sqlState == .serializationFailure
    }

    /// Work inside one tenant in one transaction as `herald_tenant`, with the tenant set.
    /// A read-only unit sees one snapshot for all its statements (REPEATABLE READ, which never
    /// fails a read-only transaction): an export or a `show` read while an apply commits is
    /// either side of that commit, never campaigns from before it with content from after.
    public func inTenant<T>(_ slug: Slug, readOnly: Bool = false, _ body: (TenantSession) throws -> T) throws -> T {
        try transaction(readOnly ? .repeatableRead : .readCommitted, readOnly: readOnly) { try body($0.inTenant(slug)) }
    }

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw StoreError.from(error)
        }
    }
}

/// What a transaction sees of the others (PostgreSQL's isolation levels).
public enum TransactionIsolation: Sendable {
    /// Each statement sees what was committed before it began.
    case readCommitted
    /// Every statement sees one snapshot, taken at the first.
    case repeatableRead
    /// As if the transactions ran one after another; PostgreSQL rolls one back otherwise.
    case serializable

    var level: IsolationLevel {
        switch self {
        case .readCommitted: .readCommitted
        case .repeatableRead: .repeatableRead
        case .serializable: .serializable
        }
    }
}

/// The open transaction of one command. Each call switches the role (and tenant) for
/// the statements that follow; sessions from an earlier call must not be used after it.
public struct UnitOfWork {
    let connection: Connection
    /// Whose transaction this is.
    public let login: HeraldLogin

    /// Cross-tenant work as `herald_operator`; for a tenant operator's login, the same work
    /// confined to its tenant (as herald_tenant: every tenant it sees is its own).
    public func asOperator() throws -> OperatorSession {
        if let refusal = login.refusalOfHeraldWork { throw refusal }
        if login.kind == .tenantOperator, let tenantID = login.tenantID {
            try enter("herald_tenant", tenantID: String(tenantID))
            return OperatorSession(connection: connection, confinedTo: login.tenant)
        }
        try enter("herald_operator", tenantID: "")
        return OperatorSession(connection: connection, confinedTo: nil)
    }

    /// Sets the tenant (`herald.tenant_id`, '' for none) and SET LOCAL ROLE to one of Herald's
    /// roles, in one statement: `set_config('role', r, true)` is what SET LOCAL ROLE r does (the
    /// same membership check, the same errors). It goes with the unit's next statement, in its
    /// round trip (`sendWithNext`), and a failure is that statement's. A server that lacks the
    /// roles is said in words.
    private func enter(_ role: String, tenantID: String) throws {
        try connection.sendWithNext(EnterRole(tenantID: tenantID, role: role)) { error in
            guard error.sqlState == .undefinedObject || error.message.contains("does not exist") else { return error }
            return StoreError.schema(
                "Herald's roles do not exist on this server (a database restored from a dump?): run `herald migrate` "
                    + "(as a superuser once, after a restore)")
        }
    }

    public func inTenant(_ slug: Slug) throws -> TenantSession {
        if let refusal = login.refusal(toActOn: slug) { throw refusal }
        let tenant = try asOperator().tenants.find(slug)
        return try inTenant(tenant)
    }

    public func inTenant(_ tenant: TenantRecord) throws -> TenantSession {
        if let refusal = login.refusal(toActOn: tenant.slug) { throw refusal }
        try enter("herald_tenant", tenantID: String(tenant.id))
        return TenantSession(connection: connection, tenant: tenant)
    }
}

/// A transaction as `herald_operator`, or a tenant operator's as herald_tenant in its tenant.
public struct OperatorSession {
    let connection: Connection
    /// The tenant a tenant operator's session is held to (nil: every tenant).
    public let confinedTo: Slug?
    public var tenants: TenantRepository { TenantRepository(connection: connection) }
}

/// A transaction confined to one tenant.
public struct TenantSession {
    let connection: Connection
    public let tenant: TenantRecord
    public var apps: AppRepository { AppRepository(connection: connection, tenant: tenant) }
    public var campaigns: CampaignRepository { CampaignRepository(connection: connection, tenant: tenant) }
    public var audit: AuditRepository { AuditRepository(connection: connection) }
}

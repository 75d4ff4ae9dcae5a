import Foundation
import HeraldStore
import PostgresClient
import PostgresServer
import Synchronization

/// One throwaway PostgreSQL per test process: started on first use, stopped and deleted at
/// exit. Tests get databases of their own from it (`withTestDatabase`).
public final class PostgresTestServer: Sendable {
    public let server: LocalPostgresServer
    /// The names of templates already prepared.
    private let prepared = Mutex<Set<String>>([])

    private static let sharedState = SharedServer()

    public static func shared() throws -> PostgresTestServer {
        try sharedState.get()
    }

    init() throws {
        // Short path: the socket path must stay under ~100 bytes.
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("herald-pg-\(getpid())-\(UUID().uuidString.prefix(6))")
        // Herald's HERALD_PG_BINDIR picks the PostgreSQL, as for the embedded database.
        server = LocalPostgresServer(
            directory: directory, binaries: try DatabaseEnvironment.locateServerBinaries(ProcessInfo.processInfo.environment))
        server.settings = [
            "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200",
            // As Herald's own local PostgreSQL does (EmbeddedDatabase): every session runs PL/pgSQL.
            "shared_preload_libraries": "plpgsql",
            // Small for tests; the events benchmark asks for a production-like size.
            "shared_buffers": ProcessInfo.processInfo.environment["HERALD_TEST_SHARED_BUFFERS"] ?? "64MB",
        ]
        try server.initializeIfNeeded()
        try server.start()
    }

    public func configuration(database: String, user: String = "postgres") -> ConnectionConfiguration {
        server.configuration(database: database, user: user)
    }

    /// Creates template database `name` once per process: runs `prepare` on it, then marks it a template.
    public func prepareTemplate(_ name: String, _ prepare: (Connection) throws -> Void) throws {
        try prepared.withLock { prepared in
            if prepared.contains(name) { return }
            let admin = try Connection(configuration: configuration(database: "postgres"))
            try admin.execute("CREATE DATABASE \(quoted(name))")
            do {
                let connection = try Connection(configuration: configuration(database: name))
                try prepare(connection)
            } catch {
                // Leave no half-made template behind: the next call would fail on "already exists".
                _ = try? admin.execute("DROP DATABASE IF EXISTS \(quoted(name)) WITH (FORCE)")
                throw error
            }
            try admin.execute("ALTER DATABASE \(quoted(name)) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
            prepared.insert(name)
        }
    }

    /// A new database with a unique name, copied from `template` when given.
    public func createDatabase(template: String? = nil) throws -> String {
        let name = "test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        let admin = try Connection(configuration: configuration(database: "postgres"))
        if let template {
            try admin.execute("CREATE DATABASE \(quoted(name)) TEMPLATE \(quoted(template))")
        } else {
            try admin.execute("CREATE DATABASE \(quoted(name))")
        }
        return name
    }

    public func dropDatabase(_ name: String) throws {
        let admin = try Connection(configuration: configuration(database: "postgres"))
        try admin.execute("DROP DATABASE IF EXISTS \(quoted(name)) WITH (FORCE)")
    }

    func shutDown() {
        try? server.stop()
        try? FileManager.default.removeItem(at: server.directory)
    }

    /// Identifiers here are made by this file (unique names, template constants), never input.
    private func quoted(_ identifier: String) -> UnsafeSQL {
        UnsafeSQL("\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
    }
}

/// A fresh database for the body, dropped afterwards (also when the body throws).
public func withTestDatabase<T>(template: String? = nil, _ body: (ConnectionConfiguration) throws -> T) throws -> T {
    let server = try PostgresTestServer.shared()
    let name = try server.createDatabase(template: template)
    defer { try? server.dropDatabase(name) }
    return try body(server.configuration(database: name))
}

public func withTestDatabase<T: Sendable>(
    template: String? = nil, _ body: (ConnectionConfiguration) async throws -> T
) async throws -> T {
    let server = try PostgresTestServer.shared()
    let name = try server.createDatabase(template: template)
    defer { try? server.dropDatabase(name) }
    return try await body(server.configuration(database: name))
}

/// Starts the shared server once, thread-safely, and stops it when the process exits.
private final class SharedServer: Sendable {
    private let state = Mutex<Result<PostgresTestServer, any Error>?>(nil)

    func get() throws -> PostgresTestServer {
        try state.withLock { state in
            if let state { return try state.get() }
            let made = Result { try PostgresTestServer() }
            if case .success = made { atexit { stopSharedTestServer() } }
            state = made
            return try made.get()
        }
    }

    func stop() {
        state.withLock { state in
            if case .success(let server) = state { server.shutDown() }
        }
    }
}

private func stopSharedTestServer() {
    PostgresTestServer.stopAtExit()
}

extension PostgresTestServer {
    static func stopAtExit() {
        sharedState.stop()
    }
}

import Foundation
import PostgresClient

/// One throwaway PostgreSQL per test process: started on first use, stopped and deleted at
/// exit. Tests get databases of their own from it (`withTestDatabase`).
public final class PostgresTestServer: Sendable {
    public let server: LocalPostgresServer
    private let state = Mutex()

    private static let sharedState = SharedServer()

    public static func shared() throws -> PostgresTestServer {
        try sharedState.get()
    }

    init() throws {
        // Short path: the socket path must stay under ~100 bytes.
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("herald-pg-\(getpid())-\(UUID().uuidString.prefix(6))")
        server = LocalPostgresServer(directory: directory, binaries: try PostgresServerBinaries.locate())
        server.settings = [
            "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200",
            // Small for tests; the events benchmark asks for a production-like size.
            "shared_buffers": ProcessInfo.processInfo.environment["HERALD_TEST_SHARED_BUFFERS"] ?? "64MB",
        ]
        try server.initializeIfNeeded()
        try server.start()
    }

    public func configuration(database: String) -> ConnectionConfiguration {
        server.configuration(database: database)
    }

    /// Creates template database `name` once per process: runs `prepare` on it, then marks it a template.
    public func prepareTemplate(_ name: String, _ prepare: (Connection) throws -> Void) throws {
        try state.withLock { prepared in
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
private final class SharedServer: @unchecked Sendable {
    private let lock = NSLock()
    private var server: PostgresTestServer?
    private var failure: (any Error)?

    func get() throws -> PostgresTestServer {
        try lock.withLock {
            if let server { return server }
            if let failure { throw failure }
            do {
                let server = try PostgresTestServer()
                self.server = server
                atexit { stopSharedTestServer() }
                return server
            } catch {
                failure = error
                throw error
            }
        }
    }

    func stop() {
        lock.withLock { server?.shutDown() }
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

/// The names of templates already prepared, behind a lock.
private final class Mutex: @unchecked Sendable {
    private let lock = NSLock()
    private var prepared: Set<String> = []

    func withLock<T>(_ body: (inout Set<String>) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&prepared)
    }
}

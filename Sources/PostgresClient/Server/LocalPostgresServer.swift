import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL cluster in a directory of its own, reachable only through a unix socket in
/// that directory (no TCP port, so no clashes). The server runs in the foreground as a
/// child of this process: Foundation's Process hangs on `pg_ctl start`, whose daemon
/// inherits the pipe (swift-corelibs-foundation #4795). PostgreSQL refuses to run as root,
/// so as root it runs as the `postgres` OS user.
public final class LocalPostgresServer: @unchecked Sendable {
    // Invariant behind @unchecked Sendable: `process` is only touched under `lock`.
    public let directory: URL
    public let binaries: PostgresServerBinaries
    public var settings: [String: String] = [:]
    private let lock = NSLock()
    private var process: Process?

    public init(directory: URL, binaries: PostgresServerBinaries) {
        self.directory = directory
        self.binaries = binaries
    }

    public var dataDirectory: URL { directory.appendingPathComponent("data") }
    public var socketDirectory: String { directory.path }
    public var logFile: URL { directory.appendingPathComponent("server.log") }

    static var isRoot: Bool { geteuid() == 0 }

    public func configuration(database: String, user: String = "postgres") -> ConnectionConfiguration {
        ConnectionConfiguration(keywords: ["host": socketDirectory, "dbname": database, "user": user])
    }

    /// `initdb` once: trust authentication (the socket is private to the directory's owner).
    public func initializeIfNeeded() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) { return }
        try handOverToPostgresUser(directory)
        let log = directory.appendingPathComponent("initdb.log")
        let status = try runToEnd(
            binaries.initdb,
            ["-D", dataDirectory.path, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
            log: log)
        guard status == 0 else {
            throw PostgresError(kind: .usage, message: "initdb failed (exit \(status)): \(Self.tail(of: log))")
        }
    }

    /// Starts the server and waits until it accepts connections.
    public func start(timeout: TimeInterval = 30) throws {
        var arguments = [
            "-D", dataDirectory.path, "-k", socketDirectory, "-c", "listen_addresses=",
        ]
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            arguments += ["-c", "\(key)=\(value)"]
        }
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        try handOverToPostgresUser(logFile)
        let process = try launch(binaries.postgres, arguments, log: logFile)
        lock.withLock { self.process = process }
        let probe = configuration(database: "postgres")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if Connection.ping(probe) == .ok { return }
            if !process.isRunning { break }
            usleep(50_000)
        }
        try? stop()
        throw PostgresError(kind: .connection, message: "the PostgreSQL server did not start: \(Self.tail(of: logFile))")
    }

    /// Fast shutdown (SIGINT), then waits for the server to exit.
    public func stop() throws {
        guard let process = lock.withLock({ self.process }) else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
        lock.withLock { self.process = nil }
    }

    public var processIdentifier: Int32? { lock.withLock { process?.processIdentifier } }

    // MARK: Running as the postgres user when root

    private func commandLine(_ executable: URL, _ arguments: [String]) -> (URL, [String]) {
        guard Self.isRoot else { return (executable, arguments) }
        // setpriv execs in place, so the child pid is the server itself and signals reach it.
        for setpriv in ["/usr/bin/setpriv", "/bin/setpriv"] where FileManager.default.isExecutableFile(atPath: setpriv) {
            return (
                URL(fileURLWithPath: setpriv),
                ["--reuid=postgres", "--regid=postgres", "--init-groups", executable.path] + arguments
            )
        }
        return (URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "postgres", "--", executable.path] + arguments)
    }

    private func launch(_ executable: URL, _ arguments: [String], log: URL) throws -> Process {
        let (command, fullArguments) = commandLine(executable, arguments)
        let process = Process()
        process.executableURL = command
        process.arguments = fullArguments
        process.currentDirectoryURL = directory
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? output.close()
        return process
    }

    private func runToEnd(_ executable: URL, _ arguments: [String], log: URL) throws -> Int32 {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try launch(executable, arguments, log: log)
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func handOverToPostgresUser(_ url: URL) throws {
        guard Self.isRoot else { return }
        guard let user = getpwnam("postgres") else {
            throw PostgresError(
                kind: .usage,
                message: "running as root needs the `postgres` OS user (created by the postgresql package) to run the server")
        }
        let uid = user.pointee.pw_uid
        let gid = user.pointee.pw_gid
        chown(url.path, uid, gid)
        if let enumerator = FileManager.default.enumerator(atPath: url.path) {
            for case let relative as String in enumerator {
                chown(url.appendingPathComponent(relative).path, uid, gid)
            }
        }
    }

    static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: " | ")
    }
}

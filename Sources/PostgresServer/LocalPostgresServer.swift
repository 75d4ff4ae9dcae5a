import Foundation
import PostgresClient
import Synchronization

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
public final class LocalPostgresServer: Sendable {
    public let directory: URL
    public let binaries: PostgresServerBinaries
    /// The comment line `configureLocalOnly` writes above its settings, and finds to know it did.
    public let localOnlyMarker: String
    private let state = Mutex(State())

    private struct State {
        var settings: [String: String] = [:]
        var process: Process?
    }

    /// `-c` settings for the next `start` (and `configureLocalOnly`).
    public var settings: [String: String] {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    public init(directory: URL, binaries: PostgresServerBinaries, localOnlyMarker: String = "# local only") {
        self.directory = directory
        self.binaries = binaries
        self.localOnlyMarker = localOnlyMarker
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
        let status = try spawnAndWait(
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
        state.withLock { $0.process = process }
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

    // MARK: Who may connect

    /// The first line of the pg_hba.conf `restrictToOwner` writes (and finds, to know it did).
    public static let ownerOnlyMarker = "# owner only: peer for the superuser, passwords for everyone else"

    /// Lets in only `osUser` as the superuser `postgres` (peer authentication through a map:
    /// no password, but only that OS user), and every other role with its password
    /// (SCRAM); makes the cluster's folder, where its socket is, private to the server's OS
    /// user (0700), so no other local user reaches the socket at all. Idempotent; a running
    /// server reloads its authentication at once (the socket's own mode follows at the
    /// next start). Returns whether it changed anything.
    @discardableResult
    public func restrictToOwner(osUser: String) throws -> Bool {
        guard osUser.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }),
            !osUser.isEmpty
        else {
            throw PostgresError(kind: .usage, message: "cannot restrict the local PostgreSQL to the OS user \"\(osUser)\": an unusual name")
        }
        chmod(directory.path, 0o700)
        let hba = dataDirectory.appendingPathComponent("pg_hba.conf")
        let ident = dataDirectory.appendingPathComponent("pg_ident.conf")
        let wantedHba = "\(Self.ownerOnlyMarker)\nlocal all postgres peer map=owner\nlocal all all scram-sha-256\n"
        let wantedIdent = "# the OS user that owns this cluster is its superuser\nowner \(osUser) postgres\n"
        let currentHba = (try? String(contentsOf: hba, encoding: .utf8)) ?? ""
        let currentIdent = (try? String(contentsOf: ident, encoding: .utf8)) ?? ""
        guard currentHba != wantedHba || currentIdent != wantedIdent else { return false }
        try Data(wantedHba.utf8).write(to: hba)
        try Data(wantedIdent.utf8).write(to: ident)
        let conf = dataDirectory.appendingPathComponent("postgresql.conf")
        if let text = try? String(contentsOf: conf, encoding: .utf8), !text.contains(Self.ownerOnlyMarker) {
            let handle = try FileHandle(forWritingTo: conf)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n\(Self.ownerOnlyMarker)\nunix_socket_permissions = 0700\n".utf8))
        }
        for file in [hba, ident, conf] { try handOverToPostgresUser(file) }
        for file in [hba, ident] { chmod(file.path, 0o600) }
        if isAccepting {
            // Still the old rules until the reload: the connection gets in as before.
            try Connection(configuration: configuration(database: "postgres")).execute("SELECT pg_reload_conf()")
        }
        return true
    }

    /// When the caller runs as root the server runs as the `postgres` OS user, which must be able to
    /// enter every folder on the way to the cluster's. The first folder it cannot enter, with its
    /// mode and owner, if there is one (nil when not root, or when every folder lets it in).
    public var folderTheServerCannotEnter: (path: String, mode: String, owner: String)? {
        guard Self.isRoot, let user = getpwnam("postgres") else { return nil }
        let uid = user.pointee.pw_uid
        let gid = user.pointee.pw_gid
        var groups = [gid_t](repeating: 0, count: 64)
        var count = Int32(groups.count)
        getgrouplist(user.pointee.pw_name, gid, &groups, &count)
        let memberOf = Set(groups.prefix(Int(max(0, count))))
        var path = ""
        for component in directory.deletingLastPathComponent().standardizedFileURL.pathComponents.dropFirst() {
            path += "/" + component
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }  // not made yet: created for the server below
            let mode = info.st_mode
            let enters =
                info.st_uid == uid ? mode & S_IXUSR != 0
                : memberOf.contains(info.st_gid) || info.st_gid == gid ? mode & S_IXGRP != 0 : mode & S_IXOTH != 0
            if !enters {
                let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? String(info.st_uid)
                return (path, String(mode & 0o777, radix: 8), owner)
            }
        }
        return nil
    }

    // MARK: As a daemon (the embedded local database)

    /// Has the server load `library` once, when it starts, rather than each new session on its
    /// first use: written into postgresql.conf (under `marker`) unless the cluster already names
    /// libraries to preload, in postgresql.conf or by ALTER SYSTEM, or may in a file it includes
    /// (one more line would replace them), or a file it cannot read as text. Takes effect at the
    /// server's next start. Returns whether it wrote anything.
    @discardableResult
    public func preloadIfNoneNamed(library: String, marker: String) throws -> Bool {
        let conf = dataDirectory.appendingPathComponent("postgresql.conf")
        let auto = dataDirectory.appendingPathComponent("postgresql.auto.conf")
        // What cannot be read may name libraries: nothing is added beside it. (No ALTER SYSTEM
        // file at all is only none.)
        guard let current = try? String(contentsOf: conf, encoding: .utf8) else { return false }
        let system: String
        if FileManager.default.fileExists(atPath: auto.path) {
            guard let text = try? String(contentsOf: auto, encoding: .utf8) else { return false }
            system = text
        } else {
            system = ""
        }
        guard !current.contains(marker), !Self.setsPreloadLibraries(current), !Self.setsPreloadLibraries(system),
            !Self.includesOtherFiles(current)
        else { return false }
        let handle = try FileHandle(forWritingTo: conf)
        defer { try? handle.close() }
        try handle.seekToEnd()
        let quoted = library.replacingOccurrences(of: "'", with: "''")
        try handle.write(contentsOf: Data("\n\(marker)\nshared_preload_libraries = '\(quoted)'\n".utf8))
        return true
    }

    /// Whether a configuration file's text sets shared_preload_libraries: a line (not commented
    /// out) of `shared_preload_libraries = …` or, as PostgreSQL also reads it, without the `=`.
    static func setsPreloadLibraries(_ text: String) -> Bool {
        configurationLines(text).contains { name, rest in
            let value = rest.drop { $0 == " " || $0 == "\t" }
            return name == "shared_preload_libraries"
                && (value.first == "=" || (value.startIndex != rest.startIndex && value.first.map { $0 != "#" } ?? false))
        }
    }

    /// Whether a configuration file's text includes others (`include`, `include_if_exists`,
    /// `include_dir`, not commented out), which may set anything.
    static func includesOtherFiles(_ text: String) -> Bool {
        configurationLines(text).contains { name, _ in ["include", "include_if_exists", "include_dir"].contains(name) }
    }

    /// Each line of a configuration file as the name it starts with (lowercased, after leading
    /// blanks; empty for a comment) and what follows the name.
    private static func configurationLines(_ text: String) -> [(name: String, rest: Substring)] {
        text.split(whereSeparator: \.isNewline).map { line in
            let words = line.drop { $0 == " " || $0 == "\t" }
            let name = words.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return (name.lowercased(), words[name.endIndex...])
        }
    }

    /// Writes the local-only settings into the cluster's own configuration (unix socket in
    /// the cluster's folder, no TCP), so a daemon started by `pg_ctl` needs no options.
    public func configureLocalOnly() throws {
        let conf = dataDirectory.appendingPathComponent("postgresql.conf")
        let marker = localOnlyMarker
        let current = (try? String(contentsOf: conf, encoding: .utf8)) ?? ""
        guard !current.contains(marker) else { return }
        let quoted = socketDirectory.replacingOccurrences(of: "'", with: "''")
        let extra = "\n\(marker)\nlisten_addresses = ''\nunix_socket_directories = '\(quoted)'\n"
            + settings.sorted { $0.key < $1.key }.map { "\($0.key) = '\($0.value.replacingOccurrences(of: "'", with: "''"))'\n" }.joined()
        let handle = try FileHandle(forWritingTo: conf)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(extra.utf8))
    }

    /// Whether a server answers on this cluster's socket.
    public var isAccepting: Bool { Connection.ping(configuration(database: "postgres")) == .ok }

    /// Starts the server as a daemon that outlives this process (`pg_ctl start`, output to
    /// server.log) and waits until it accepts connections. Nothing is piped to pg_ctl, so its
    /// daemon inherits no pipe (the Foundation hang) .
    public func startDetached(timeout: Int = 60) throws {
        guard !isAccepting else { return }
        try configureLocalOnly()
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        try handOverToPostgresUser(logFile)
        let control = directory.appendingPathComponent("pg_ctl.log")
        let status = try spawnAndWait(
            binaries.pgCtl, ["start", "-D", dataDirectory.path, "-l", logFile.path, "-w", "-t", String(timeout)], log: control)
        guard status == 0, isAccepting else {
            throw PostgresError(
                kind: .connection,
                message: "the local PostgreSQL did not start (pg_ctl exit \(status)): \(Self.tail(of: logFile)) \(Self.tail(of: control))")
        }
    }

    /// Stops a daemon started by `startDetached` (fast shutdown); false when none was running.
    @discardableResult
    public func stopDetached() throws -> Bool {
        guard FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) else { return false }
        let control = directory.appendingPathComponent("pg_ctl.log")
        let status = try spawnAndWait(binaries.pgCtl, ["stop", "-D", dataDirectory.path, "-m", "fast", "-w"], log: control)
        guard status == 0 else {
            throw PostgresError(kind: .connection, message: "pg_ctl stop failed (exit \(status)): \(Self.tail(of: control))")
        }
        return true
    }

    /// The daemon's process id, from postmaster.pid.
    public var daemonProcessIdentifier: Int32? {
        guard let text = try? String(contentsOf: dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Fast shutdown (SIGINT), then waits for the server to exit.
    public func stop() throws {
        guard let process = state.withLock({ $0.process }) else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
        state.withLock { $0.process = nil }
    }

    public var processIdentifier: Int32? { state.withLock { $0.process?.processIdentifier } }

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

    /// posix_spawn and waitpid, without Foundation's Process: its wait never returns when the
    /// child leaves a daemon behind (pg_ctl start), which inherits Process's own descriptors.
    private func spawnAndWait(_ executable: URL, _ arguments: [String], log: URL) throws -> Int32 {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        Self.keepDescriptorsFromChildren()
        let (command, fullArguments) = commandLine(executable, arguments)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The child starts in the cluster's folder (the postgres user may not enter ours).
        // posix_spawn has no portable chdir, and this process's own directory is shared by
        // all its threads, so a shell steps there and execs the command.
        let shell = "/bin/sh"
        let argv = ([shell, "-c", "cd \"$0\" && exec \"$@\"", directory.path, command.path] + fullArguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&pid, shell, &actions, nil, UnsafeMutablePointer(mutating: base), environ)
        }
        guard spawned == 0 else {
            throw PostgresError(kind: .usage, message: "cannot run \(command.path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw PostgresError(kind: .usage, message: "waiting for \(command.path) failed") }
        }
        // WIFEXITED / WEXITSTATUS by hand (the C macros are not imported).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Marks every descriptor above stderr close-on-exec, so a daemon started from here holds
    /// none of ours — among them the pipe through which whoever started *us* (a Foundation
    /// Process) waits for our exit, which would otherwise never come.
    private static func keepDescriptorsFromChildren() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for entry in entries {
            guard let descriptor = Int32(entry), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
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

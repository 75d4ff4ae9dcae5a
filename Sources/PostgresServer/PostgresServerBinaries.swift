import Foundation
import PostgresClient

/// Where `initdb` and `postgres` live on this machine.
public struct PostgresServerBinaries: Sendable, Equatable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var initdb: URL { directory.appendingPathComponent("initdb") }
    public var postgres: URL { directory.appendingPathComponent("postgres") }
    public var pgCtl: URL { directory.appendingPathComponent("pg_ctl") }

    /// A folder the caller lets people name (an environment variable, an option): `name` is how
    /// messages refer to that setting, `directory` its value when set.
    public struct Override: Sendable, Equatable {
        public var name: String
        public var directory: String?

        public init(name: String, directory: String?) {
            self.name = name
            self.directory = directory
        }
    }

    /// The override's folder when it names one (that folder or nothing); else `pg_config
    /// --bindir` (found on `environment`'s PATH), then the usual Debian and Homebrew places,
    /// newest version first.
    public static func locate(
        override: Override? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PostgresServerBinaries {
        var candidates: [URL] = []
        if let override, let explicit = override.directory, !explicit.isEmpty {
            // Named explicitly: that folder or nothing.
            let binaries = PostgresServerBinaries(directory: URL(fileURLWithPath: explicit))
            guard FileManager.default.isExecutableFile(atPath: binaries.initdb.path),
                FileManager.default.isExecutableFile(atPath: binaries.postgres.path)
            else {
                throw PostgresError(
                    kind: .usage,
                    message: """
                        \(override.name)=\(explicit) holds no PostgreSQL server binaries (initdb, postgres): install the \
                        `postgresql` package (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@16) \
                        and unset \(override.name), or point it at their folder
                        """)
            }
            return binaries
        }
        if let bindir = pgConfigBindir(environment: environment) { candidates.append(URL(fileURLWithPath: bindir)) }
        for pattern in ["/usr/lib/postgresql", "/opt/homebrew/opt", "/usr/local/opt"] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: pattern)) ?? []
            let versions = entries.filter { pattern == "/usr/lib/postgresql" || $0.hasPrefix("postgresql") }
                .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            candidates += versions.map { URL(fileURLWithPath: pattern).appendingPathComponent($0).appendingPathComponent("bin") }
        }
        candidates += ["/usr/local/bin", "/usr/bin", "/opt/homebrew/bin"].map { URL(fileURLWithPath: $0) }
        for directory in candidates {
            let binaries = PostgresServerBinaries(directory: directory)
            if FileManager.default.isExecutableFile(atPath: binaries.initdb.path),
                FileManager.default.isExecutableFile(atPath: binaries.postgres.path)
            {
                return binaries
            }
        }
        throw PostgresError(
            kind: .usage,
            message: """
                no PostgreSQL server binaries (initdb, postgres) found: install the `postgresql` package \
                (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@16)
                """ + (override.map { ", or set \($0.name) to their folder" } ?? ""))
    }

    private static func pgConfigBindir(environment: [String: String]) -> String? {
        let paths = (environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(separator: ":")
        guard let pgConfig = paths.map({ "\($0)/pg_config" }).first(where: FileManager.default.isExecutableFile(atPath:))
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pgConfig)
        process.arguments = ["--bindir"]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg_config-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        guard let handle = try? FileHandle(forWritingTo: output) else { return nil }
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}

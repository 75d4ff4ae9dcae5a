import Foundation
import HeraldTestSupport
import PostgresClient
import Synchronization

/// A real `herald collect` process (the built binary) on 127.0.0.1 and a free port, against a
/// test database; stopped (SIGKILL unless it already ended) when the test lets go of it.
final class RunningCollector: @unchecked Sendable {  // the Process is only used under `lock`
    let port: Int
    let process: Process
    private let errorFile: URL
    private let scratch: URL
    private let lock = NSLock()

    init(database: ConnectionConfiguration, port wanted: Int = 0, arguments: [String] = [], environment: [String: String] = [:]) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("herald-collect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        errorFile = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process = Process()
        process.executableURL = try HeraldCLI.binaryURL()
        process.arguments = ["collect", "--listen", "127.0.0.1:\(wanted)"] + arguments
        process.environment = HeraldCLI(database: database, environment: environment).environment
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var found: Int?
        while Date() < deadline, found == nil, process.isRunning {
            if let match = Self.firstMatch(#"listening on 127\.0\.0\.1:([0-9]+)"#, in: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "") {
                found = Int(match)
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw CLIRunnerError(message: "herald collect did not start:\n\(try String(contentsOf: errorFile, encoding: .utf8))")
        }
        port = found
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What the collector logged so far.
    var log: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) {
        lock.withLock { if process.isRunning { _ = kill(process.processIdentifier, signal) } }
    }

    /// Waits for the process to end (at most `seconds`); its exit status, nil if it still runs.
    func waitForExit(seconds: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func post(_ body: String, key: String?, contentType: String = "application/x-ndjson", headers: [String: String] = [:]) throws -> HTTPReply {
        var all = headers
        if let key { all["Authorization"] = "Bearer \(key)" }
        all["Content-Type"] = contentType
        return try RawHTTP.request(port: port, method: "POST", path: "/v1/events", headers: all, body: Array(body.utf8))
    }

    func get(_ path: String) throws -> HTTPReply {
        try RawHTTP.request(port: port, method: "GET", path: path, headers: [:], body: [])
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), match.numberOfRanges > 1,
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}

/// A parsed HTTP response.
struct HTTPReply: CustomStringConvertible {
    let status: Int
    let headers: [String: String]
    let body: String

    var description: String { "HTTP \(status) \(headers) \(body)" }

    /// The JSON body as a dictionary (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    var accepted: Int { json["accepted"] as? Int ?? -1 }
    var duplicate: Int { json["duplicate"] as? Int ?? -1 }
    var rejected: [[String: Any]] { json["rejected"] as? [[String: Any]] ?? [] }
}

struct HTTPFailure: Error, CustomStringConvertible {
    let description: String
}

/// HTTP/1.1 over a plain socket, one request per connection (`Connection: close`): full control
/// of what is sent and when, for the tests of slow and malformed clients too.
enum RawHTTP {
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPFailure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw HTTPFailure(description: "connect to 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))")
        }
        return socket
    }

    static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HTTPFailure(description: "send failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Everything until the server closes the connection (nil when it sent nothing).
    static func readAll(_ socket: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    static func request(port: Int, method: String, path: String, headers: [String: String], body: [UInt8]) throws -> HTTPReply {
        let socket = try connect(port: port)
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if headers["Content-Length"] == nil { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        // A refusal may come (and the connection close) before the whole body is sent: read it anyway.
        do { try send(socket, Array(head.utf8) + body) } catch { _ = error }
        return try parse(readAll(socket))
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw HTTPFailure(description: "no HTTP response: \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let first = lines.first, first.hasPrefix("HTTP/1.1 "), let status = Int(first.dropFirst(9).prefix(3)) else {
            throw HTTPFailure(description: "no status line: \(text.prefix(200))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}

/// The database side of the tests: the example campaigns (acme/weather) and keys.
enum CollectorFixture {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")

    /// Applies the example campaigns and makes a key for acme/weather; returns the key.
    static func prepare(_ database: ConnectionConfiguration) throws -> String {
        let herald = HeraldCLI(database: database)
        try herald.succeed(["apply", "-f", example.path])
        return try newKey(database, tenant: "acme", app: "weather")
    }

    static func newKey(_ database: ConnectionConfiguration, tenant: String, app: String) throws -> String {
        let created = try HeraldCLI(database: database).succeed(["app", "key", "create", app, "--tenant", tenant])
        return String(created.stdout.split(separator: "\n").last ?? "")
    }

    /// Events without tenant and app (the key says them), numbered `first..<first + count`, of
    /// the last five days (the collector takes only the last year's).
    static func events(_ count: Int, first: Int = 0) -> String {
        RecentDays.movedToLastDays(SampleEvents.ndjson(count, first: first).replacingOccurrences(of: #""tenant":"acme","app":"weather","#, with: ""))
    }

    static func count(_ database: ConnectionConfiguration, _ sql: SQL) throws -> Int {
        try Connection(configuration: database).query(sql)[0].decode("n")
    }

    /// Events stored (their ids) and the total of campaign_summary as Herald's operator reads it.
    static func stored(_ database: ConnectionConfiguration) throws -> (ids: Int, raw: Int, summary: Int) {
        let connection = try Connection(configuration: database)
        let ids: Int = try connection.query("SELECT count(*) AS n FROM event_ids")[0].decode("n")
        let raw: Int = try connection.query("SELECT count(*) AS n FROM delivery_events")[0].decode("n")
        try connection.execute("SET ROLE herald_operator")
        let summary: Int = try connection.query(
            "SELECT coalesce(sum(delivered + impressions + clicks + dismissals), 0)::bigint AS n FROM reporting.campaign_summary")[0]
            .decode("n")
        return (ids, raw, summary)
    }
}

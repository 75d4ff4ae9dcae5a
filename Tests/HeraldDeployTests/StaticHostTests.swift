import Foundation
import HeraldTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one HTTP exchange returned (headers by lowercased name).
struct HTTPResponse: CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: Data

    var description: String {
        "\(status) \(headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))"
    }
}

/// Finds a program: an override from the environment, the usual place, then $PATH.
func locateProgram(_ name: String, override variable: String, usual: String) -> URL? {
    let environment = ProcessInfo.processInfo.environment
    var candidates: [String] = []
    if let path = environment[variable], !path.isEmpty { candidates.append(path) }
    candidates.append(usual)
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        candidates.append("\(directory)/\(name)")
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
}

/// Runs a program to the end; output through files (a full pipe would block).
@discardableResult
func runProgram(_ program: URL, _ arguments: [String], in scratch: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    let id = UUID().uuidString
    let outURL = scratch.appendingPathComponent("run-\(id).out")
    let errURL = scratch.appendingPathComponent("run-\(id).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
        try? out.close()
        try? err.close()
    }
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (
        process.terminationStatus,
        String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    )
}

/// Loopback TCP ports.
enum LoopbackPort {
    private static func withSocket<T>(_ body: (Int32, inout sockaddr_in) -> T) throws -> T {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw DeployTestError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return body(descriptor, &address)
    }

    /// A port nobody listens on right now (bound to port 0 and released); a race with
    /// another process is possible, so callers retry on a clash.
    static func free() throws -> Int {
        let port = try withSocket { descriptor, address -> Int? in
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
                }
            }
            return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
        }
        guard let port, port > 0 else { throw DeployTestError("cannot find a free loopback port") }
        return port
    }

    static func answers(_ port: Int) -> Bool {
        (try? withSocket { descriptor, address -> Bool in
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }) ?? false
    }
}

/// A real nginx in the foreground, serving `root` with deploy/nginx.conf's server block
/// (only its `listen` and `root` replaced), everything it writes inside `directory`.
final class NginxUnderTest {
    let port: Int
    let directory: URL
    private let process: Process
    private let curl: URL

    static func binary() throws -> URL {
        guard let nginx = locateProgram("nginx", override: "HERALD_TEST_NGINX", usual: "/usr/sbin/nginx") else {
            throw DeployTestError(
                "nginx is not installed, so deploy/nginx.conf cannot be tested: install it (`apt-get install -y nginx-light`, "
                    + "or `nginx`; CI's .ci/run installs it), or point HERALD_TEST_NGINX at the binary")
        }
        return nginx
    }

    /// The shipped server block with `listen` and `root` pointed at this test.
    static func serverBlock(port: Int, root: URL) throws -> String {
        let shipped = NginxConfig.withoutComments(try DeployFiles.text(DeployFiles.nginxConfig))
        let listens = NginxConfig.directives("listen", in: shipped)
        guard listens.count == 1 else { throw DeployTestError("deploy/nginx.conf must have exactly one `listen`, found \(listens)") }
        _ = try NginxConfig.root(shipped)
        var text = shipped
        for (name, value) in [("listen", "127.0.0.1:\(port)"), ("root", "\"\(root.path)\"")] {
            let regex = try NSRegularExpression(pattern: NginxConfig.directivePattern(name))
            text = regex.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text),
                withTemplate: "$1\(name) \(NSRegularExpression.escapedTemplate(for: value));")
        }
        return text
    }

    init(root: URL, directory: URL) throws {
        let nginx = try Self.binary()
        guard let curl = locateProgram("curl", override: "HERALD_TEST_CURL", usual: "/usr/bin/curl") else {
            throw DeployTestError("curl is not installed: apt-get install -y curl")
        }
        self.curl = curl
        self.directory = directory
        let temp = directory.appendingPathComponent("temp")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        let version = try runProgram(nginx, ["-V"], in: directory)
        let build = version.stdout + version.stderr
        // Temp paths only for the modules this nginx has (nginx-light may lack some).
        let tempPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].filter { module in
            module == "client_body" || !build.contains("--without-http_\(module)_module")
        }.map { "    \($0)_temp_path \"\(temp.path)/\($0)\";" }.joined(separator: "\n")
        let errorLog = directory.appendingPathComponent("error.log")
        let mainConfig = directory.appendingPathComponent("nginx.conf")

        var attempt = 0
        while true {
            attempt += 1
            let port = try LoopbackPort.free()
            try Data(try Self.serverBlock(port: port, root: root).utf8).write(to: directory.appendingPathComponent("server.conf"))
            let config = """
                # Written by StaticHostTests: deploy/nginx.conf's server block, in the foreground.
                daemon off;
                master_process off;
                worker_processes 1;
                pid "\(directory.path)/nginx.pid";
                error_log "\(errorLog.path)" warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                \(tempPaths)
                    include "\(directory.path)/server.conf";
                }

                """
            try Data(config.utf8).write(to: mainConfig)
            let arguments = ["-p", directory.path, "-c", mainConfig.path, "-e", errorLog.path]

            // The shipped block must load without a single warning.
            let check = try runProgram(nginx, arguments + ["-t"], in: directory)
            guard check.status == 0, !check.stderr.contains("[warn]"), !check.stderr.contains("[emerg]") else {
                throw DeployTestError("nginx -t rejects deploy/nginx.conf (as \(mainConfig.path)):\n\(check.stderr)\n\(config)")
            }

            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            let process = Process()
            process.executableURL = nginx
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, !LoopbackPort.answers(port), Date() < deadline {
                usleep(20_000)
            }
            if process.isRunning, LoopbackPort.answers(port) {
                self.process = process
                self.port = port
                return
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            if log.contains("Address already in use"), attempt < 5 { continue }
            throw DeployTestError("nginx did not start on 127.0.0.1:\(port) (exit \(process.terminationStatus)):\n\(log)")
        }
    }

    /// SIGKILL, not SIGTERM: nginx without a master process never unblocks signals, and it
    /// inherits the test thread's mask, in which SIGTERM is blocked. A single process with no
    /// workers and nothing to flush (access_log off) loses nothing to it.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    /// One request with curl: `GET` or `HEAD`, with extra request headers.
    func request(_ path: String, method: String = "GET", headers: [String: String] = [:]) throws -> HTTPResponse {
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.joined(separator: "/")
        let id = UUID().uuidString
        let bodyURL = directory.appendingPathComponent("curl-\(id).body")
        let headersURL = directory.appendingPathComponent("curl-\(id).headers")
        defer {
            try? FileManager.default.removeItem(at: bodyURL)
            try? FileManager.default.removeItem(at: headersURL)
        }
        var arguments = ["-sS", "--path-as-is", "--max-time", "10", "-o", bodyURL.path, "-D", headersURL.path, "-w", "%{http_code}"]
        if method == "HEAD" { arguments.append("-I") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        arguments.append("http://127.0.0.1:\(port)/\(encoded)")
        let result = try runProgram(curl, arguments, in: directory)
        guard result.status == 0, let status = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DeployTestError("curl \(arguments.joined(separator: " ")) failed (exit \(result.status)): \(result.stderr)\nnginx: \(errorLog)")
        }
        var parsed: [String: String] = [:]
        let headerText = String(decoding: (try? Data(contentsOf: headersURL)) ?? Data(), as: UTF8.self)
        for line in headerText.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = method == "HEAD" ? Data() : ((try? Data(contentsOf: bodyURL)) ?? Data())
        return HTTPResponse(status: status, headers: parsed, body: body)
    }
}

/// A device's Notable, revalidating exactly as PMNotableDownloader.m does: HEAD with
/// If-Modified-Since set to its own last download time (in its "EEE, dd MMM yyyy HH:mm:ss GMT"
/// form; no header before the first download, never If-None-Match); on 200 a plain GET, whose
/// body it keeps and whose completion time becomes its last download time; on 304 its cached
/// copy; on anything else nothing.
struct NotableClient {
    let path: String
    var lastDownload: Date?
    var cached: Data?
    var downloads = 0

    init(_ path: String) { self.path = path }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss"
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = TimeZone(identifier: "GMT")
        return formatter.string(from: date) + " GMT"
    }

    /// One launch: the control file the device then reads (nil: none).
    mutating func launch(_ nginx: NginxUnderTest) throws -> Data? {
        let headers = lastDownload.map { ["If-Modified-Since": Self.httpDate($0)] } ?? [:]
        let head = try nginx.request(path, method: "HEAD", headers: headers)
        switch head.status {
        case 200:
            let get = try nginx.request(path)
            guard get.status == 200 else { return cached }
            cached = get.body
            lastDownload = Date()
            downloads += 1
            return cached
        case 304:
            return cached
        default:
            return nil
        }
    }
}

@Suite struct StaticHostTests {
    /// The site's files, path → bytes, hidden files (the manifest, temp files) apart.
    func publishedFiles(_ site: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: site.path) {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let url = site.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// Every published file comes back whole, with 200, its type and, for the control
    /// files, validators and `Cache-Control: no-cache`.
    func expectSiteServed(_ site: URL, by nginx: NginxUnderTest, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = try publishedFiles(site)
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let response = try nginx.request(path)
            #expect(response.status == 200, "\(path): \(response)", sourceLocation: sourceLocation)
            #expect(response.body == bytes, "\(path): served bytes differ from the file", sourceLocation: sourceLocation)
            let type = response.headers["content-type"] ?? ""
            let control = path.hasSuffix(".json") || path.hasSuffix(".plist")
            if path.hasSuffix(".json") {
                #expect(type.hasPrefix("application/json"), "\(path): \(type)", sourceLocation: sourceLocation)
            } else if path.hasSuffix(".plist") {
                #expect(type.hasPrefix("application/xml") || type.hasPrefix("application/x-plist"), "\(path): \(type)", sourceLocation: sourceLocation)
            } else if path.hasSuffix(".html") {
                #expect(type.hasPrefix("text/html"), "\(path): \(type)", sourceLocation: sourceLocation)
            }
            if control {
                #expect(response.headers["cache-control"] == "no-cache", "\(path): \(response)", sourceLocation: sourceLocation)
                #expect(response.headers["last-modified"] != nil, "\(path): \(response)", sourceLocation: sourceLocation)
                #expect(response.headers["etag"] != nil, "\(path): \(response)", sourceLocation: sourceLocation)
            }
        }
    }

    func publish(_ herald: HeraldCLI, _ site: URL) throws -> [String] {
        let result = try herald.succeed(["publish", "--out", site.path, "--at", "2026-06-01T00:00:00Z", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        return summary["written"] as? [String] ?? []
    }

    /// A tenant, an app, a banner with an inline view, an alert and a story, all active.
    func seed(_ herald: HeraldCLI) throws {
        try herald.succeed(["tenant", "create", "acme", "--name", "Acme Corp"])
        try herald.succeed([
            "app", "create", "weather", "--name", "Weather", "--bundle-id", "com.acme.weather", "--default-locale", "en",
            "--locales", "en,de", "--base-url", "https://static.example.com/acme/weather",
        ])
        try herald.succeed([
            "campaign", "create", "spring-sale", "--app", "weather", "--kind", "banner", "--name", "Spring sale",
            "--view", "id=banner,file=https://cdn.example.com/spring.html,height=88,origin=top",
            "--view", "id=fullscreen,html=<h1>Spring sale</h1>", "--entry", "banner",
            "--all", "appVersionLessThan=2.4.0", "--starts", "2026-01-01",
        ])
        try herald.succeed([
            "campaign", "create", "welcome", "--app", "weather", "--kind", "alert", "--name", "Welcome",
            "--title", "Welcome aboard", "--message", "Thanks for installing", "--starts", "2026-01-01",
        ])
        try herald.succeed([
            "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour",
            "--push-text", "See what's new", "--page", "image=https://cdn.example.com/1.jpg,duration=5,title=Radar",
            "--starts", "2026-01-01",
        ])
        for campaign in ["spring-sale", "welcome", "tour"] {
            try herald.succeed(["campaign", "activate", campaign, "--app", "weather"])
        }
    }

    @Test func nginxServesThePublishedSiteAndRevalidatesLikeTheClients() throws {
        // Fails, rather than skips, without nginx: CI installs it.
        _ = try NginxUnderTest.binary()
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { directory in
                let herald = HeraldCLI(database: database, environment: ["HERALD_TENANT": "acme"])
                try seed(herald)

                let site = directory.appendingPathComponent("site")
                let written = try publish(herald, site)
                let control = "acme/weather/en/control.json"
                let alerts = "acme/weather/en/notifications.plist"
                for path in [control, alerts, "acme/weather/en/stories/tour.json", "acme/weather/en/views/spring-sale/fullscreen.html"] {
                    #expect(written.contains(path), "\(path) not in \(written)")
                }
                let manifest = site.appendingPathComponent(".herald-manifest")
                #expect(FileManager.default.fileExists(atPath: manifest.path), "publish left no .herald-manifest to hide")
                // Every file dated long past, before nginx first serves it: a rewrite, however soon,
                // would show as a new Last-Modified (no waiting for the clock to tick).
                let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
                for path in try FileManager.default.subpathsOfDirectory(atPath: site.path) {
                    try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: site.appendingPathComponent(path).path)
                }

                let nginxDirectory = directory.appendingPathComponent("nginx")
                try FileManager.default.createDirectory(at: nginxDirectory, withIntermediateDirectories: true)
                let nginx = try NginxUnderTest(root: site, directory: nginxDirectory)
                defer { nginx.stop() }

                // Every file, byte for byte; validators and no-cache on the control files.
                try expectSiteServed(site, by: nginx)
                let first = try nginx.request(control)
                let firstAlerts = try nginx.request(alerts)
                let lastModified = try #require(first.headers["last-modified"], "\(first)")
                let etag = try #require(first.headers["etag"], "\(first)")
                let alertsLastModified = try #require(firstAlerts.headers["last-modified"], "\(firstAlerts)")
                let alertsETag = try #require(firstAlerts.headers["etag"], "\(firstAlerts)")
                #expect(lastModified == "Sun, 09 Sep 2001 01:46:40 GMT" && alertsLastModified == lastModified)

                // Herald's bookkeeping and other dotfiles stay private; no listings.
                for path in [".herald-manifest", "acme/weather/en/.control.json.tmp"] {
                    let hidden = try nginx.request(path)
                    #expect([403, 404].contains(hidden.status), "\(path): \(hidden)")
                    #expect(hidden.body != (try Data(contentsOf: manifest)))
                    #expect([403, 404].contains(try nginx.request(path, method: "HEAD").status), "HEAD \(path)")
                }
                #expect(try nginx.request("acme/weather/en/").status != 200, "a directory is listed")

                // Republishing nothing new rewrites nothing, so the devices' copies stay valid:
                // Notable's HEAD + If-Modified-Since, a GET with it, and If-None-Match all get 304.
                #expect(try publish(herald, site) == [])
                for (path, since, tag) in [(control, lastModified, etag), (alerts, alertsLastModified, alertsETag)] {
                    for method in ["HEAD", "GET"] {
                        let bySince = try nginx.request(path, method: method, headers: ["If-Modified-Since": since])
                        #expect(bySince.status == 304, "\(method) \(path) If-Modified-Since \(since): \(bySince)")
                        #expect(bySince.body.isEmpty)
                        let byTag = try nginx.request(path, method: method, headers: ["If-None-Match": tag])
                        #expect(byTag.status == 304, "\(method) \(path) If-None-Match \(tag): \(byTag)")
                    }
                    #expect(try nginx.request(path).headers["last-modified"] == since)
                }

                // An edit through the CLI: the same conditional requests now get the new bytes.
                try herald.succeed([
                    "campaign", "update", "spring-sale", "--app", "weather",
                    "--view", "id=banner,file=https://cdn.example.com/summer.html,height=88,origin=top", "--entry", "banner",
                ])
                try herald.succeed(["campaign", "update", "welcome", "--app", "weather", "--title", "Summer is here"])
                let edited = try publish(herald, site)
                #expect(edited.contains(control) && edited.contains(alerts), "\(edited)")
                for (path, since, tag, news) in [
                    (control, lastModified, etag, "https://cdn.example.com/summer.html"),
                    (alerts, alertsLastModified, alertsETag, "Summer is here"),
                ] {
                    let onDisk = try Data(contentsOf: site.appendingPathComponent(path))
                    #expect(String(decoding: onDisk, as: UTF8.self).contains(news), "\(path) lacks \(news)")
                    let head = try nginx.request(path, method: "HEAD", headers: ["If-Modified-Since": since])
                    #expect(head.status == 200, "HEAD \(path) If-Modified-Since \(since): \(head)")
                    let bySince = try nginx.request(path, headers: ["If-Modified-Since": since])
                    #expect(bySince.status == 200, "GET \(path) If-Modified-Since \(since): \(bySince)")
                    #expect(bySince.body == onDisk)
                    #expect(String(decoding: bySince.body, as: UTF8.self).contains(news))
                    #expect(bySince.headers["cache-control"] == "no-cache")
                    let newSince = try #require(bySince.headers["last-modified"])
                    let newTag = try #require(bySince.headers["etag"])
                    #expect(newSince != since && newTag != tag)
                    let byTag = try nginx.request(path, headers: ["If-None-Match": tag])
                    #expect(byTag.status == 200 && byTag.body == onDisk, "GET \(path) If-None-Match \(tag): \(byTag)")
                    // And the new validators are good until the next change.
                    #expect(try nginx.request(path, method: "HEAD", headers: ["If-Modified-Since": newSince]).status == 304)
                    #expect(try nginx.request(path, headers: ["If-None-Match": newTag]).status == 304)
                }
                try expectSiteServed(site, by: nginx)
                #expect(!nginx.errorLog.contains("[crit]") && !nginx.errorLog.contains("[emerg]"), "\(nginx.errorLog)")
            }
        }
    }

    /// Issue #12: Notable revalidates with If-Modified-Since set to its own last download
    /// time. A device that downloads the old file after Herald wrote the new one, but before the
    /// sync brought it to the host, must get the new file once it is there: deploy/herald-sync
    /// does that, `rsync -a` (kept here as the control) leaves the device stale. Unchanged
    /// files keep their Last-Modified, so devices keep getting 304 for them.
    @Test func notableRevalidationAcrossASync() throws {
        _ = try NginxUnderTest.binary()
        guard let rsync = locateProgram("rsync", override: "HERALD_TEST_RSYNC", usual: "/usr/bin/rsync") else {
            throw DeployTestError("rsync is not installed, so the sync recipe cannot be tested: apt-get install -y rsync (.ci/run does)")
        }
        let shell = URL(fileURLWithPath: "/bin/sh")
        let heraldSync = DeployFiles.repositoryRoot.appendingPathComponent("deploy/herald-sync").path
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { directory in
                let herald = HeraldCLI(database: database, environment: ["HERALD_TENANT": "acme"])
                try seed(herald)
                let out = directory.appendingPathComponent("herald")  // Herald's own folder
                let host = directory.appendingPathComponent("host")  // what nginx serves
                let recipe = host.appendingPathComponent("recipe")
                let old = host.appendingPathComponent("rsync-a")
                for folder in [recipe, old] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
                func sync() throws {
                    let synced = try runProgram(shell, [heraldSync, out.path, recipe.path], in: directory)
                    #expect(synced.status == 0, "herald-sync: \(synced.stderr)")
                    let copied = try runProgram(rsync, ["-a", "--delete", "--exclude", ".*", out.path + "/", old.path + "/"], in: directory)
                    #expect(copied.status == 0, "rsync -a: \(copied.stderr)")
                }
                func publish() throws -> [String] {
                    let result = try herald.succeed(["publish", "--out", out.path, "--at", "2026-06-01T00:00:00Z", "--json"])
                    let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                    return summary["written"] as? [String] ?? []
                }
                /// Sets `path`'s mtime under `folder` (every file's, when nil): an explicit time
                /// stands for one that passed, so the test never waits for the clock to tick.
                func date(_ folder: URL, _ path: String? = nil, to time: Date) throws {
                    let paths = try path.map { [$0] } ?? FileManager.default.subpathsOfDirectory(atPath: folder.path)
                    for path in paths {
                        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: folder.appendingPathComponent(path).path)
                    }
                }
                #expect(try publish().contains("acme/weather/en/control.json"))
                try sync()
                #expect(try FileManager.default.subpathsOfDirectory(atPath: recipe.path).allSatisfy { !$0.split(separator: "/").contains { $0.hasPrefix(".") } })
                // The host's files dated long past: every download below is later than them.
                try date(recipe, to: Date(timeIntervalSince1970: 1_000_000_000))

                let nginxDirectory = directory.appendingPathComponent("nginx")
                try FileManager.default.createDirectory(at: nginxDirectory, withIntermediateDirectories: true)
                let nginx = try NginxUnderTest(root: host, directory: nginxDirectory)
                defer { nginx.stop() }

                let control = "acme/weather/en/control.json"
                let alerts = "acme/weather/en/notifications.plist"
                let oldView = "https://cdn.example.com/spring.html"
                let newView = "https://cdn.example.com/summer.html"
                func has(_ data: Data?, _ text: String) -> Bool { String(decoding: data ?? Data(), as: UTF8.self).contains(text) }

                // A device that has the site: one download, then 304 while nothing changes.
                var current = NotableClient("recipe/" + control)
                var currentAlerts = NotableClient("recipe/" + alerts)
                #expect(has(try current.launch(nginx), oldView))
                _ = try currentAlerts.launch(nginx)
                #expect(has(try current.launch(nginx), oldView) && current.downloads == 1, "unchanged: 304, the cached copy")
                let alertsModified = try nginx.request("recipe/" + alerts, method: "HEAD").headers["last-modified"]

                // Herald writes the new banner; the host still has the old one.
                try herald.succeed([
                    "campaign", "update", "spring-sale", "--app", "weather",
                    "--view", "id=banner,file=\(newView),height=88,origin=top", "--entry", "banner",
                ])
                #expect(try publish().contains(control))
                // Herald wrote it a minute before the download below: `rsync -a` keeps that time.
                try date(out, control, to: Date().addingTimeInterval(-60))
                // A new device downloads the old file in the window, after Herald's write.
                var inTheWindow = NotableClient("recipe/" + control)
                var inTheWindowOld = NotableClient("rsync-a/" + control)
                #expect(has(try inTheWindow.launch(nginx), oldView))
                #expect(has(try inTheWindowOld.launch(nginx), oldView))
                try sync()

                // Through herald-sync, every device gets the new banner once, then 304 again.
                #expect(has(try inTheWindow.launch(nginx), newView), "the device that downloaded in the window stays stale")
                #expect(has(try current.launch(nginx), newView))
                #expect(inTheWindow.downloads == 2 && current.downloads == 2)
                #expect(has(try inTheWindow.launch(nginx), newView) && inTheWindow.downloads == 2)
                #expect(has(try current.launch(nginx), newView) && current.downloads == 2)
                // The unchanged alerts kept their Last-Modified: still one download.
                #expect(try nginx.request("recipe/" + alerts, method: "HEAD").headers["last-modified"] == alertsModified)
                _ = try currentAlerts.launch(nginx)
                #expect(currentAlerts.downloads == 1)

                // The control: `rsync -a` kept Herald's write time, earlier than the device's
                // download, so nginx answers 304 and the device keeps the old banner.
                #expect(has(try inTheWindowOld.launch(nginx), oldView) && inTheWindowOld.downloads == 1)
                #expect(!nginx.errorLog.contains("[crit]") && !nginx.errorLog.contains("[emerg]"), "\(nginx.errorLog)")
            }
        }
    }

    /// deploy/herald-sync-s3 against a stand-in for the aws CLI that keeps a bucket in a folder
    /// (each write a temp file renamed into place, so an object's time is when it appeared, as
    /// S3's Last-Modified): only changed files are uploaded, removed ones deleted, unchanged
    /// objects untouched, and each uploaded object is copied onto itself after it is visible.
    @Test func theS3RecipeUploadsOnlyWhatChangedAndStampsItAfterwards() throws {
        guard locateProgram("rsync", override: "HERALD_TEST_RSYNC", usual: "/usr/bin/rsync") != nil else {
            throw DeployTestError("rsync is not installed: apt-get install -y rsync (.ci/run does)")
        }
        try withTemporaryDirectory { directory in
            let bin = directory.appendingPathComponent("bin")
            let bucket = directory.appendingPathComponent("buckets")
            let log = directory.appendingPathComponent("aws.log")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let fake = """
                #!/bin/sh
                # A stand-in for the aws CLI: s3 cp, s3 rm and s3api copy-object on folders under $FAKE_S3.
                set -eu
                echo "$*" >> "$FAKE_S3_LOG"
                put() { mkdir -p "$(dirname "$2")"; cp "$1" "$2.part"; mv "$2.part" "$2"; }
                case "$1 $2" in
                    "s3 cp") put "$3" "$FAKE_S3/${4#s3://}" ;;
                    "s3 rm") rm "$FAKE_S3/${3#s3://}" ;;
                    "s3api copy-object")
                        shift 2
                        while [ "$#" -gt 0 ]; do
                            case "$1" in --bucket) b=$2; shift ;; --key) k=$2; shift ;; --copy-source) from=$2; shift ;; esac
                            shift
                        done
                        put "$FAKE_S3/$from" "$FAKE_S3/$b/$k" ;;
                    *) echo "fake aws: unexpected $*" >&2; exit 2 ;;
                esac

                """
            let aws = bin.appendingPathComponent("aws")
            try Data(fake.utf8).write(to: aws)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: aws.path)

            let site = directory.appendingPathComponent("site")
            func write(_ path: String, _ text: String) throws {
                let url = site.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try write("acme/weather/en/control.json", "{}")
            try write("acme/weather/en/notifications.plist", "<plist/>")
            try write("acme/weather/de/control.json", "{}")
            try write(".herald-manifest", "private")
            let environment = ProcessInfo.processInfo.environment
            func sync() throws -> [String] {
                try? FileManager.default.removeItem(at: log)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = [DeployFiles.repositoryRoot.appendingPathComponent("deploy/herald-sync-s3").path, site.path, "s3://herald-site/prod"]
                process.environment = environment.merging(
                    ["PATH": bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin"), "FAKE_S3": bucket.path, "FAKE_S3_LOG": log.path,
                     "HERALD_SYNC_SETTLE": "1"]) { $1 }
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                return ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
            func object(_ path: String) -> URL { bucket.appendingPathComponent("herald-site/prod/" + path) }
            func modified(_ path: String) throws -> Date {
                try #require(try FileManager.default.attributesOfItem(atPath: object(path).path)[.modificationDate] as? Date)
            }

            let first = try sync()
            #expect(first.filter { $0.hasPrefix("s3 cp") }.count == 3 && first.filter { $0.hasPrefix("s3api copy-object") }.count == 3, "\(first)")
            #expect(first.contains { $0.contains("notifications.plist") && $0.contains("--content-type application/xml") && $0.contains("--cache-control no-cache") })
            #expect(!FileManager.default.fileExists(atPath: object(".herald-manifest").path))
            #expect(try sync().isEmpty, "nothing changed: nothing uploaded")

            let unchanged = try modified("acme/weather/en/notifications.plist")
            try write("acme/weather/en/control.json", "[]")  // same size, new content
            try FileManager.default.removeItem(at: site.appendingPathComponent("acme/weather/de/control.json"))
            let before = Date()
            let second = try sync()
            #expect(second.count == 3, "\(second)")
            #expect(second.first?.hasPrefix("s3 cp") == true && second.first?.contains("en/control.json") == true)
            #expect(second.contains("s3 rm s3://herald-site/prod/acme/weather/de/control.json --only-show-errors"))
            #expect(second.last?.hasPrefix("s3api copy-object --bucket herald-site --key prod/acme/weather/en/control.json") == true)
            #expect(try String(contentsOf: object("acme/weather/en/control.json"), encoding: .utf8) == "[]")
            #expect(!FileManager.default.fileExists(atPath: object("acme/weather/de/control.json").path))
            #expect(try modified("acme/weather/en/notifications.plist") == unchanged)
            #expect(try modified("acme/weather/en/control.json").timeIntervalSince(before) >= 1, "stamped after the settle time")
        }
    }

    @Test func theTestConfigIsTheShippedServerBlock() throws {
        let block = try NginxUnderTest.serverBlock(port: 8123, root: URL(fileURLWithPath: "/tmp/site"))
        #expect(NginxConfig.directives("listen", in: block) == ["127.0.0.1:8123"])
        #expect(NginxConfig.directives("root", in: block) == ["\"/tmp/site\""])
        let shipped = NginxConfig.withoutComments(try DeployFiles.text(DeployFiles.nginxConfig))
        for name in ["etag", "add_header", "deny", "default_type", "try_files", "text/html", "application/json", "application/xml"] {
            #expect(NginxConfig.directives(name, in: block) == NginxConfig.directives(name, in: shipped), "\(name)")
        }
        #expect(NginxConfig.directives("add_header", in: shipped).contains { $0.contains("Cache-Control") && $0.contains("no-cache") })
        #expect(NginxConfig.directives("etag", in: shipped) == ["on"])
        #expect(NginxConfig.directives("application/xml", in: shipped) == ["plist"])
        #expect(NginxConfig.directives("application/json", in: shipped) == ["json"])
        // Notable's If-Modified-Since is its own download time: 304 means "not modified since".
        #expect(NginxConfig.directives("if_modified_since", in: shipped) == ["before"])
        #expect(NginxConfig.directives("if_modified_since", in: block) == ["before"])
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public struct ChromiumError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A real headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages ending in NUL, read on fd 3, written on fd 4).
/// It sees what `--dump-dom` cannot: every request of the page and of its frames (also
/// out-of-process ones), failed loads, console messages, exceptions and security errors
/// (a Content-Security-Policy refusal among them), and takes screenshots at a width.
///
/// One browser for a whole test: starting one costs a second or two. Not thread-safe.
public final class Chromium {
    /// What loading one page did.
    public struct PageReport: CustomStringConvertible, Sendable {
        public var url: String
        /// Every URL requested by the page and its frames, in order.
        public var requests: [String] = []
        /// Requests that failed, with the reason.
        public var failures: [String] = []
        /// Console errors, exceptions and security errors (Content-Security-Policy refusals).
        public var errors: [String] = []

        public var description: String {
            "\(url)\n  requests: \(requests)\n  failures: \(failures)\n  errors: \(errors)"
        }
    }

    /// The browser on this machine (`chromium`, as Debian names it), or nil.
    public static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        for name in names {
            for directory in path.split(separator: ":") + ["/usr/bin"] {
                let candidate = "\(directory)/\(name)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        return nil
    }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: URL
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var closed = false
    /// The page's session, and every frame or worker session attached below it.
    private var pageSession = ""
    private var sessions: Set<String> = []
    private var events: [[String: Any]] = []

    /// Starts the browser with a throwaway profile under `scratch` (the tab opens on first use).
    public init(scratch: URL) throws {
        guard let executable = Self.executable() else {
            throw ChromiumError("no chromium on PATH: `apt-get install chromium` (.ci/run installs it)")
        }
        profile = scratch.appendingPathComponent("chromium-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var commands: [Int32] = [0, 0]
        var replies: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&replies) == 0 else {
            throw ChromiumError("cannot make pipes: \(String(cString: strerror(errno)))")
        }
        // Only fds 3 and 4 of the browser (dup2 in the child) hold them; nothing else inherits them.
        for descriptor in commands + replies { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let log = scratch.appendingPathComponent("chromium.log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replies[1], 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that closing it ends its helpers too (and only them).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let arguments = [
            executable, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--disable-default-apps", "--mute-audio",
            "--hide-scrollbars", "--force-color-profile=srgb", "--lang=en-US",
            // Sandboxed frames in the page's own renderer: a process per frame costs time, and every
            // request is watched either way.
            "--disable-features=IsolateSandboxedIframes", "about:blank",
        ]
        let argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&child, executable, &actions, &attributes, UnsafeMutablePointer(mutating: base), environ)
        }
        Glibc.close(commands[0])
        Glibc.close(replies[1])
        guard spawned == 0 else {
            Glibc.close(commands[1])
            Glibc.close(replies[0])
            throw ChromiumError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        toBrowser = commands[1]
        fromBrowser = replies[0]
    }

    /// The tab, opened on first use: the browser starts up while the caller does other work.
    private func connect() throws {
        guard pageSession.isEmpty else { return }
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw ChromiumError("no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw ChromiumError("not attached: \(attached)") }
        pageSession = session
        sessions = [session]
        try enableDomains(session, page: true)
    }

    deinit { close() }

    /// Ends the browser (and its helpers, by its process group).
    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? send("Browser.close", [:], session: nil)
        Glibc.close(toBrowser)
        let deadline = Date().addingTimeInterval(3)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)  // helpers left behind, if any
        Glibc.close(fromBrowser)
        try? FileManager.default.removeItem(at: profile)
    }

    // MARK: Pages

    /// Loads `url` at `width` × `height` CSS pixels and waits until it and its frames are
    /// loaded and the network is quiet; reports what happened on the way.
    @discardableResult
    public func open(_ url: URL, width: Int = 1280, height: Int = 900) throws -> PageReport {
        try setViewport(width: width, height: height)
        events.removeAll()
        _ = try call("Page.navigate", ["url": url.absoluteString], session: pageSession)
        try pump(until: Date().addingTimeInterval(15)) { $0["method"] as? String == "Page.loadEventFired" && $0["sessionId"] as? String == self.pageSession }
        try settle()
        return report(url: url.absoluteString)
    }

    /// The value of a JavaScript expression in the page (JSON-like values), awaiting a promise.
    public func evaluate(_ expression: String) throws -> Any? {
        try connect()
        let result = try call(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], session: pageSession)
        if let exception = result["exceptionDetails"] { throw ChromiumError("\(expression.prefix(80))… threw \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// The page's DOM as HTML, as `--dump-dom` prints it.
    public func dumpDOM() throws -> String {
        try evaluate("document.documentElement.outerHTML") as? String ?? ""
    }

    /// A PNG of the page at `width` × `height`; with `fullPage`, as tall as the page (up to 6000 pixels).
    public func screenshot(width: Int, height: Int = 900, fullPage: Bool = false) throws -> Data {
        try setViewport(width: width, height: height)
        if fullPage {
            let metrics = try call("Page.getLayoutMetrics", [:], session: pageSession)
            let content = (metrics["cssContentSize"] as? [String: Any])?["height"] as? Double ?? Double(height)
            try setViewport(width: width, height: min(max(Int(content.rounded(.up)), height), 6000))
        }
        try settle()
        let shot = try call("Page.captureScreenshot", ["format": "png"], session: pageSession)
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw ChromiumError("no screenshot: \(shot.keys)")
        }
        return data
    }

    /// How much of a PNG differs from its top-left pixel, and how many colours it has (on a
    /// grid of samples): decoded by the browser itself, on a blank page of its own.
    public func inkCoverage(ofPNG png: Data) throws -> (inked: Double, colors: Int) {
        if try evaluate("location.href") as? String != "about:blank" {
            _ = try call("Page.navigate", ["url": "about:blank"], session: pageSession)
            try settle()
        }
        let script = """
            new Promise((resolve, reject) => {
              const image = new Image();
              image.onload = () => {
                const canvas = document.createElement('canvas');
                canvas.width = image.width; canvas.height = image.height;
                const g = canvas.getContext('2d'); g.drawImage(image, 0, 0);
                const data = g.getImageData(0, 0, image.width, image.height).data;
                const key = (i) => data[i] + ',' + data[i + 1] + ',' + data[i + 2];
                const background = key(0);
                let inked = 0, samples = 0; const colors = new Set();
                const step = Math.max(1, Math.floor(Math.sqrt(image.width * image.height / 40000)));
                for (let y = 0; y < image.height; y += step) for (let x = 0; x < image.width; x += step) {
                  const i = (y * image.width + x) * 4; samples++;
                  const k = key(i); colors.add(k); if (k !== background) inked++;
                }
                resolve({ inked: inked / samples, colors: colors.size });
              };
              image.onerror = () => reject(new Error('not a PNG'));
              image.src = 'data:image/png;base64,\(png.base64EncodedString())';
            })
            """
        guard let result = try evaluate(script) as? [String: Any], let inked = result["inked"] as? Double,
            let colors = result["colors"] as? Int
        else { throw ChromiumError("could not read the PNG") }
        return (inked, colors)
    }

    // MARK: Protocol

    private func setViewport(width: Int, height: Int) throws {
        try connect()
        _ = try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600], session: pageSession)
    }

    private func enableDomains(_ session: String, page: Bool) throws {
        if page { _ = try call("Page.enable", [:], session: session) }
        for domain in ["Network.enable", "Runtime.enable", "Log.enable"] { _ = try call(domain, [:], session: session) }
        _ = try call("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true], session: session)
    }

    /// Waits for quiet: every request seen has finished or failed, and nothing new for a moment.
    private func settle() throws {
        let deadline = Date().addingTimeInterval(10)
        var quietSince = Date()
        var seen = events.count
        while Date() < deadline {
            try pump(until: Date().addingTimeInterval(0.02), failing: false) { _ in false }
            if events.count != seen {
                seen = events.count
                quietSince = Date()
            } else if pendingRequests().isEmpty, Date().timeIntervalSince(quietSince) > 0.06 {
                return
            }
        }
    }

    private func pendingRequests() -> Set<String> {
        var pending: Set<String> = []
        for event in events {
            let id = (event["params"] as? [String: Any])?["requestId"] as? String ?? ""
            switch event["method"] as? String {
            case "Network.requestWillBeSent": pending.insert(id)
            case "Network.loadingFinished", "Network.loadingFailed": pending.remove(id)
            default: break
            }
        }
        return pending
    }

    private func report(url: String) -> PageReport {
        var report = PageReport(url: url)
        var urls: [String: String] = [:]
        for event in events {
            let params = event["params"] as? [String: Any] ?? [:]
            switch event["method"] as? String {
            case "Network.requestWillBeSent":
                let requested = (params["request"] as? [String: Any])?["url"] as? String ?? ""
                urls[params["requestId"] as? String ?? ""] = requested
                report.requests.append(requested)
            case "Network.loadingFailed":
                let failed = urls[params["requestId"] as? String ?? ""] ?? "?"
                report.failures.append("\(failed): \(params["errorText"] as? String ?? "")\(params["blockedReason"].map { " (\($0))" } ?? "")")
            case "Runtime.consoleAPICalled" where ["error", "assert"].contains(params["type"] as? String ?? ""):
                let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
                report.errors.append("console.\(params["type"] ?? ""): \(args.joined(separator: " "))")
            case "Runtime.exceptionThrown":
                let details = params["exceptionDetails"] as? [String: Any] ?? [:]
                report.errors.append("exception: \((details["exception"] as? [String: Any])?["description"] ?? details["text"] ?? "")")
            case "Log.entryAdded":
                let entry = params["entry"] as? [String: Any] ?? [:]
                if entry["level"] as? String == "error" {
                    report.errors.append("\(entry["source"] ?? "log"): \(entry["text"] ?? "") (\(entry["url"] ?? ""))")
                }
            default:
                break
            }
        }
        return report
    }

    /// Sends a command and waits for its answer (events meanwhile are kept).
    private func call(_ method: String, _ params: [String: Any], session: String? = nil) throws -> [String: Any] {
        let id = try send(method, params, session: session)
        var answer: [String: Any] = [:]
        try pump(until: Date().addingTimeInterval(20)) { message in
            guard message["id"] as? Int == id else { return false }
            answer = message
            return true
        }
        if let error = answer["error"] { throw ChromiumError("\(method): \(error)") }
        return answer["result"] as? [String: Any] ?? [:]
    }

    @discardableResult
    private func send(_ method: String, _ params: [String: Any], session: String?) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes[offset...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard wrote > 0 else { throw ChromiumError("the browser went away (\(String(cString: strerror(errno))))") }
            offset += wrote
        }
        return nextID
    }

    /// Reads messages until `done` says so, or the deadline passes: then it throws when
    /// `failing` (waiting for an answer), else returns (a pause that only gathers events).
    private func pump(until deadline: Date, failing: Bool = true, _ done: ([String: Any]) -> Bool) throws {
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let bytes = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let message = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { continue }
                try handle(message)
                if done(message) { return }
            }
            let wait = deadline.timeIntervalSinceNow
            if wait <= 0 {
                if failing { throw ChromiumError("timed out waiting for the browser") }
                return
            }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, min(wait * 1000, 1000))))
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw ChromiumError("poll: \(String(cString: strerror(errno)))") }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            guard count > 0 else { throw ChromiumError("the browser closed the pipe") }
            buffer += chunk[..<count]
        }
    }

    /// Keeps every new frame or worker under watch before it runs.
    private func handle(_ message: [String: Any]) throws {
        guard let method = message["method"] as? String else { return }
        if method == "Target.attachedToTarget", let params = message["params"] as? [String: Any],
            let session = params["sessionId"] as? String
        {
            sessions.insert(session)
            try send("Network.enable", [:], session: session)
            try send("Runtime.enable", [:], session: session)
            try send("Log.enable", [:], session: session)
            try send("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true], session: session)
            try send("Runtime.runIfWaitingForDebugger", [:], session: session)
        }
        events.append(message)
    }
}

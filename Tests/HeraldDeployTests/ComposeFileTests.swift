import Foundation
import HeraldTestSupport
import Testing
import Yams

/// The deploy files at the repository root: `docker-compose.yml`, `Dockerfile`, `deploy/nginx.conf`.
enum DeployFiles {
    /// Three levels up from this file: Tests/HeraldDeployTests/ComposeFileTests.swift.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let compose = repositoryRoot.appendingPathComponent("docker-compose.yml")
    static let nginxConfig = repositoryRoot.appendingPathComponent("deploy/nginx.conf")

    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }
}

struct DeployTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The few things the tests read from nginx's configuration language: directives of the
/// server block, comments stripped.
enum NginxConfig {
    /// The text without `#` comments (the shipped file has no `#` inside quoted strings).
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.firstIndex(of: "#").map { String(line[..<$0]) } ?? String(line)
        }.joined(separator: "\n")
    }

    /// A simple directive `name args;` at the start of a statement (after `{`, `}`, `;` or
    /// the start of the text): $1 is the whitespace before it, $2 its arguments.
    static func directivePattern(_ name: String) -> String {
        "(?:\\A|(?<=[{};]))(\\s*)" + NSRegularExpression.escapedPattern(for: name) + "\\s+([^;{}]*);"
    }

    /// Every `name value…;` directive with this name, at any depth, as its argument text.
    static func directives(_ name: String, in text: String) -> [String] {
        let pattern = directivePattern(name)
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let clean = withoutComments(text)
        let range = NSRange(clean.startIndex..., in: clean)
        return regex.matches(in: clean, range: range).compactMap { match in
            Range(match.range(at: 2), in: clean).map { clean[$0].trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }

    /// The one `root` of the shipped server block, unquoted.
    static func root(_ text: String) throws -> String {
        let roots = directives("root", in: text)
        guard roots.count == 1, let root = roots.first else {
            throw DeployTestError("deploy/nginx.conf must have exactly one `root` directive, found \(roots)")
        }
        return root.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    }
}

/// One service's volume entry, short (`source:target[:ro]`) or long syntax.
struct Mount: Equatable, CustomStringConvertible {
    var source: String
    var target: String
    var readOnly: Bool

    var description: String { "\(source):\(target)\(readOnly ? ":ro" : "")" }

    /// A named volume: a plain name, not a host path.
    var isNamedVolume: Bool { !source.isEmpty && !source.hasPrefix("/") && !source.hasPrefix(".") && !source.hasPrefix("~") }

    init(source: String, target: String, readOnly: Bool) {
        self.source = source
        self.target = target
        self.readOnly = readOnly
    }

    init?(_ entry: Any) {
        if let short = entry as? String {
            let parts = short.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2 else { return nil }
            let options = parts.count > 2 ? parts[2].split(separator: ",").map(String.init) : []
            self.init(source: parts[0], target: parts[1], readOnly: options.contains("ro"))
        } else if let long = entry as? [String: Any], let target = long["target"] as? String {
            self.init(source: long["source"] as? String ?? "", target: target, readOnly: long["read_only"] as? Bool ?? false)
        } else {
            return nil
        }
    }
}

/// docker-compose.yml, parsed.
struct ComposeFile {
    let document: [String: Any]

    init() throws {
        let text = try DeployFiles.text(DeployFiles.compose)
        guard let document = try Yams.load(yaml: text) as? [String: Any] else {
            throw DeployTestError("docker-compose.yml is not a YAML mapping")
        }
        self.document = document
    }

    var services: [String: Any] { document["services"] as? [String: Any] ?? [:] }
    var volumeNames: Set<String> { Set((document["volumes"] as? [String: Any] ?? [:]).keys) }

    func service(_ name: String) throws -> [String: Any] {
        guard let service = services[name] as? [String: Any] else {
            throw DeployTestError("docker-compose.yml has no service `\(name)` (it has \(services.keys.sorted()))")
        }
        return service
    }

    func mounts(_ name: String) throws -> [Mount] {
        let entries = try service(name)["volumes"] as? [Any] ?? []
        return entries.compactMap(Mount.init)
    }

    /// `environment` as a map, from either the map or the `KEY=value` list form.
    func environment(_ name: String) throws -> [String: String] {
        let value = try service(name)["environment"]
        if let map = value as? [String: Any] {
            return map.mapValues { "\($0)" }
        }
        var result: [String: String] = [:]
        for entry in value as? [String] ?? [] {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard let key = parts.first else { continue }
            result[key] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    /// A `command` or healthcheck `test` as one shell string: the script of `sh -c …`, the
    /// words of an exec form joined, or the string form as is.
    static func shellText(_ value: Any?) -> String {
        if let string = value as? String { return string }
        guard let words = value as? [String] else { return "" }
        if words.count >= 3, ["sh", "/bin/sh", "bash", "/bin/bash"].contains(words[0]), words[1] == "-c" {
            return words[2]
        }
        if let first = words.first, ["CMD", "CMD-SHELL"].contains(first) {
            return words.dropFirst().joined(separator: " ")
        }
        return words.joined(separator: " ")
    }
}

/// The `herald …` invocations of a shell script, each as its words.
enum ShellScript {
    /// Words of a shell script, with `&&`, `||`, `;`, `|`, `&` and newlines as separate words
    /// and quotes removed (enough for a compose command; no expansions).
    static func words(_ script: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var characters = Array(script)[...]
        func finish() {
            if inWord { words.append(current) }
            current = ""
            inWord = false
        }
        while let character = characters.popFirst() {
            if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"", character == "\\", let next = characters.popFirst() {
                    current.append(next)
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case "\\":
                if let next = characters.popFirst() {
                    current.append(next)
                    inWord = true
                }
            case " ", "\t":
                finish()
            case "\n", ";":
                finish()
                words.append(";")
            case "&", "|":
                finish()
                if characters.first == character {
                    characters.removeFirst()
                    words.append(String([character, character]))
                } else {
                    words.append(String(character))
                }
            default:
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw DeployTestError("unterminated quote in \(script)") }
        finish()
        return words
    }

    /// Each simple command whose program is `herald` (after shell keywords and `VAR=value`).
    static func heraldCommands(_ script: String) throws -> [[String]] {
        let separators: Set<String> = [";", "&&", "||", "|", "&"]
        let keywords: Set<String> = ["do", "then", "else", "elif", "while", "until", "if", "!", "exec", "time"]
        var commands: [[String]] = []
        var current: [String] = []
        for word in try words(script) + [";"] {
            if separators.contains(word) {
                var command = current[...]
                while let first = command.first, keywords.contains(first) || (first.contains("=") && !first.hasPrefix("-")) {
                    command = command.dropFirst()
                }
                if let program = command.first, program == "herald" || program.hasSuffix("/herald") {
                    commands.append(Array(command))
                }
                current = []
            } else {
                current.append(word)
            }
        }
        return commands
    }

    /// The value of `--name VALUE` or `--name=VALUE`.
    static func option(_ name: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == name, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(name + "=") { return String(word.dropFirst(name.count + 1)) }
        }
        return nil
    }
}

@Suite struct ComposeFileTests {
    @Test func theThreeServicesExist() throws {
        let compose = try ComposeFile()
        for name in ["postgres", "publisher", "static"] {
            #expect(compose.services[name] is [String: Any], "docker-compose.yml lacks service \(name)")
        }
    }

    @Test func postgresIsTheOfficialImageWithAHealthcheckAndANamedVolume() throws {
        let compose = try ComposeFile()
        let postgres = try compose.service("postgres")
        let image = try #require(postgres["image"] as? String)
        #expect(image.hasPrefix("postgres:"), "image \(image)")
        let healthcheck = try #require(postgres["healthcheck"] as? [String: Any], "postgres has no healthcheck")
        let test = ComposeFile.shellText(healthcheck["test"])
        #expect(test.contains("pg_isready"), "healthcheck test: \(test)")

        let environment = try compose.environment("postgres")
        #expect(environment["POSTGRES_USER"] == "herald")
        #expect(environment["POSTGRES_DB"] == "herald")
        #expect(!(environment["POSTGRES_PASSWORD"] ?? "").isEmpty)
        #expect(test.contains("-U herald") && test.contains("-d herald"), "healthcheck test: \(test)")

        let data = try compose.mounts("postgres").filter { $0.target == "/var/lib/postgresql/data" }
        let mount = try #require(data.first, "postgres keeps its data in no volume")
        #expect(mount.isNamedVolume, "\(mount) is not a named volume")
        #expect(compose.volumeNames.contains(mount.source), "volume \(mount.source) is not declared under top-level volumes")

        // The image's entrypoint runs `postgres` with these arguments: PL/pgSQL loaded once, at start.
        let command = try #require(postgres["command"] as? [String], "postgres has no command")
        #expect(command.first == "postgres", "command \(command)")
        #expect(zip(command, command.dropFirst()).contains { $0 == "-c" && $1 == "shared_preload_libraries=plpgsql" }, "command \(command)")
    }

    @Test func publisherBuildsWaitsForAHealthyDatabaseAndSyncsIntoTheSiteVolume() throws {
        let compose = try ComposeFile()
        let publisher = try compose.service("publisher")
        #expect(publisher["build"] != nil, "publisher is not built from the Dockerfile")
        #expect(FileManager.default.fileExists(atPath: DeployFiles.repositoryRoot.appendingPathComponent("Dockerfile").path))

        let dependsOn = try #require(publisher["depends_on"] as? [String: Any], "depends_on must be a map with conditions")
        let postgres = try #require(dependsOn["postgres"] as? [String: Any], "publisher does not depend on postgres")
        #expect(postgres["condition"] as? String == "service_healthy")

        let url = try #require(try compose.environment("publisher")["HERALD_DATABASE_URL"], "publisher has no HERALD_DATABASE_URL")
        #expect(url.hasPrefix("postgresql://herald:"), "\(url)")
        #expect(url.hasSuffix("@postgres:5432/herald"), "\(url) does not name the postgres service's herald database")

        let commands = try ShellScript.heraldCommands(ComposeFile.shellText(publisher["command"]))
        #expect(commands.contains { $0.count >= 2 && $0[1] == "migrate" }, "no `herald migrate` in \(commands)")
        let publish = try #require(commands.first { $0.count >= 2 && $0[1] == "publish" }, "no `herald publish` in \(commands)")
        let out = try #require(ShellScript.option("--out", in: publish), "`herald publish` without --out")

        // Herald publishes into a volume of its own; herald-sync brings what changed into the
        // served `site` volume and stamps it once in place (deploy/herald-sync says why).
        let mounts = try compose.mounts("publisher")
        let site = try #require(mounts.first { $0.source == "site" }, "publisher does not mount the site volume")
        #expect(site.isNamedVolume && compose.volumeNames.contains("site"))
        #expect(!site.readOnly)
        let output = try #require(mounts.first { standardized($0.target) == standardized(out) }, "publish --out \(out) is no volume")
        #expect(output.isNamedVolume && compose.volumeNames.contains(output.source) && output.source != "site")
        #expect(try !compose.mounts("static").contains { $0.source == output.source }, "nginx must not serve Herald's own folder")
        // The watcher runs herald-sync after each run that changed files (--then).
        #expect(publish.contains("--watch"), "the publisher does not watch: \(publish)")
        let then = try #require(ShellScript.option("--then", in: publish), "`herald publish --watch` without --then")
        let words = try ShellScript.words(then)
        let sync = try #require(words.firstIndex(of: "herald-sync"), "no herald-sync in the publisher's --then")
        #expect(words.count > sync + 2)
        #expect(standardized(words[sync + 1]) == standardized(out) && standardized(words[sync + 2]) == standardized(site.target))
        let dockerfile = try DeployFiles.text(DeployFiles.repositoryRoot.appendingPathComponent("Dockerfile"))
        #expect(dockerfile.contains("COPY deploy/herald-sync /usr/local/bin/herald-sync"))
        #expect(dockerfile.contains(" rsync"), "the image needs rsync for herald-sync")
    }

    @Test func staticServesTheSiteVolumeWhereNginxConfRootPoints() throws {
        let compose = try ComposeFile()
        let service = try compose.service("static")
        let image = try #require(service["image"] as? String)
        #expect(image == "nginx" || image.hasPrefix("nginx:"), "image \(image)")
        let ports = (service["ports"] as? [Any] ?? []).map { "\($0)" }
        #expect(ports.contains("8080:80"), "ports \(ports)")

        let mounts = try compose.mounts("static")
        let site = try #require(mounts.first { $0.source == "site" }, "static does not mount the site volume")
        #expect(site.readOnly, "static must mount the site read-only")
        let root = try NginxConfig.root(DeployFiles.text(DeployFiles.nginxConfig))
        #expect(standardized(root) == standardized(site.target), "nginx serves \(root), but the site volume is at \(site.target)")

        let config = try #require(mounts.first { standardized($0.source) == "deploy/nginx.conf" }, "static does not mount deploy/nginx.conf")
        #expect(config.readOnly)
        #expect(config.target.hasPrefix("/etc/nginx/conf.d/") && config.target.hasSuffix(".conf"), "\(config.target) is not read by the official image")
    }

    /// `--help` alone proves little: ArgumentParser prints help and exits 0 even after an
    /// unknown flag or subcommand. So the help must be the subcommand's own and list every
    /// flag the compose command uses, and each command must also really run, against a
    /// throwaway database, with its folder moved to a temporary one.
    @Test func thePublisherCommandsAreRealHeraldInvocations() throws {
        let compose = try ComposeFile()
        let commands = try ShellScript.heraldCommands(ComposeFile.shellText(try compose.service("publisher")["command"]))
        #expect(commands.count >= 2, "\(commands)")
        for command in commands {
            let arguments = Array(command.dropFirst())
            let help = try HeraldCLI(database: nil).run(arguments + ["--help"])
            #expect(help.status == 0, "herald \(arguments.joined(separator: " ")) --help\n\(help)")
            let subcommands = arguments.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("/") }
            #expect(help.stdout.contains("USAGE: herald \(subcommands.joined(separator: " "))"), "not the help of `herald \(subcommands.joined(separator: " "))`:\n\(help)")
            for flag in arguments where flag.hasPrefix("--") {
                let name = String(flag.split(separator: "=", maxSplits: 1)[0])
                #expect(help.stdout.contains("  \(name) ") || help.stdout.contains("  \(name)\n"), "herald \(subcommands.joined(separator: " ")) has no \(name):\n\(help.stdout)")
            }
        }

        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { directory in
                // deploy/herald-sync on the PATH, as the image installs it.
                let path = DeployFiles.repositoryRoot.appendingPathComponent("deploy").path + ":"
                    + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
                let served = directory.appendingPathComponent("served")
                let example = DeployFiles.repositoryRoot.appendingPathComponent("examples/campaigns.yaml")
                try HeraldCLI(database: database).succeed(["apply", "-f", example.path])
                try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
                for command in commands {
                    var arguments = Array(command.dropFirst())
                    let site = directory.appendingPathComponent("site").path
                    if let index = arguments.firstIndex(of: "--out"), index + 1 < arguments.count { arguments[index + 1] = site }
                    guard arguments.contains("--watch") else {
                        let result = try HeraldCLI(database: database).run(arguments)
                        #expect(result.status == 0, "herald \(arguments.joined(separator: " "))\n\(result)")
                        continue
                    }
                    // The watcher runs until stopped: its first run syncs the site into the served
                    // folder, and SIGTERM (docker stop) ends it with 0.
                    if let index = arguments.firstIndex(of: "--then"), index + 1 < arguments.count {
                        var words = try ShellScript.words(arguments[index + 1])
                        words = words.map { $0 == "/srv/herald" ? site : $0 == "/srv/site" ? served.path : $0 }
                        arguments[index + 1] = words.map { "'\($0)'" }.joined(separator: " ")
                    }
                    let process = Process()
                    process.executableURL = try HeraldCLI.binaryURL()
                    process.arguments = arguments
                    var environment = HeraldCLI(database: database).environment
                    environment["PATH"] = path
                    environment["HERALD_SYNC_SETTLE"] = "1"
                    process.environment = environment
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    let deadline = Date().addingTimeInterval(30)
                    let file = served.appendingPathComponent("acme/weather/en/control.json")
                    while process.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: file.path) { usleep(50_000) }
                    #expect(FileManager.default.fileExists(atPath: file.path), "--then did not sync the site into \(served.path)")
                    kill(process.processIdentifier, SIGTERM)
                    process.waitUntilExit()
                    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "herald \(arguments.joined(separator: " "))")
                }
            }
        }
    }

    /// The collector service runs `herald collect` on the port deploy/nginx.conf passes /v1/ to,
    /// and nginx passes nothing else of it (no /metrics, /healthz or /readyz on the internet).
    @Test func theCollectorRunsHeraldCollectWhereNginxSendsV1() throws {
        let compose = try ComposeFile()
        let collector = try compose.service("collector")
        let commands = try ShellScript.heraldCommands(ComposeFile.shellText(collector["command"]))
        #expect(commands.contains { $0.count >= 2 && $0[1] == "migrate" }, "no `herald migrate` in \(commands)")
        let collect = try #require(commands.first { $0.count >= 2 && $0[1] == "collect" }, "no `herald collect` in \(commands)")
        let listen = try #require(ShellScript.option("--listen", in: collect), "`herald collect` without --listen")
        let port = try #require(listen.split(separator: ":").last.map(String.init))
        #expect(listen.hasPrefix("0.0.0.0:"), "\(listen): other containers cannot reach it")
        let help = try HeraldCLI(database: nil).run(["collect", "--help"])
        #expect(help.status == 0 && help.stdout.contains("  --listen "), "\(help)")
        #expect((try compose.environment("collector"))["HERALD_DATABASE_URL"]?.hasSuffix("@postgres:5432/herald") == true)

        let nginx = NginxConfig.withoutComments(try DeployFiles.text(DeployFiles.nginxConfig))
        #expect(nginx.contains("location ^~ /v1/ {"), "nginx passes no /v1/ to the collector")
        #expect(nginx.contains("set $herald_collector http://collector:\(port);"), "nginx does not name the collector's port \(port)")
        #expect(NginxConfig.directives("proxy_pass", in: nginx) == ["$herald_collector"], "only /v1/ is passed on")
    }

    @Test func theShellSplitterFindsHeraldCommands() throws {
        let script = "herald migrate && while true; do herald publish --out '/srv/my site' --quiet; sleep 60; done"
        #expect(try ShellScript.heraldCommands(script) == [["herald", "migrate"], ["herald", "publish", "--out", "/srv/my site", "--quiet"]])
        #expect(try ShellScript.heraldCommands("X=1 /usr/local/bin/herald publish --out=/a | tee log") == [["/usr/local/bin/herald", "publish", "--out=/a"]])
        #expect(ShellScript.option("--out", in: ["herald", "publish", "--out=/a"]) == "/a")
    }

    private func standardized(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

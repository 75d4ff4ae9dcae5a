import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore
import HeraldText

/// Reads and parses a campaigns file, reporting every problem with its path.
private func readCampaignsFile(_ path: String) throws -> CampaignsDocument {
    try InputFiles.campaignsDocument(path, standardInput: Console.current.inputDescriptor)
}

struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Make the database match a campaigns file (YAML or JSON).",
        discussion: """
            Declarative and idempotent: creates what is missing, updates what differs, and \
            archives campaigns of the listed apps that the file no longer lists (apps and \
            tenants not in the file are left alone). Applying the same file twice changes \
            nothing. All or nothing: one transaction. `herald export` writes this format.

            Applies of one tenant take turns: while another apply changes a tenant the file \
            names, this one exits 75 (or waits for it with --wait), then plans against what \
            that one wrote.

            Examples:
              herald apply -f campaigns.yaml --dry-run    # the plan, nothing written
              herald apply -f campaigns.yaml
              herald export --tenant acme | herald apply -f -
              herald apply -f campaigns.yaml --wait       # from CI: queue behind a running apply
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("Campaigns file, or - for standard input.", valueName: "file"))
    var file: String
    @Flag(name: .long, help: "Show the plan; write nothing.") var dryRun = false
    @Flag(help: "Wait for another apply of the same tenant instead of exiting 75.") var wait = false
    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            let document = try readCampaignsFile(file)
            let steps = try ApplyJob(Environment.openDatabase(), wait: wait).apply(document, source: file, dryRun: dryRun)
            if output.json {
                try printJSON(ApplyJSON(steps: steps, dryRun: dryRun))
            } else {
                print(ApplyText.render(steps, dryRun: dryRun))
            }
        }
    }
}

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a campaigns file and list every problem with its path; writes nothing.",
        discussion: """
            Needs no database. Exit 0 when the file is valid, 65 when it is not.

            Example: herald validate -f campaigns.yaml
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("Campaigns file, or - for standard input.", valueName: "file"))
    var file: String
    @OptionGroup var output: JSONFlag

    /// `--json`: the verdict on standard output, problems included (the exit code is the same).
    struct Verdict: Encodable {
        struct Problem: Encodable {
            let path: String?
            let message: String
        }
        let file: String
        let valid: Bool
        var tenants = 0, apps = 0, campaigns = 0
        var problems: [Problem] = []
        /// Copy lint: what devices show, readable but against Apple's guidance.
        var warnings: [String] = []
    }

    func run() throws {
        try reportingFailures {
            let document: CampaignsDocument
            do {
                document = try readCampaignsFile(file)
            } catch let problems as ValidationErrors where output.json {
                try printJSON(Verdict(file: file, valid: false, problems: problems.errors.map { Verdict.Problem(path: $0.path, message: $0.message) }))
                throw ExitCode(ExitStatus.dataError)
            }
            let apps = document.tenants.flatMap(\.apps)
            let campaigns = apps.flatMap(\.campaigns)
            // Copy that goes against Apple's notification guidance: warnings, not problems.
            var warnings: [String] = []
            for tenant in document.tenants {
                for app in tenant.apps {
                    warnings += CopyLint.warnings(tenant: tenant.slug, app: app, campaigns: app.campaigns.filter { $0.status != .archived })
                }
            }
            if output.json {
                try printJSON(
                    Verdict(
                        file: file, valid: true, tenants: document.tenants.count, apps: apps.count, campaigns: campaigns.count,
                        warnings: warnings))
            } else {
                print("\(file) is valid: \(document.tenants.count) tenant(s), \(apps.count) app(s), \(campaigns.count) campaign(s)")
                for warning in warnings { Console.current.writeError("herald: warning: \(terminalSafe(warning))\n") }
            }
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a tenant's apps and campaigns as a campaigns file (YAML).",
        discussion: """
            export → apply → export gives byte-identical output.

            Example: herald export --tenant acme --app weather -o campaigns.yaml
            """)

    @OptionGroup var tenant: TenantOption
    @Option(help: "Only this app.") var app: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?
    @Flag(help: "With -o: print what was written as JSON instead of a line.") var json = false

    func run() throws {
        try reportingFailures {
            guard !json || output != nil else {
                throw InputError(message: "--json describes the file -o writes; without -o the YAML itself goes to standard output", code: ExitStatus.usage)
            }
            let app = try app.map { try Slug($0) }
            let spec = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).spec(app: app)
            let yaml = CampaignsDocument(version: CampaignsDocument.currentVersion, tenants: [spec]).yaml()
            if let output {
                do {
                    try OutputFile.save(Data(yaml.utf8), to: output)
                } catch {
                    throw InputError(
                        message: "cannot write \(Excerpt.plain(output, limit: 200)): \(FileProblem.describe(error))", code: ExitStatus.cannotCreate)
                }
                let campaigns = spec.apps.reduce(0) { $0 + $1.campaigns.count }
                if json {
                    try printJSON(
                        ["file": AnyEncodable(output), "tenant": AnyEncodable(spec.slug.rawValue), "apps": AnyEncodable(spec.apps.count),
                         "campaigns": AnyEncodable(campaigns), "bytes": AnyEncodable(yaml.utf8.count)])
                } else {
                    print("wrote \(output): tenant \(spec.slug), \(spec.apps.count) app(s), \(campaigns) campaign(s)")
                }
            } else {
                print(yaml, terminator: "")
            }
        }
    }
}

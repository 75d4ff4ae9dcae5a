import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

/// `herald app key create|list|revoke`: the keys devices send events to `herald collect` with.
struct AppKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "App keys: what devices present to `herald collect` (write-only: they submit events for their app).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a new key for an app and print it once (Herald keeps only its hash).",
            discussion: """
                The key is the last line of standard output (with --json: {"id":…,"key":"…"}); put it in the app's \
                build, e.g. HeraldReporter(endpoint:…, appKey:…). It can submit events for this app and nothing else; \
                revoke it with `herald app key revoke APP ID`.

                Example: herald app key create weather --tenant acme --name "ios 3.2"
                """)

        @Argument(help: "App slug.", completion: Completions.apps) var app: String
        @OptionGroup var tenant: TenantOption
        @Option(help: "A label for people (which build or platform has the key).") var name = ""
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let app = try Slug(app)
                let database = try Environment.openDatabase()
                let tenant = try AppKeyJobs.tenant(tenant.named(), in: database)
                let (key, record) = try AppKeyJobs.create(database, tenant: tenant, app: app, name: name)
                if output.json {
                    try printJSON(CreatedKeyJSON(id: record.id, key: key.text))
                } else {
                    print("created key \(record.id) for \(tenant)/\(app)\(record.name.isEmpty ? "" : " (\(Excerpt.escaped(record.name)))"); it is shown only now:")
                    print(key.text)
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List an app's keys, revoked ones too (never the keys themselves: their first characters).",
            discussion: "Example: herald app key list weather --tenant acme")

        @Argument(help: "App slug.", completion: Completions.apps) var app: String
        @OptionGroup var tenant: TenantOption
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let app = try Slug(app)
                let database = try Environment.openDatabase()
                let keys = try AppKeyJobs.list(database, tenant: try AppKeyJobs.tenant(tenant.named(), in: database), app: app)
                if output.json {
                    try printJSON(keys.map(KeyJSON.init))
                    return
                }
                printTable(CatalogText.keys(keys), emptyMessage: "no keys for \(app) yet: make one with `herald app key create \(app)`")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke an app key: every running collector refuses it within a second (401).",
            discussion: "Example: herald app key revoke weather 3 --tenant acme")

        @Argument(help: "App slug.", completion: Completions.apps) var app: String
        @Argument(help: "The key's ID (`herald app key list APP`).") var id: Int64
        @OptionGroup var tenant: TenantOption
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let app = try Slug(app)
                let database = try Environment.openDatabase()
                let tenant = try AppKeyJobs.tenant(tenant.named(), in: database)
                let (key, revokedNow) = try AppKeyJobs.revoke(database, tenant: tenant, app: app, id: id)
                if output.json {
                    try printJSON(KeyJSON(key))
                } else if revokedNow {
                    print("revoked key \(key.id) of \(tenant)/\(app) (\(key.hint)…): collectors refuse it within a second")
                } else {
                    print("key \(key.id) of \(tenant)/\(app) was revoked already, \(formatOptional(key.revokedAt)) by \(key.revokedBy ?? "?")")
                }
            }
        }
    }
}

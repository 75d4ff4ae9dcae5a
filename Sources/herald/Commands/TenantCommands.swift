import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

struct TenantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant",
        abstract: "Create and inspect tenants (each a separate customer; their rows never mix).",
        subcommands: [Create.self, List.self, Show.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a tenant.",
            discussion: "Example: herald tenant create acme --name \"Acme Corp\"")

        @Argument(help: "Tenant slug: 1-63 lowercase letters, digits and hyphens; names its published folder.")
        var slug: String

        @Option(help: "Display name.")
        var name: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                try XMLText.checkRequired(name, field: "--name")
                let database = try Environment.openDatabase()
                let tenant = try database.asOperator { try $0.tenants.create(slug: slug, name: name) }
                if output.json {
                    try printJSON(TenantJSON(tenant))
                } else {
                    print("created tenant \(tenant.slug)")
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tenants.")

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let database = try Environment.openDatabase()
                let tenants = try database.asOperator(readOnly: true) { try $0.tenants.list() }
                if output.json {
                    try printJSON(tenants.map(TenantJSON.init))
                    return
                }
                var table = TextTable("SLUG", "NAME", "CREATED")
                for tenant in tenants {
                    table.append(tenant.slug.rawValue, tenant.name, formatTimestamp(tenant.createdAt))
                }
                printTable(table, emptyMessage: "no tenants yet: create one with `herald tenant create SLUG --name NAME`")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a tenant and its apps.")

        @Argument(help: "Tenant slug.")
        var slug: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                let database = try Environment.openDatabase()
                let (tenant, apps) = try database.inTenant(slug, readOnly: true) { session in
                    (session.tenant, try session.apps.list())
                }
                if output.json {
                    var json = TenantJSON(tenant)
                    json.apps = apps.map { $0.spec.slug.rawValue }
                    try printJSON(json)
                    return
                }
                print("tenant   \(tenant.slug)")
                print("name     \(tenant.name)")
                print("created  \(formatTimestamp(tenant.createdAt))")
                print("apps     \(apps.isEmpty ? "-" : apps.map(\.spec.slug.rawValue).joined(separator: ", "))")
            }
        }
    }
}

struct TenantJSON: Encodable {
    let slug: String
    let name: String
    let createdAt: Date
    var apps: [String]?

    init(_ tenant: TenantRecord) {
        slug = tenant.slug.rawValue
        name = tenant.name
        createdAt = tenant.createdAt
    }
}

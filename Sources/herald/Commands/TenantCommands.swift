import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldText

struct TenantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant",
        abstract: "Create and inspect tenants (each a separate customer; their rows never mix).",
        subcommands: [
            Create.self, List.self, Show.self, Update.self, GrantOperator.self, RevokeOperator.self, Operators.self, GrantReporting.self,
            RevokeReporting.self,
        ])

    /// The password for a new or updated login, from one line of standard input.
    static func passwordFromStandardInput() throws -> String {
        let line = Console.current.readInputLine() ?? ""
        guard !line.isEmpty else { throw InputError(message: "--password-from-stdin: standard input held no password", code: ExitStatus.usage) }
        return line
    }

    struct GrantOperator: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-operator",
            abstract: "Create (or update) a PostgreSQL login role with which this tenant's own team runs herald for it alone.",
            discussion: """
                With its own HERALD_DATABASE_URL the role runs every tenant-level command for this tenant: apps, \
                campaigns, conditions, apply, export, preview, report, audit and `publish` into the tenant's own folder \
                (--tenant may be left out). PostgreSQL holds it there: the rows policies bind the login itself to the \
                tenant, so nothing it sets, no role it switches to and no function it calls shows, counts or changes \
                another tenant's rows. It cannot create tenants, migrate, grant roles or publish the whole site. The \
                audit log names it for every change it makes. Running it again for the same role updates its password \
                (computed here as a SCRAM verifier: the password never reaches the server). Herald's database user \
                needs CREATEROLE.

                Example: printf '%s' "$PASSWORD" | herald tenant grant-operator --tenant acme --role acme_ops --password-from-stdin
                """)

        @OptionGroup var login: LoginGrantOptions

        func run() throws {
            try login.grant(.operator) { outcome, role, tenant in
                "\(outcome) role \(role): it operates tenant \(tenant) alone (HERALD_DATABASE_URL=postgresql://\(role)@HOST/DATABASE herald ...)"
            }
        }
    }

    struct RevokeOperator: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-operator",
            abstract: "Take a tenant operator's access away and drop its login role.",
            discussion: "Example: herald tenant revoke-operator --tenant acme --role acme_ops")

        @OptionGroup var tenant: LoginTenant

        @Option(help: "Role name given to grant-operator.")
        var role: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try revokeLogin(.operator, tenant: tenant, role: role, json: output.json) { "did not operate \($0)" }
        }
    }

    struct Operators: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "operators",
            abstract: "List the login roles that operate this tenant (grant-operator) or read its reports (grant-reporting).",
            discussion: "Example: herald tenant operators --tenant acme --json")

        @OptionGroup var tenant: LoginTenant

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let tenant = try tenant.slug()
                let logins = try TenantAdministration(Environment.openDatabase(ownerOnly: "listing logins")).logins(of: tenant)
                if output.json {
                    try printJSON(LoginJSON.all(logins))
                    return
                }
                printTable(CatalogText.logins(logins), emptyMessage: "no logins for \(tenant): grant one with `herald tenant grant-operator --tenant \(tenant) --role NAME`")
            }
        }
    }

    struct GrantReporting: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-reporting",
            abstract: "Create (or update) a PostgreSQL login role that reads this tenant's reports and nothing else.",
            discussion: """
                The role can read the views in the `reporting` schema, and only this tenant's rows of them: no other \
                tenant, no raw tables, no writes, no objects of its own. The database enforces it (the views keep the rows \
                granted to the role an analyst logs in as), so nothing the analyst sets in their session widens it. \
                Running it again for the same role updates its password. Herald's database user needs CREATEROLE.

                Example: printf '%s' "$PASSWORD" | herald tenant grant-reporting --tenant acme --role acme_analyst --password-from-stdin
                """)

        @OptionGroup var login: LoginGrantOptions

        func run() throws {
            try login.grant(.reporting) { outcome, role, tenant in
                "\(outcome) role \(role): it reads \(tenant)'s rows of the reporting views (reporting.campaign_summary, ...)"
            }
        }
    }

    struct RevokeReporting: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-reporting",
            abstract: "Remove a reporting role's access to this tenant and drop the role.",
            discussion: "Example: herald tenant revoke-reporting --tenant acme --role acme_analyst")

        @OptionGroup var tenant: LoginTenant

        @Option(help: "Role name given to grant-reporting.")
        var role: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try revokeLogin(.reporting, tenant: tenant, role: role, json: output.json) { "had no reporting grant for \($0)" }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
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
                let tenant = try TenantAdministration(Environment.openDatabase(ownerOnly: "creating tenants")).create(slug: slug, name: name)
                if output.json {
                    try printJSON(TenantJSON(tenant))
                } else {
                    print("created tenant \(tenant.slug)")
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List tenants.", discussion: "Example: herald tenant list --json")

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let tenants = try TenantAdministration(Environment.openDatabase()).list()
                if output.json {
                    try printJSON(tenants.map(TenantJSON.init))
                    return
                }
                printTable(CatalogText.tenants(tenants), emptyMessage: "no tenants yet: create one with `herald tenant create SLUG --name NAME`")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a tenant and its apps.", discussion: "Example: herald tenant show acme")

        @Argument(help: "Tenant slug.")
        var slug: String

        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                let (tenant, apps) = try TenantAdministration(Environment.openDatabase()).show(slug)
                if output.json {
                    var json = TenantJSON(tenant)
                    json.apps = apps.map { $0.spec.slug.rawValue }
                    try printJSON(json)
                    return
                }
                print(CatalogText.describe(tenant, apps: apps))
            }
        }
    }
}

/// The arguments of `grant-operator` and `grant-reporting`: a tenant, a role name, and
/// optionally its password on standard input.
struct LoginGrantOptions: ParsableArguments {
    @OptionGroup var tenant: LoginTenant

    @Option(help: "Role name: lowercase letters, digits and _, not starting with pg_ or herald_.")
    var role: String

    @Flag(help: "Read the role's password from standard input (one line); without it the role has no password.")
    var passwordFromStdin = false

    @OptionGroup var output: JSONFlag

    /// Grants `role` to the tenant with `grant` (the password as a SCRAM verifier computed
    /// here), and prints the outcome: JSON, or `saying`'s sentence.
    func grant(_ access: TenantAdministration.Access, saying: (String, String, Slug) -> String) throws {
        try reportingFailures {
            let tenant = try tenant.slug()
            let password = passwordFromStdin ? try TenantCommand.passwordFromStandardInput() : nil
            let outcome = try TenantAdministration(Environment.openDatabase(ownerOnly: "granting logins"))
                .grant(access, role: role, tenant: tenant, password: password)
            if output.json {
                try printJSON(["role": role, "tenant": tenant.rawValue, "outcome": outcome.rawValue])
            } else {
                print(saying(outcome.rawValue, role, tenant))
            }
        }
    }
}

/// `revoke-operator` and `revoke-reporting`: takes `role`'s grant on the tenant away with
/// `revoke` (true when there was one, and the role is dropped) and says what happened.
private func revokeLogin(
    _ access: TenantAdministration.Access, tenant: LoginTenant, role: String, json: Bool, notGranted: (Slug) -> String
) throws {
    try reportingFailures {
        let tenant = try tenant.slug()
        let revoked = try TenantAdministration(Environment.openDatabase(ownerOnly: "revoking logins"))
            .revoke(access, role: role, tenant: tenant)
        if json {
            try printJSON(["role": role, "tenant": tenant.rawValue, "outcome": revoked ? "revoked" : "not granted"])
        } else if revoked {
            print("revoked: role \(role) no longer exists")
        } else {
            print("role \(role) \(notGranted(tenant)); nothing to do")
        }
    }
}

/// The tenant a login command works on: `--tenant SLUG`, as everywhere else (or, as before,
/// the first argument). HERALD_TENANT is not read: a login is granted on purpose.
struct LoginTenant: ParsableArguments {
    @Option(name: .customLong("tenant"), help: "Tenant slug.") var option: String?
    @Argument(help: ArgumentHelp("Tenant slug (the same as --tenant).", valueName: "tenant")) var argument: String?

    func slug() throws -> Slug {
        switch (option, argument) {
        case let (flag?, given?) where flag != given:
            throw InputError(message: "--tenant \(flag) and the argument \(given) name different tenants; give one", code: ExitStatus.usage)
        case (nil, nil):
            throw InputError(message: "no tenant given: pass --tenant SLUG", code: ExitStatus.usage)
        default:
            return try Slug(option ?? argument ?? "")
        }
    }
}

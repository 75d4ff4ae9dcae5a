import ArgumentParser
import Foundation
import HeraldStore

struct WhoamiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Which PostgreSQL login herald uses, which tenants it reaches and what it may do.",
        discussion: """
            Herald's own login (the database owner) reaches every tenant. A tenant operator's login \
            (`herald tenant grant-operator`) reaches its tenant alone, and the database holds it there; an analyst's \
            (`herald tenant grant-reporting`) reads its tenant's reporting views and runs no herald command.

            Example: herald whoami --json    # as the login of HERALD_DATABASE_URL (or PG*)
            """)

    @OptionGroup var output: JSONFlag

    struct Answer: Encodable {
        let login: String
        let kind: String
        let tenants: String?
        let auditActor: String?
        let may: [String]
    }

    func run() throws {
        try reportingFailures {
            let database = try HeraldDatabase(location: Environment.databaseLocation(), actor: Environment.actor)
            let login = try database.login()
            let answer: Answer
            switch login.kind {
            case .owner:
                answer = Answer(
                    login: login.name, kind: "owner", tenants: "all tenants", auditActor: Environment.actor,
                    may: [
                        "everything, in every tenant: tenants, apps, campaigns, conditions, apply, export, preview, report, audit",
                        "publish the whole site, events ingest and prune, migrate",
                        "give logins: tenant grant-operator, tenant grant-reporting",
                    ])
            case .tenantOperator:
                let tenant = login.tenant?.rawValue ?? "?"
                answer = Answer(
                    login: login.name, kind: "tenant-operator", tenants: tenant, auditActor: login.name,
                    may: [
                        "in tenant \(tenant) only: apps, campaigns, conditions, apply, export, validate, preview, report, audit",
                        "publish \(tenant)'s own folder (publish --out DIR writes DIR/\(tenant)/), its history and rollbacks",
                    ])
            case .analyst:
                let tenant = login.tenant?.rawValue ?? "?"
                answer = Answer(
                    login: login.name, kind: "analyst", tenants: tenant, auditActor: nil,
                    may: ["read tenant \(tenant)'s rows of the reporting views with SQL (reporting.campaign_summary, ...); no herald commands"])
            case .none:
                answer = Answer(login: login.name, kind: "none", tenants: nil, auditActor: nil, may: ["nothing of Herald's"])
            }
            if output.json {
                try printJSON(answer)
                return
            }
            print("login    \(answer.login)")
            print("tenants  \(answer.tenants ?? "none")")
            if let actor = answer.auditActor { print("audit    changes are recorded as \(actor)") }
            for (index, line) in answer.may.enumerated() {
                print("\(index == 0 ? "may      " : "         ")\(line)")
            }
        }
    }
}

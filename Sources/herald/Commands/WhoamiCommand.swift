import ArgumentParser
import Foundation
import HeraldJobs
import HeraldText
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

    func run() throws {
        try reportingFailures {
            let answer = try Whoami.read(HeraldDatabase(location: Environment.databaseLocation(), actor: Environment.actor))
            if output.json {
                try printJSON(answer)
                return
            }
            print(SessionText.describe(answer))
        }
    }
}

import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs

extension CampaignCommand {
    struct Approve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approve",
            abstract: "Approve a campaign's current version (four eyes: not by the login that changed it last).",
            discussion: """
                Records that this login reviewed the campaign as it is now. PostgreSQL compares logins \
                (session_user, not HERALD_ACTOR): the login that made the last change cannot approve it. In a tenant \
                that requires approval (`herald tenant update T --require-approval`), a campaign goes live, or \
                changes while live, only in an approved version; any later change needs a new approval. \
                `herald audit` lists approvals; the board lists campaigns awaiting one, with the change since the \
                last approved version.

                Example: herald campaign approve spring-sale --tenant acme --app weather
                """)
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions

        func run() throws {
            try reportingFailures {
                let (key, app) = (try Slug(key), try where_.app.slug())
                let approved = try CampaignApproval(Environment.openDatabase()).approve(tenant: try where_.tenant.named(), app: app, key: key)
                let change = approved.editedBy.map { " (last changed by \($0))" } ?? ""
                if approved.already {
                    print("campaign \(key) version \(approved.version) was approved already by \(approved.approvedBy)")
                } else {
                    print("approved campaign \(key) version \(approved.version)\(change) as \(approved.approvedBy)")
                }
            }
        }
    }
}

extension TenantCommand {
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change a tenant: its name, and whether its campaigns need four-eyes approval.",
            discussion: """
                With --require-approval, PostgreSQL refuses to let a campaign of the tenant go live, or change while \
                live, unless a login other than its last editor approved that version (`herald campaign approve`). \
                Herald's own login only: a tenant's team cannot waive its own review.

                Example: herald tenant update acme --require-approval
                """)
        @Argument(help: "Tenant slug.", completion: Completions.tenants) var slug: String
        @Flag(inversion: .prefixedNo, help: "Whether campaigns need approval by a second login before they go live.")
        var requireApproval: Bool?

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                guard let requireApproval else {
                    throw InputError(message: "nothing to change: pass --require-approval or --no-require-approval", code: ExitStatus.usage)
                }
                try CampaignApproval(Environment.openDatabase(ownerOnly: "changing whether a tenant requires approval"))
                    .require(requireApproval, tenant: slug)
                print("tenant \(slug) \(requireApproval ? "requires" : "does not require") approval of campaigns before they go live")
            }
        }
    }
}

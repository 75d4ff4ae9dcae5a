import Foundation
import HeraldCore

/// Four-eyes approval on the board: the index's list of campaigns awaiting approval, and each
/// campaign page's approval facts with the change since the approved version.
enum ApprovalParts {
    static func approval(_ context: BoardContext, tenant: Slug, app: Slug, campaign: Slug) -> BoardApproval? {
        context.input.approvals[BoardApproval.key(tenant: tenant, app: app, campaign: campaign)]
    }

    /// The tenant's campaigns whose current version is not approved, with who changed them.
    static func awaiting(_ tenant: TenantSpec, context: BoardContext) -> HTML {
        var rows: [HTML] = []
        for app in tenant.apps {
            for campaign in app.campaigns where campaign.status != .archived {
                guard let approval = approval(context, tenant: tenant.slug, app: app.slug, campaign: campaign.key), !approval.isApproved
                else { continue }
                rows.append(
                    """
                    <li data-awaiting="\(tenant.slug)/\(app.slug)/\(campaign.key)"><a href="\(tenant.slug)/\(app.slug)/\(campaign.key).html">\(campaign.name)</a> \
                    <span class="muted">· \(app.name) · version \(approval.version), changed by \(approval.editedBy ?? "an unrecorded login") \
                    \(When.text(approval.editedAt))\(approval.approvedVersion.map { HTML("; version \($0) was approved") })</span></li>
                    """)
            }
        }
        let inScope = context.input.approvals.keys.contains { $0.hasPrefix("\(tenant.slug)/") }
        guard inScope else { return .empty }
        guard !rows.isEmpty else {
            return "<div class=\"panel approvals\"><h3>Awaiting approval</h3><p class=\"muted\">Nothing: every campaign's current version is approved.</p></div>"
        }
        return """
            <div class="panel approvals"><h3>Awaiting approval (\(rows.count))</h3>
            <p class="muted">\(tenant.name) requires four eyes: a login other than the last editor runs \
            <code>herald campaign approve KEY --app APP</code> before the campaign goes live or changes while live.</p>
            <ul class="awaiting">\(rows)</ul></div>
            """
    }

    /// The campaign page's approval facts and, when it awaits approval, the change since the approved version.
    static func facts(_ approval: BoardApproval) -> HTML {
        let state: HTML =
            approval.isApproved
            ? "<span class=\"badge approved\">approved</span> version \(approval.version) by \(approval.approvedBy ?? "?")\(approval.approvedAt.map { HTML(" \(When.text($0))") })"
            : "<span class=\"badge awaiting\">awaiting approval</span> version \(approval.version)\(approval.approvedVersion.map { HTML("; version \($0) was approved by \(approval.approvedBy ?? "?")") })"
        let diff: HTML =
            approval.isApproved || approval.diff.isEmpty
            ? .empty
            : "<details open><summary>Changed since the approved version</summary><pre class=\"diff\">\(approval.diff)</pre></details>"
        return """
            <dt>Approval</dt><dd>\(state) <span class="muted">· last changed by \(approval.editedBy ?? "an unrecorded login") \
            \(When.text(approval.editedAt))</span>\(diff)</dd>
            """
    }
}

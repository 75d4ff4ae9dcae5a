import HeraldJobs
import HeraldText

/// What `campaign update` and `campaign condition add|remove` print: every changed field,
/// old → new, or with --json the campaign as it is now with its `changes`.
func printUpdate(_ edit: CampaignEditing.Edit, json: Bool) throws {
    if json {
        var campaign = CampaignJSON(edit.after, app: edit.app.slug, detail: edit.app)
        campaign.changes = edit.changes.map(ChangeJSON.init)
        try printJSON(campaign)
    } else if edit.changes.isEmpty {
        print("no change")
    } else {
        print("updated \(edit.after.key): \(edit.changes.count) change(s)")
        for change in edit.changes { print("  " + ChangeJSON.line(change)) }
    }
}

import Foundation
import HeraldCore

/// One app's campaigns with their state as devices see it, a filter by state (radio buttons
/// and CSS: no script, the policy stays strict), and the app's schedules over the last and
/// next week. The index links here, so that no page grows with the number of apps.
enum AppPage {
    /// The states in the order the filter offers them (and the table sorts them).
    static let states: [CampaignState] = [.live, .scheduled, .paused, .draft, .ended, .archived]

    static func render(_ app: AppSpec, tenant: TenantSpec, context: BoardContext) -> HTML {
        let at = context.timelineMoment
        let badges = Dictionary(app.campaigns.map { ($0.key, CampaignBadge($0, at: at)) }, uniquingKeysWith: { first, _ in first })
        let ordered = app.campaigns.sorted {
            ((badges[$0.key]?.order ?? 0), $0.key.rawValue) < ((badges[$1.key]?.order ?? 0), $1.key.rawValue)
        }
        let rows: [HTML] = ordered.map { campaign in
            let state = badges[campaign.key] ?? CampaignBadge(campaign, at: at)
            let notes = context.warnings.count(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
            let locales = campaign.locales.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "all"
            return """
                <tr data-campaign="\(campaign.key)" data-state="\(state.name)">\
                <th scope="row"><a href="\(app.slug)/\(campaign.key).html">\(campaign.name)</a><br><code>\(campaign.key)</code></th>\
                <td><span class="kind">\(campaign.kind.rawValue)</span></td>\
                <td>\(state.html(at: at))</td>\
                <td class="wide">\(When.scheduleHTML(campaign))</td><td class="wide">\(locales)</td>\
                <td>\(notes == 0 ? HTML(trusted: "<span class=\"muted\">none</span>") : HTML("<span class=\"count-warn\">\(notes) note\(notes == 1 ? "" : "s")</span>"))</td></tr>
                """
        }
        let appWarnings = context.warnings.appWarnings(tenant: tenant.slug, app: app.slug)
        let main: HTML = """
            <h1>\(app.name)</h1>
            <p class="lede"><code>\(app.slug)</code> of \(tenant.name) · \(app.platform.rawValue) · \
            \(app.locales.map(\.rawValue).joined(separator: ", ")) (default \(app.defaultLocale)). States as at \(context.moment).</p>
            \(appWarnings.isEmpty ? HTML.empty : IndexPage.warningList(appWarnings))
            <section class="panel app" aria-labelledby="campaigns-h">
            <h2 id="campaigns-h">Campaigns</h2>
            \(app.campaigns.isEmpty ? HTML(trusted: "<p class=\"muted\">No campaigns.</p>") : HTML("""
                \(filter(badges.values.map(\.state)))
                <div class="scroll" role="region" tabindex="0" aria-label="Campaigns of \(app.name)"><table class="campaigns">
                <caption>Campaigns of \(app.name)</caption>
                <thead><tr><th scope="col">Campaign</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col" class="wide">Schedule</th>\
                <th scope="col" class="wide">Locales</th><th scope="col">Review notes</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """))
            </section>
            <section class="panel" aria-labelledby="schedules-h">
            <h2 id="schedules-h">Schedules, last week and next</h2>
            <div class="chart-box" role="region" tabindex="0" aria-label="Schedules of \(app.name)">\(Timeline.svg(id: "tl-\(tenant.slug)-\(app.slug)", app: app, at: context.timelineMoment))</div>
            \(Timeline.legend)
            </section>
            """
        return Layout.page(
            title: "\(app.name) (\(tenant.slug)/\(app.slug))", root: "../",
            breadcrumb: [("Board", "../index.html"), (tenant.name, "../index.html#t-\(tenant.slug)"), (app.name, nil)], main: main)
    }

    /// Radio buttons, one per state the app's campaigns are in, and "all": the stylesheet hides
    /// the rows of other states while one is checked (`#f-live:checked ~ .scroll tr…`). Without
    /// CSS every row shows, as "all" does.
    static func filter(_ present: [CampaignState]) -> HTML {
        let counts = Dictionary(present.map { ($0, 1) }, uniquingKeysWith: +)
        var choices: HTML = """
            <input type="radio" class="filter" name="state" id="f-all" checked><label for="f-all">All <span class="muted">\(present.count)</span></label>
            """
        for state in states {
            guard let count = counts[state] else { continue }
            choices += """
                <input type="radio" class="filter" name="state" id="f-\(state.rawValue)"><label for="f-\(state.rawValue)" class="badge \(state.rawValue)">\(state.rawValue) \(count)</label>
                """
        }
        return "<p class=\"filter-note muted\" id=\"filter-h\">Show campaigns that are:</p>\(choices)"
    }

    /// The filter's rules: one per state (the stylesheet holds them; the pages hold no style).
    static var filterRules: String {
        states.map { state in
            let name = state.rawValue
            return "#f-\(name):checked ~ .scroll tr[data-state]:not([data-state=\"\(name)\"]) { display: none; }"
        }.joined(separator: "\n") + "\n"
    }
}

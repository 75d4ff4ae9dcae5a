import Foundation
import HeraldCore

/// Tenants → apps with their campaigns counted by state (each app's own page lists them), each
/// tenant's top campaigns and what awaits approval, and what changed since the previous board.
enum IndexPage {
    static func render(_ context: BoardContext) -> HTML {
        let at = context.timelineMoment
        var main: HTML = """
            <h1>Campaigns under review</h1>
            <p class="lede">Each campaign as devices draw it, who sees it and how it does. States as at \(context.moment)\
            \(context.input.scope.map { HTML("; only tenant <strong>\($0)</strong>") }). \
            <a href="history.html">Publish history</a>.</p>
            """
        main += changes(context)
        if context.tenants.isEmpty {
            main += "<p class=\"panel\">No tenants yet: <code>herald tenant create</code>, or <code>herald demo</code>.</p>"
        }
        for tenant in context.tenants {
            main += """
                <section class="tenant" aria-labelledby="t-\(tenant.slug)">
                <h2 id="t-\(tenant.slug)">\(tenant.name) <span class="muted">· tenant <code>\(tenant.slug)</code></span></h2>
                \(ApprovalParts.awaiting(tenant, context: context))
                \(topCampaigns(tenant, context: context))
                """
            main += appTable(tenant, context: context, at: at)
            main += "</section>"
        }
        if !context.warnings.unplaced.isEmpty {
            main += "<section class=\"panel\"><h2>Other publish warnings</h2>\(warningList(context.warnings.unplaced))</section>"
        }
        return Layout.page(title: "Campaigns", root: "", breadcrumb: [("Board", nil)], main: main)
    }

    /// One row per app: its campaigns counted by state, each count a link to the app's page.
    private static func appTable(_ tenant: TenantSpec, context: BoardContext, at: Date) -> HTML {
        guard !tenant.apps.isEmpty else { return "<p class=\"muted\">No apps.</p>" }
        let rows: [HTML] = tenant.apps.map { app in
            var counts: [CampaignState: Int] = [:]
            var notes = 0
            for campaign in app.campaigns {
                counts[CampaignState(campaign, at: at), default: 0] += 1
                notes += context.warnings.count(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
            }
            let states: [HTML] = AppPage.states.compactMap { state in
                counts[state].map { HTML("<span class=\"badge \(state.rawValue)\">\(state.rawValue) \($0)</span> ") }
            }
            let appWarnings = context.warnings.appWarnings(tenant: tenant.slug, app: app.slug).count
            notes += appWarnings
            return """
                <tr data-app="\(app.slug)"><th scope="row"><a href="\(tenant.slug)/\(app.slug).html">\(app.name)</a><br><code>\(app.slug)</code></th>\
                <td class="wide">\(app.platform.rawValue) · \(app.locales.map(\.rawValue).joined(separator: ", "))</td>\
                <td>\(app.campaigns.isEmpty ? HTML(trusted: "<span class=\"muted\">no campaigns</span>") : HTML("\(states)"))</td>\
                <td>\(notes == 0 ? HTML(trusted: "<span class=\"muted\">none</span>") : HTML("<span class=\"count-warn\">\(notes) note\(notes == 1 ? "" : "s")</span>"))</td></tr>
                """
        }
        return """
            <div class="scroll" role="region" tabindex="0" aria-label="Apps of \(tenant.name)"><table class="apps">
            <caption>Apps of \(tenant.name): each app's page lists its campaigns, with a filter by state, and its schedules</caption>
            <thead><tr><th scope="col">App</th><th scope="col" class="wide">Platform · locales</th><th scope="col">Campaigns by state</th>\
            <th scope="col">Review notes</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }

    /// The campaigns added, changed (content, state or approval) or removed since the previous board.
    private static func changes(_ context: BoardContext) -> HTML {
        guard let changes = context.changes else { return .empty }
        let heading: HTML = "<section class=\"panel changes-since\" aria-labelledby=\"changes-h\"><h2 id=\"changes-h\">Changed since the previous board</h2>"
        guard let since = changes.since else {
            return "\(heading)<p class=\"muted\">This is the first board in this folder: the next one lists what changed since this one.</p></section>"
        }
        guard !changes.isEmpty else {
            return "\(heading)<p class=\"muted\">Nothing changed since the previous board (\(since)).</p></section>"
        }
        let names = Dictionary(
            context.tenants.flatMap { tenant in
                tenant.apps.flatMap { app in app.campaigns.map { ("\(tenant.slug)/\(app.slug)/\($0.key)", $0.name) } }
            }, uniquingKeysWith: { first, _ in first })
        func item(_ key: String, _ kind: String) -> HTML {
            guard kind != "removed", let name = names[key] else { return "<li class=\"\(kind)\">\(kind) <code>\(key)</code></li>" }
            return "<li class=\"\(kind)\">\(kind) <a href=\"\(key).html\">\(name)</a> <code>\(key)</code></li>"
        }
        // A page stays small whatever changed: the first 200, then how many more.
        let all = changes.added.map { ($0, "added") } + changes.changed.map { ($0, "changed") } + changes.removed.map { ($0, "removed") }
        var items: [HTML] = all.prefix(200).map { item($0.0, $0.1) }
        if all.count > 200 { items.append("<li>and \(all.count - 200) more</li>") }
        return """
            \(heading)
            <p class="muted">Campaigns whose content, state or approval differs from the previous board's (\(since)).</p>
            <ul class="changes">\(items)</ul></section>
            """
    }

    /// The tenant's campaigns with the most impressions over the window.
    private static func topCampaigns(_ tenant: TenantSpec, context: BoardContext) -> HTML {
        var ranked: [(app: AppSpec, campaign: CampaignSpec, series: DaySeries)] = []
        for app in tenant.apps {
            for campaign in app.campaigns {
                let series = context.series(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
                if !series.isEmpty { ranked.append((app, campaign, series)) }
            }
        }
        ranked.sort {
            ($0.series.totalImpressions, $1.campaign.key.rawValue) > ($1.series.totalImpressions, $0.campaign.key.rawValue)
        }
        let top = ranked.prefix(10)
        guard !top.isEmpty else {
            return "<p class=\"muted\">No delivery events for \(tenant.name) in \(context.window).</p>"
        }
        let maximum = top.map(\.series.totalImpressions).max() ?? 0
        let rows: [HTML] = top.map { item in
            let impressions = item.series.totalImpressions
            return """
                <tr><th scope="row"><a href="\(tenant.slug)/\(item.app.slug)/\(item.campaign.key).html">\(item.campaign.name)</a> \
                <span class="muted">· \(item.app.name)</span></th>\
                <td class="wide">\(Charts.inlineBar(value: impressions, maximum: maximum, label: "\(impressions) impressions"))</td>\
                <td class="num">\(impressions)</td><td class="num">\(item.series.totalClicks)</td>\
                <td class="num wide">\(item.series.totalDismissals)</td><td class="num">\(Percent.text(item.series.clickThroughRate))</td></tr>
                """
        }
        return """
            <div class="panel"><h3>Top campaigns, \(context.window)</h3>
            <div class="scroll" role="region" tabindex="0" aria-label="Top campaigns of \(tenant.name)"><table class="top">
            <caption class="muted">By impressions, from the reporting views; click-through rate is clicks per impression.</caption>
            <thead><tr><th scope="col">Campaign</th><th scope="col" class="wide">Compared</th><th scope="col" class="num">Impressions</th>\
            <th scope="col" class="num">Clicks</th><th scope="col" class="num wide">Dismissals</th><th scope="col" class="num">Click-through</th></tr></thead>
            <tbody>\(rows)</tbody></table></div></div>
            """
    }

    static func warningList(_ lines: [String]) -> HTML {
        let items: [HTML] = lines.map { line in
            line.hasPrefix("refused by publish: ") ? "<li class=\"error\">\(line)</li>" : "<li>\(line)</li>"
        }
        return "<ul class=\"warnings\">\(items)</ul>"
    }
}

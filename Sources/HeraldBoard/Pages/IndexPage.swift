import Foundation
import HeraldCore

/// Tenants → apps → campaigns with their state as devices see it, each app's schedules over
/// the last and next week, and each tenant's top campaigns.
enum IndexPage {
    static func render(_ context: BoardContext) -> HTML {
        let at = context.input.at
        var main: HTML = """
            <h1>Campaigns under review</h1>
            <p class="lede">Each campaign as devices draw it, who sees it and how it does. States as at \(context.moment)\
            \(context.input.scope.map { HTML("; only tenant <strong>\($0)</strong>") }). \
            <a href="history.html">Publish history</a>.</p>
            """
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
            if tenant.apps.isEmpty { main += "<p class=\"muted\">No apps.</p>" }
            for app in tenant.apps {
                main += appSection(app, tenant: tenant, context: context, at: at)
            }
            main += "</section>"
        }
        if !context.warnings.unplaced.isEmpty {
            main += "<section class=\"panel\"><h2>Other publish warnings</h2>\(warningList(context.warnings.unplaced))</section>"
        }
        return Layout.page(title: "Campaigns", root: "", breadcrumb: [("Board", nil)], main: main)
    }

    private static func appSection(_ app: AppSpec, tenant: TenantSpec, context: BoardContext, at: Date) -> HTML {
        let ordered = app.campaigns.sorted {
            (CampaignBadge($0, at: at).order, $0.key.rawValue) < (CampaignBadge($1, at: at).order, $1.key.rawValue)
        }
        let rows: [HTML] = ordered.map { campaign in
            let state = CampaignBadge(campaign, at: at)
            let notes = context.warnings.count(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
            let locales = campaign.locales.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "all"
            return """
                <tr data-campaign="\(campaign.key)" data-state="\(state.name)">\
                <th scope="row"><a href="\(tenant.slug)/\(app.slug)/\(campaign.key).html">\(campaign.name)</a><br><code>\(campaign.key)</code></th>\
                <td><span class="kind">\(campaign.kind.rawValue)</span></td>\
                <td><span class="badge \(state.name)">\(state.label(at: at))</span></td>\
                <td class="wide">\(When.schedule(campaign))</td><td class="wide">\(locales)</td>\
                <td>\(notes == 0 ? HTML(trusted: "<span class=\"muted\">none</span>") : HTML("<span class=\"count-warn\">\(notes) note\(notes == 1 ? "" : "s")</span>"))</td></tr>
                """
        }
        let appWarnings = context.warnings.appWarnings(tenant: tenant.slug, app: app.slug)
        return """
            <section class="panel app" aria-labelledby="a-\(tenant.slug)-\(app.slug)">
            <h3 id="a-\(tenant.slug)-\(app.slug)">\(app.name) <span class="muted">· <code>\(app.slug)</code> · \(app.platform.rawValue) · \
            \(app.locales.map(\.rawValue).joined(separator: ", ")) (default \(app.defaultLocale))</span></h3>
            \(appWarnings.isEmpty ? HTML.empty : warningList(appWarnings))
            \(app.campaigns.isEmpty ? HTML(trusted: "<p class=\"muted\">No campaigns.</p>") : HTML("""
                <div class="scroll" role="region" tabindex="0" aria-label="Campaigns of \(app.name)"><table class="campaigns">
                <caption>Campaigns of \(app.name)</caption>
                <thead><tr><th scope="col">Campaign</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col" class="wide">Schedule</th>\
                <th scope="col" class="wide">Locales</th><th scope="col">Review notes</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """))
            <h4>Schedules, last week and next</h4>
            <div class="chart-box" role="region" tabindex="0" aria-label="Schedules of \(app.name)">\(Timeline.svg(id: "tl-\(tenant.slug)-\(app.slug)", app: app, at: context.timelineMoment))</div>
            \(Timeline.legend)
            </section>
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

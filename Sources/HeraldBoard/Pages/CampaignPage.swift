import Foundation
import HeraldCore
import HeraldPublish

/// One campaign: what it is, each of its app's locales as devices draw it, who sees it, and
/// how it did.
enum CampaignPage {
    static func render(_ campaign: CampaignSpec, app: AppSpec, tenant: TenantSpec, context: BoardContext) -> HTML {
        let at = context.timelineMoment
        let state = CampaignBadge(campaign, at: at)
        let publishWarnings = context.warnings.publishWarnings(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
        let copy = context.warnings.copyFindings(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
        var facts: [HTML] = [
            "<dt>State</dt><dd>\(state.html(at: at)) <span class=\"muted\">as at \(context.moment)</span></dd>",
            "<dt>Schedule</dt><dd>\(When.scheduleHTML(campaign))</dd>",
            "<dt>Locales</dt><dd>\(campaign.locales.map { "restricted to " + $0.map(\.rawValue).joined(separator: ", ") } ?? "every locale of the app: " + app.locales.map(\.rawValue).joined(separator: ", ")); content written in \(campaign.content.keys.sorted().map(\.rawValue).joined(separator: ", "))</dd>",
        ]
        switch campaign.kind {
        case .banner:
            facts.append("<dt>Notification id</dt><dd><code>\(campaign.key)</code> (devices remember it)</dd>")
            facts.append("<dt>Priority</dt><dd>\(campaign.priority) <span class=\"muted\">(Herald's order; Notable does not read it)</span></dd>")
        case .alert:
            facts.append("<dt>Message key</dt><dd><code>\(campaign.messageKey?.rawValue ?? "assigned when stored")</code> (devices remember it)</dd>")
        case .story:
            if let sound = campaign.push.sound { facts.append("<dt>Push sound</dt><dd>\(sound.isDefault ? "the system's sound" : sound.rawValue)</dd>") }
            if let badge = campaign.push.badge { facts.append("<dt>Push badge</dt><dd>\(badge.description)</dd>") }
        case .local:
            facts.append("<dt>Notification key</dt><dd><code>\(campaign.key)</code> (userInfo key: devices cancel it by this)</dd>")
            if let notification = campaign.localNotification {
                facts.append("<dt>Fires</dt><dd>\(notification.fireDate.words)\(notification.repeatInterval.map { ", then every \($0.rawValue)" } ?? ", once")</dd>")
            }
        }
        if let approval = ApprovalParts.approval(context, tenant: tenant.slug, app: app.slug, campaign: campaign.key) {
            facts.append(ApprovalParts.facts(approval))
        }
        let sentences: [HTML] = ConditionWords.sentences(campaign).map { "<li>\($0)</li>" }
        facts.append("<dt>Who</dt><dd><ul class=\"conditions\">\(sentences)</ul></dd>")
        let notes = publishWarnings.count + copy.count
        facts.append(
            "<dt>Review notes</dt><dd>\(notes == 0 ? "none" : "\(publishWarnings.count) from publish, \(copy.count) on the copy (on the cards below)")</dd>")

        let cards: [HTML] = app.locales.map { locale in
            card(campaign, app: app, locale: locale, sentences: sentences, publishWarnings: publishWarnings, copy: copy, at: at)
        }
        let main: HTML = """
            <h1>\(campaign.name)</h1>
            <p class="lede"><span class="kind">\(campaign.kind.rawValue)</span> <code>\(campaign.key)</code> in \(app.name) of \(tenant.name) \
            \(state.html(at: at))</p>
            <div class="panel"><dl class="facts">\(facts)</dl>\(publishWarnings.isEmpty ? HTML.empty : IndexPage.warningList(publishWarnings))</div>
            <section aria-labelledby="drawn"><h2 id="drawn">As devices draw it, locale by locale</h2>
            <div class="cards">\(cards)</div></section>
            \(matrix(campaign, app: app, tenant: tenant, context: context))
            \(delivery(campaign, app: app, tenant: tenant, context: context))
            """
        return Layout.page(
            title: "\(campaign.name) (\(tenant.slug)/\(app.slug))", root: "../../",
            breadcrumb: [("Board", "../../index.html"), (tenant.name, "../../index.html#t-\(tenant.slug)"),
                (app.name, "../\(app.slug).html"), (campaign.name, nil)],
            main: main)
    }

    // MARK: Cards

    private static func card(
        _ campaign: CampaignSpec, app: AppSpec, locale: LocaleTag, sentences: [HTML], publishWarnings: [String], copy: [CopyFinding],
        at: Date
    ) -> HTML {
        let found = LocaleContent(campaign: campaign, locale: locale, app: app)
        let noteClass = found.content == nil ? "none" : found.source == locale ? "own" : "other"
        var body: HTML = .empty
        if let content = found.content {
            switch content {
            case .banner(let banner): body = Drawings.banner(banner, app: app, campaign: campaign, locale: locale)
            case .alert(let alert): body = Drawings.alert(alert, app: app)
            case .story(let story): body = Drawings.story(story, app: app)
            case .local(let words):
                body = Drawings.local(words, notification: campaign.localNotification, campaign: campaign, app: app, at: at)
            }
            body += text(content, campaign: campaign, found: found)
            // The campaign's words in their own language, for screen readers and hyphenation.
            if let source = found.source { body = "<div lang=\"\(source)\">\(body)</div>" }
        }
        // The copy lint of the content shown; publish's warnings that name this locale (or no locale).
        let findings: [HTML] = copy.filter { $0.locale == found.source }.map { finding in
            "<li data-rule=\"\(finding.rule.rawValue)\"><span class=\"rule\">Copy, \(finding.locale) \(finding.field):</span> \(finding.message)</li>"
        }
        let warnings: [HTML] = publishWarnings.filter { concerns($0, locale: locale, source: found.source) }.map { line in
            line.hasPrefix("refused by publish: ") ? "<li class=\"error\">\(line)</li>" : "<li><span class=\"rule\">Publish:</span> \(line)</li>"
        }
        let id = "card-\(locale)"
        return """
            <article class="card" id="\(id)" data-locale="\(locale)" data-source="\(found.source?.rawValue ?? "")" aria-labelledby="\(id)-h">
            <h3 id="\(id)-h">\(BoardContext.localeName(locale))</h3>
            <p class="fallback \(noteClass)">\(found.note)</p>
            \(body)
            \(findings.isEmpty && warnings.isEmpty ? HTML.empty : HTML("<ul class=\"warnings\" aria-label=\"Review notes\">\(warnings)\(findings)</ul>"))
            <details open><summary>Who gets it</summary><ul class="conditions">\(sentences)</ul></details>
            </article>
            """
    }

    /// A publish warning concerns a card when it names no locale, or names the card's locale or
    /// the locale whose content the card shows (`… [de, en]: …`).
    static func concerns(_ line: String, locale: LocaleTag, source: LocaleTag?) -> Bool {
        guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return true }
        let named = line[line.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard named.allSatisfy({ (try? LocaleTag($0)) != nil }) else { return true }
        return named.contains(locale.rawValue) || source.map { named.contains($0.rawValue) } == true
    }

    /// The words of the content, as text (what screen readers and reviewers of the copy read).
    private static func text(_ content: CampaignContent, campaign: CampaignSpec, found: LocaleContent) -> HTML {
        var rows: [HTML] = []
        // Characters that are not seen but change how the text reads are shown as ‹U+202E›
        // here (the drawing above shows the text as devices draw it).
        func add(_ term: String, _ value: String?) {
            if let value { rows.append("<dt>\(term)</dt><dd>\(InvisibleText.shown(value))</dd>") }
        }
        switch content {
        case .banner(let banner):
            for view in banner.views {
                let source: String
                switch view.source {
                case .file(let url): source = url.rawValue
                case .html(let markup): source = "inline HTML, \(markup.utf8.count) bytes"
                }
                add("View \(view.id)\(view.id == banner.entry ? " (entry)" : "")", "\(Drawings.viewPlacement(view)); \(source)")
            }
        case .alert(let alert):
            add("Title", alert.title)
            add("Message", alert.message)
            add("Buttons", Drawings.alertButtons(alert).map(\.label).joined(separator: " · "))
            add("Action URL", alert.actionURL.map { $0.rawValue + (found.actionURLFrom.map { " (from the \($0) content)" } ?? "") })
        case .local(let words):
            add("Body", words.body)
            let notification = campaign.localNotification
            add("Action", notification?.hasAction == false ? "none" : words.action ?? "View (iOS's own label)")
            add("Badge", notification?.badge.map(String.init))
            add("Sound", notification?.sound?.rawValue)
            add("Launch image", notification?.launchImage?.rawValue)
        case .story(let story):
            add("Push title", story.pushTitle)
            add("Push text", story.pushText)
            for (index, page) in story.pages.enumerated() {
                let parts = [page.title, page.subtitle, page.buttonTitle.map { "button \u{201C}\($0)\u{201D}" }].compactMap { $0 }
                add("Page \(index + 1)", parts.isEmpty ? "image only" : parts.joined(separator: " · "))
            }
        }
        return "<dl class=\"copy\">\(rows)</dl>"
    }

    // MARK: Who sees what

    private static func matrix(_ campaign: CampaignSpec, app: AppSpec, tenant: TenantSpec, context: BoardContext) -> HTML {
        let rows = DeviceMatrix.rows(for: campaign, app: app, tenant: tenant, parsed: context.parsedFiles, at: context.timelineMoment)
        let head: [HTML] = app.locales.map { "<th scope=\"col\">\($0)</th>" }
        let body: [HTML] = rows.map { row in
            let cells: [HTML] = row.cells.map { cell in
                let verdict: HTML =
                    cell.shown
                    ? "<span class=\"verdict\">✓ \(cell.verdict)</span>\(cell.detail.map { HTML("<span class=\"why\">\($0)</span>") })"
                    : "<span class=\"verdict\">✗ not shown</span><span class=\"why\">\(cell.verdict)</span>"
                return "<td class=\"\(cell.shown ? "yes" : "no")\" data-locale=\"\(cell.locale)\" data-shown=\"\(cell.shown ? "true" : "false")\" data-reason=\"\(cell.shown ? "" : cell.verdict)\">\(verdict)</td>"
            }
            return """
                <tr data-preview-args="\(argumentsJSON(row.device.previewArguments))"><th scope="row">\(row.device.label)\
                <span class="device">\(deviceSummary(row.device, campaign: campaign))</span></th>\(cells)</tr>
                """
        }
        let command = "herald preview --tenant \(tenant.slug) --app \(app.slug) --locale LOCALE" + (context.input.atIsExplicit ? " --at \(Timestamp.format(context.input.at))" : "") + " …"
        return """
            <section aria-labelledby="who"><h2 id="who">Who sees what</h2>
            <p class="lede">Devices made from this campaign's own bounds, each decided by the same rules as <code>\(command)</code>, \
            against the files publish would write at \(context.moment). Other campaigns of the app count too: an older alert \
            waits behind a newer one.</p>
            <div class="scroll" role="region" tabindex="0" aria-label="Who sees \(campaign.name)">\
            <table class="matrix" data-tenant="\(tenant.slug)" data-app="\(app.slug)" data-campaign="\(campaign.key)">
            <caption>\(campaign.name) on representative devices, per locale</caption>
            <thead><tr><th scope="col">Device</th>\(head)</tr></thead>
            <tbody>\(body)</tbody></table></div></section>
            """
    }

    static func argumentsJSON(_ arguments: [String]) -> String {
        "[" + arguments.map(JSONText.quoted).joined(separator: ",") + "]"
    }

    private static func deviceSummary(_ device: MatrixDevice, campaign: CampaignSpec) -> String {
        var parts = ["app \(device.appVersion)", "OS \(device.osVersion)", device.wifi ? "Wi-Fi on" : "Wi-Fi off"]
        // The clients' words: iNotify's first launch (it only records it) is not "nothing seen yet".
        if device.firstLaunch { parts.append("the app's first launch") }
        if device.displayed.isEmpty, device.seen.isEmpty { parts.append("nothing seen yet") }
        for id in device.displayed {
            var shown = "shown before"
            if let launches = device.launchesSince[id] { shown += ", \(launches) launch\(launches == 1 ? "" : "es") ago" }
            if let seconds = device.secondsSince[id] { shown += ", \(seconds) s ago" }
            parts.append(shown)
        }
        for (_, names) in device.flags.sorted(by: { $0.key < $1.key }) { parts += names.map { "flag \($0) set" } }
        for key in device.seen { parts.append("seen \(key)") }
        return parts.joined(separator: " · ")
    }

    // MARK: Delivery

    private static func delivery(_ campaign: CampaignSpec, app: AppSpec, tenant: TenantSpec, context: BoardContext) -> HTML {
        let window = context.series(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
        guard !window.isEmpty else {
            return """
                <section aria-labelledby="delivery"><h2 id="delivery">Delivery</h2>
                <p class="muted">No delivery events between \(context.window).</p></section>
                """
        }
        // The campaign's own days, from when it started (or first had events) to its end.
        let series = window.period(startsAt: campaign.startsAt, endsAt: campaign.endsAt)
        let days = series.days
        let period = "\(days.first ?? "") … \(days.last ?? "")"
        // Today's counts are so far: the last day is marked, not drawn as a whole day.
        let today = When.day(context.timelineMoment)
        let partial = days.last == today ? "today, so far" : nil
        let rates = days.indices.map { DaySeries.rate(series.clicks[$0], series.impressions[$0]) }
        let counts = Charts.lines(
            id: "daily", title: "Delivered, impressions, clicks and dismissals per day, \(period)",
            description: "Totals: \(series.totalDelivered) delivered, \(series.totalImpressions) impressions, \(series.totalClicks) clicks, \(series.totalDismissals) dismissals\(partial.map { "; the last day is \($0)" } ?? "").",
            days: days,
            series: [
                .init(name: "delivered", values: series.delivered, style: "delivered"),
                .init(name: "impressions", values: series.impressions, style: "impressions"),
                .init(name: "clicks", values: series.clicks, style: "clicks"),
                .init(name: "dismissals", values: series.dismissals, style: "dismissals"),
            ], yTitle: "Events per day", partialLast: partial)
        let rateChart = Charts.rateBars(
            id: "ctr", title: "Click-through rate per day, \(period)",
            description: "Clicks per impression over the period: \(Percent.text(series.clickThroughRate)).", days: days, rates: rates,
            yTitle: "Clicks per impression (%)", partialLast: partial)
        let tableRows: [HTML] = days.indices.compactMap { index in
            let total = series.delivered[index] + series.impressions[index] + series.clicks[index] + series.dismissals[index]
            guard total > 0 else { return nil }
            return """
                <tr><th scope="row">\(days[index])</th><td class="num">\(series.delivered[index])</td><td class="num">\(series.impressions[index])</td>\
                <td class="num">\(series.clicks[index])</td><td class="num">\(series.dismissals[index])</td><td class="num">\(Percent.text(rates[index]))</td></tr>
                """
        }
        return """
            <section aria-labelledby="delivery"><h2 id="delivery">Delivery, \(period)</h2>
            <ul class="totals">
            <li><strong>\(series.totalDelivered)</strong> delivered</li><li><strong>\(series.totalImpressions)</strong> impressions</li>
            <li><strong>\(series.totalClicks)</strong> clicks</li><li><strong>\(series.totalDismissals)</strong> dismissals</li>
            <li><strong>\(Percent.text(series.clickThroughRate))</strong> click-through</li></ul>
            <div class="panel"><h3>Per day</h3>
            <ul class="legend"><li><span class="swatch delivered"></span>Delivered</li><li><span class="swatch impressions"></span>Impressions</li><li><span class="swatch clicks"></span>Clicks</li>\
            <li><span class="swatch dismissals"></span>Dismissals</li>\(partial == nil ? HTML.empty : HTML(trusted: "<li><span class=\"swatch partial\"></span>Today, so far</li>"))</ul>
            <div class="chart-box" role="region" tabindex="0" aria-label="Events per day">\(counts)</div>
            <h3>Click-through rate</h3>
            <div class="chart-box" role="region" tabindex="0" aria-label="Click-through rate per day">\(rateChart)</div>
            <details><summary>The numbers</summary><div class="scroll"><table>
            <thead><tr><th scope="col">Day</th><th scope="col" class="num">Delivered</th><th scope="col" class="num">Impressions</th>\
            <th scope="col" class="num">Clicks</th><th scope="col" class="num">Dismissals</th><th scope="col" class="num">Click-through</th></tr></thead>
            <tbody>\(tableRows)</tbody></table></div></details></div></section>
            """
    }
}

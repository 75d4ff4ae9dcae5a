import Foundation
import HeraldCore

/// An app's schedules over the last and the next week, as inline SVG, with a line at the
/// board's moment. Archived campaigns are left out; campaigns not active are drawn hollow.
enum Timeline {
    static let days = 7.0
    static let width = 720.0
    static let labelWidth = 190.0
    static let rowHeight = 26.0
    static let head = 26.0

    /// What the bars mean.
    static let legend: HTML = """
        <ul class="legend timeline-legend"><li><span class="key state-live"></span>live</li><li><span class="key state-scheduled"></span>scheduled</li>\
        <li><span class="key state-ended"></span>ended</li><li><span class="key state-paused"></span>paused</li>\
        <li><span class="key state-draft"></span>draft</li><li>◂ ▸ starts or ends outside the two weeks</li></ul>
        """

    static func svg(id: String, app: AppSpec, at: Date) -> HTML {
        let start = at.addingTimeInterval(-days * 86_400)
        let end = at.addingTimeInterval(days * 86_400)
        let campaigns = app.campaigns.filter { campaign in
            campaign.status != .archived && (campaign.startsAt.map { $0 < end } ?? true) && (campaign.endsAt.map { $0 > start } ?? true)
        }.sorted {
            (CampaignBadge($0, at: at).order, $0.startsAt ?? .distantPast, $0.key.rawValue)
                < (CampaignBadge($1, at: at).order, $1.startsAt ?? .distantPast, $1.key.rawValue)
        }
        guard !campaigns.isEmpty else { return "<p class=\"muted\">No campaign scheduled between \(When.text(start)) and \(When.text(end)).</p>" }
        let plot = width - labelWidth - 12
        func x(_ date: Date) -> Double {
            labelWidth + plot * min(max(date.timeIntervalSince(start) / end.timeIntervalSince(start), 0), 1)
        }
        let height = head + rowHeight * Double(campaigns.count) + 22
        var body = ""
        // Day lines, labelled every other day.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var day = calendar.startOfDay(for: start).addingTimeInterval(86_400)
        var index = 0
        while day < end {
            let lineX = Charts.number(x(day))
            body += "<line class=\"grid\" x1=\"\(lineX)\" x2=\"\(lineX)\" y1=\"\(Charts.number(head - 6))\" y2=\"\(Charts.number(height - 16))\"/>"
            if index % 2 == 0 {
                body += "<text class=\"tick\" x=\"\(lineX)\" y=\"14\" text-anchor=\"middle\">\(HTML.escape(String(When.day(day).dropFirst(5))))</text>"
            }
            day = day.addingTimeInterval(86_400)
            index += 1
        }
        for (row, campaign) in campaigns.enumerated() {
            let y = head + rowHeight * Double(row)
            let state = CampaignBadge(campaign, at: at)
            let from = x(campaign.startsAt ?? start)
            let to = x(campaign.endsAt ?? end)
            let name = campaign.name.count > 24 ? String(campaign.name.prefix(23)) + "…" : campaign.name
            let schedule = When.schedule(campaign)
            body += "<g><title>\(HTML.escape("\(campaign.name) (\(campaign.key)): \(state.label(at: at)); \(schedule)"))</title>"
            body += "<text class=\"row-label\" x=\"0\" y=\"\(Charts.number(y + 13))\" dominant-baseline=\"middle\">\(HTML.escape(name))</text>"
            body += "<rect class=\"span state-\(state.name)\" x=\"\(Charts.number(from))\" y=\"\(Charts.number(y + 4))\" width=\"\(Charts.number(max(to - from, 3)))\" height=\"\(Charts.number(rowHeight - 10))\" rx=\"4\"/>"
            if campaign.startsAt == nil || campaign.startsAt.map({ $0 < start }) == true {
                body += "<text class=\"open-end\" x=\"\(Charts.number(from + 4))\" y=\"\(Charts.number(y + 13))\" dominant-baseline=\"middle\">◂</text>"
            }
            if campaign.endsAt == nil || campaign.endsAt.map({ $0 > end }) == true {
                body += "<text class=\"open-end\" x=\"\(Charts.number(to - 4))\" y=\"\(Charts.number(y + 13))\" text-anchor=\"end\" dominant-baseline=\"middle\">▸</text>"
            }
            body += "</g>"
        }
        let nowX = Charts.number(x(at))
        body += "<line class=\"now\" x1=\"\(nowX)\" x2=\"\(nowX)\" y1=\"\(Charts.number(head - 6))\" y2=\"\(Charts.number(height - 16))\"/>"
        body += "<text class=\"now-label\" x=\"\(nowX)\" y=\"\(Charts.number(height - 3))\" text-anchor=\"middle\">\(HTML.escape(When.text(at)))</text>"
        let description = campaigns.map { campaign in
            "\(campaign.name): \(CampaignBadge(campaign, at: at).label(at: at)), \(When.schedule(campaign))"
        }.joined(separator: "; ")
        return "<svg class=\"timeline\" viewBox=\"0 0 \(Charts.number(width)) \(Charts.number(height))\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\"><title id=\"\(id)-t\">Schedules of \(app.name) from \(When.text(start)) to \(When.text(end))</title><desc id=\"\(id)-d\">\(description)</desc>\(HTML(trusted: body))</svg>"
    }
}

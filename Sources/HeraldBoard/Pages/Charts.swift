import Foundation
import HeraldCore

/// A campaign's (or a set of campaigns') events per day over the window.
struct DaySeries: Equatable {
    let days: [String]
    var delivered: [Int]
    var impressions: [Int]
    var clicks: [Int]
    var dismissals: [Int]

    init(days: [String]) {
        self.days = days
        delivered = Array(repeating: 0, count: days.count)
        impressions = delivered
        clicks = delivered
        dismissals = delivered
    }

    mutating func add(_ count: DailyCount, dayIndex: [String: Int]) {
        guard let index = dayIndex[count.day] else { return }
        switch count.event {
        case "delivered": delivered[index] += count.events
        case "impression": impressions[index] += count.events
        case "click": clicks[index] += count.events
        case "dismiss": dismissals[index] += count.events
        default: break
        }
    }

    var totalImpressions: Int { impressions.reduce(0, +) }
    var totalClicks: Int { clicks.reduce(0, +) }
    var totalDismissals: Int { dismissals.reduce(0, +) }
    var totalDelivered: Int { delivered.reduce(0, +) }
    var isEmpty: Bool { totalDelivered + totalImpressions + totalClicks + totalDismissals == 0 }

    /// Clicks per impression, nil without impressions.
    static func rate(_ clicks: Int, _ impressions: Int) -> Double? {
        impressions > 0 ? Double(clicks) / Double(impressions) : nil
    }

    var clickThroughRate: Double? { Self.rate(totalClicks, totalImpressions) }

    /// The days of `range` only.
    func slice(_ range: Range<Int>) -> DaySeries {
        var copy = DaySeries(days: Array(days[range]))
        copy.delivered = Array(delivered[range])
        copy.impressions = Array(impressions[range])
        copy.clicks = Array(clicks[range])
        copy.dismissals = Array(dismissals[range])
        return copy
    }

    /// The campaign's own days of the window: from its start (else its first day with events)
    /// to its end, so that no chart plots zeros from before it existed or after it ended.
    func period(startsAt: Date?, endsAt: Date?) -> DaySeries {
        let firstEvent = days.indices.first { delivered[$0] + impressions[$0] + clicks[$0] + dismissals[$0] > 0 }
        let startDay = startsAt.map(When.day)
        var start = startDay.flatMap { day in days.firstIndex { $0 >= day } } ?? (startDay.map { $0 > (days.last ?? "") } == true ? days.count : 0)
        if startsAt == nil { start = firstEvent ?? 0 }
        if let firstEvent { start = min(start, firstEvent) }  // events before a changed start still count
        let endDay = endsAt.map(When.day)
        var end = endDay.map { day in days.lastIndex { $0 <= day }.map { $0 + 1 } ?? 0 } ?? days.count
        if let last = days.indices.last(where: { delivered[$0] + impressions[$0] + clicks[$0] + dismissals[$0] > 0 }) { end = max(end, last + 1) }
        guard start < end else { return self }
        return slice(start..<end)
    }

    /// The UTC days from `since` to `until`, both included.
    static func days(since: String, until: String) -> [String] {
        guard let start = Timestamp.parse(since), let end = Timestamp.parse(until), start <= end else { return [] }
        var days: [String] = []
        var day = start
        while day <= end, days.count < 400 {
            days.append(When.day(day))
            day = day.addingTimeInterval(86_400)
        }
        return days
    }
}

enum Percent {
    static func text(_ rate: Double?) -> String {
        guard let rate else { return "–" }
        return String(format: "%.1f %%", rate * 100)
    }
}

/// Inline SVG charts: no script, no external font; every chart has a title and a
/// description for screen readers, and the numbers are in a table beside it.
enum Charts {
    struct Series {
        let name: String
        let values: [Int]
        /// CSS class: colour and dash pattern come from the stylesheet.
        let style: String
    }

    static let width = 640.0
    static let height = 220.0
    static let left = 70.0
    static let right = 14.0
    static let top = 12.0
    static let bottom = 46.0

    /// The smallest of 1, 2, 5 × 10^k at or above `value` (at least 1).
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 1 else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2.0, 5.0, 10.0] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    /// A coordinate or a count: whole numbers as they are, others to one decimal (as `%.1f`,
    /// without Foundation's formatter: a chart writes hundreds of them).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths != 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }

    /// Lines of counts per day.
    /// `partialLast`: the last day is today, counted so far (to the time given): drawn apart.
    static func lines(id: String, title: String, description: String, days: [String], series: [Series], yTitle: String, partialLast: String? = nil) -> HTML {
        let maximum = niceCeiling(Double(series.flatMap(\.values).max() ?? 0))
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func x(_ index: Int) -> Double { left + (days.count <= 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(days.count - 1)) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - value / maximum) }
        var body = axes(days: days, maximum: maximum, unit: "", yTitle: yTitle, x: x, y: y)
        if let partialLast, days.count > 1 { body += partial(x(days.count - 2), x(days.count - 1), label: partialLast) }
        for line in series {
            let points = line.values.enumerated().map { "\(number(x($0.offset))),\(number(y(Double($0.element))))" }.joined(separator: " ")
            body += "<polyline class=\"\(line.style)\" points=\"\(points)\"/>"
        }
        // One hover target per day with its counts (the table below has them too): a page of
        // thirty days stays small.
        let slot = days.count <= 1 ? plotWidth : plotWidth / Double(days.count - 1)
        for index in days.indices {
            let counts = series.compactMap { $0.values[index] > 0 ? "\($0.values[index]) \($0.name)" : nil }
            guard !counts.isEmpty else { continue }
            let from = max(left, x(index) - slot / 2)
            let to = min(width - right, x(index) + slot / 2)
            body += "<rect class=\"hover\" x=\"\(number(from))\" y=\"\(number(top))\" width=\"\(number(to - from))\" height=\"\(number(plotHeight))\"><title>\(days[index]): \(counts.joined(separator: ", "))</title></rect>"
        }
        return svg(id: id, title: title, description: description, body: body)
    }

    /// Bars of a rate per day (0…1), none on days without a rate.
    static func rateBars(id: String, title: String, description: String, days: [String], rates: [Double?], yTitle: String, partialLast: String? = nil) -> HTML {
        let maximum = min(100, niceCeiling((rates.compactMap { $0 }.max() ?? 0) * 100))
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let slot = plotWidth / Double(max(days.count, 1))
        func x(_ index: Int) -> Double { left + slot * (Double(index) + 0.5) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - value / maximum) }
        var body = axes(days: days, maximum: maximum, unit: " %", yTitle: yTitle, x: x, y: y)
        if let partialLast, !days.isEmpty { body += partial(x(days.count - 1) - slot / 2, x(days.count - 1) + slot / 2, label: partialLast) }
        for (index, rate) in rates.enumerated() {
            guard let rate else { continue }
            let barHeight = plotHeight * (rate * 100) / maximum
            body += "<rect class=\"bar\" x=\"\(number(x(index) - slot * 0.35))\" y=\"\(number(top + plotHeight - barHeight))\" width=\"\(number(slot * 0.7))\" height=\"\(number(barHeight))\"><title>\(days[index]): \(Percent.text(rate))</title></rect>"
        }
        return svg(id: id, title: title, description: description, body: body)
    }

    /// Today's part of the plot, shaded and labelled: its counts are so far, not a whole day.
    private static func partial(_ from: Double, _ to: Double, label: String) -> String {
        let start = max(left, from + (to - from) / 2 * (from < left ? 0 : 1))
        let end = min(width - right, to)
        return "<rect class=\"partial\" x=\"\(number(start))\" y=\"\(number(top))\" width=\"\(number(max(end - start, 4)))\" height=\"\(number(height - top - bottom))\"><title>\(label)</title></rect>"
            + "<text class=\"partial-label\" x=\"\(number(end - 2))\" y=\"\(number(top + 12))\" text-anchor=\"end\">\(label)</text>"
    }

    private static func axes(days: [String], maximum: Double, unit: String, yTitle: String, x: (Int) -> Double, y: (Double) -> Double) -> String {
        // Axis titles with their units: the days are UTC days.
        var body = "<text class=\"axis-title\" transform=\"translate(14 \(number(top + (height - top - bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(yTitle)</text>"
        body += "<text class=\"axis-title\" x=\"\(number(left + (width - left - right) / 2))\" y=\"\(number(height - 4))\" text-anchor=\"middle\">Day (UTC)</text>"
        // Four steps when they are whole numbers, else two (0, half, the top).
        let steps = maximum >= 4 && (maximum / 4).rounded() == maximum / 4 ? 4 : 2
        for step in 0...steps {
            let value = maximum * Double(step) / Double(steps)
            let lineY = number(y(value))
            body += "<line class=\"grid\" x1=\"\(number(left))\" x2=\"\(number(width - right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
            body += "<text class=\"tick\" x=\"\(number(left - 6))\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(number(value))\(unit)</text>"
        }
        let every = max(1, days.count / 5)
        for (index, day) in days.enumerated() where index % every == 0 || index == days.count - 1 {
            if index != days.count - 1, days.count - 1 - index < every / 2 { continue }  // no crowding at the end
            let anchor = index == 0 && x(index) - left < 20 ? "start" : index == days.count - 1 && width - right - x(index) < 20 ? "end" : "middle"
            body += "<text class=\"tick\" x=\"\(number(x(index)))\" y=\"\(number(height - 26))\" text-anchor=\"\(anchor)\">\(day.dropFirst(5))</text>"
        }
        return body
    }

    private static func svg(id: String, title: String, description: String, body: String) -> HTML {
        // `body` holds numbers and day strings made here (YYYY-MM-DD from the window), nothing from the database.
        "<svg class=\"chart\" viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\"><title id=\"\(id)-t\">\(title)</title><desc id=\"\(id)-d\">\(description)</desc>\(HTML(trusted: body))</svg>"
    }

    /// A horizontal bar for a table cell: `value` of `maximum`.
    static func inlineBar(value: Int, maximum: Int, label: String) -> HTML {
        let fraction = maximum > 0 ? Double(value) / Double(maximum) : 0
        let barWidth = number(max(fraction * 200, value > 0 ? 2 : 0))
        return "<svg class=\"inline-bar\" viewBox=\"0 0 200 14\" role=\"img\" aria-label=\"\(label)\"><rect class=\"track\" x=\"0\" y=\"2\" width=\"200\" height=\"10\" rx=\"3\"/><rect class=\"bar\" x=\"0\" y=\"2\" width=\"\(barWidth)\" height=\"10\" rx=\"3\"/></svg>"
    }
}

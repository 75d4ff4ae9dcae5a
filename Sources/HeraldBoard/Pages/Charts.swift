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
    static let left = 56.0
    static let right = 14.0
    static let top = 12.0
    static let bottom = 30.0

    /// The smallest of 1, 2, 5 × 10^k at or above `value` (at least 1).
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 1 else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2.0, 5.0, 10.0] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// Lines of counts per day.
    static func lines(id: String, title: String, description: String, days: [String], series: [Series]) -> HTML {
        let maximum = niceCeiling(Double(series.flatMap(\.values).max() ?? 0))
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func x(_ index: Int) -> Double { left + (days.count <= 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(days.count - 1)) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - value / maximum) }
        var body = axes(days: days, maximum: maximum, unit: "", x: x, y: y)
        for line in series {
            let points = line.values.enumerated().map { "\(number(x($0.offset))),\(number(y(Double($0.element))))" }.joined(separator: " ")
            body += "<polyline class=\"\(line.style)\" points=\"\(points)\"/>"
            for (index, value) in line.values.enumerated() where value > 0 {
                body += "<circle class=\"\(line.style) dot\" cx=\"\(number(x(index)))\" cy=\"\(number(y(Double(value))))\" r=\"2.5\"><title>\(days[index]): \(value) \(line.name)</title></circle>"
            }
        }
        return svg(id: id, title: title, description: description, body: body)
    }

    /// Bars of a rate per day (0…1), none on days without a rate.
    static func rateBars(id: String, title: String, description: String, days: [String], rates: [Double?]) -> HTML {
        let maximum = min(100, niceCeiling((rates.compactMap { $0 }.max() ?? 0) * 100))
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let slot = plotWidth / Double(max(days.count, 1))
        func x(_ index: Int) -> Double { left + slot * (Double(index) + 0.5) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - value / maximum) }
        var body = axes(days: days, maximum: maximum, unit: " %", x: x, y: y)
        for (index, rate) in rates.enumerated() {
            guard let rate else { continue }
            let barHeight = plotHeight * (rate * 100) / maximum
            body += "<rect class=\"bar\" x=\"\(number(x(index) - slot * 0.35))\" y=\"\(number(top + plotHeight - barHeight))\" width=\"\(number(slot * 0.7))\" height=\"\(number(barHeight))\"><title>\(days[index]): \(Percent.text(rate))</title></rect>"
        }
        return svg(id: id, title: title, description: description, body: body)
    }

    private static func axes(days: [String], maximum: Double, unit: String, x: (Int) -> Double, y: (Double) -> Double) -> String {
        var body = ""
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
            body += "<text class=\"tick\" x=\"\(number(x(index)))\" y=\"\(number(height - 8))\" text-anchor=\"\(anchor)\">\(day.dropFirst(5))</text>"
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

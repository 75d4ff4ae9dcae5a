import Foundation
import HeraldLocalNotifications

/// UNUserNotificationCenter's part the client uses, in memory: pending requests by identifier
/// (an add with a known identifier replaces it), and a count of what was asked of it.
actor InMemoryCenter: HeraldNotificationCenter {
    private(set) var requests: [String: HeraldNotificationRequest] = [:]
    private(set) var adds = 0
    private(set) var removals = 0

    init(_ requests: [HeraldNotificationRequest] = []) {
        for request in requests { self.requests[request.identifier] = request }
    }

    func pendingRequests() async -> [HeraldNotificationRequest] {
        requests.values.sorted { $0.identifier < $1.identifier }
    }

    func add(_ request: HeraldNotificationRequest) async throws {
        adds += 1
        requests[request.identifier] = request
    }

    func removePendingRequests(withIdentifiers identifiers: [String]) async {
        for identifier in identifiers where requests.removeValue(forKey: identifier) != nil { removals += 1 }
    }

    /// Clears the counts (after the setup's sync).
    func resetCounts() {
        adds = 0
        removals = 0
    }

    var identifiers: [String] { requests.keys.sorted() }
    /// Adds and removals asked of it.
    var counts: (adds: Int, removals: Int) { (adds, removals) }
}

/// A request the app scheduled itself (no Herald key).
func ownRequest(_ identifier: String, userInfo: [String: String] = [:]) -> HeraldNotificationRequest {
    HeraldNotificationRequest(
        identifier: identifier, body: "The app's own", userInfo: userInfo,
        trigger: HeraldCalendarTrigger(dateComponents: DateComponents(hour: 7, minute: 0), repeats: true))
}

func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { fatalError("no time zone \(identifier) on this system") }
    return zone
}

func instant(_ text: String) -> Date {
    guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("not an ISO 8601 time: \(text)") }
    return date
}

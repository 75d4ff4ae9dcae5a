import HeraldCore

/// What Herald can prove about banners on the same device, from their conditions alone
/// (docs/clients.md, "Priority"). Notable shows the first eligible banner it meets in an
/// unordered dictionary, so file order is no priority. What Herald can do is leave a banner
/// out when a banner of higher priority is eligible on every device where it is: the device
/// would then always show the higher one, as priority says, and never needs the lower one.
///
/// A banner qualifies when every `all` condition and (no `any` condition or one of them)
/// holds; read as "one of its branches holds", each branch being the `all` conditions plus
/// one `any` condition. The conditions about the banner's own history (`neverDisplayed`,
/// `lastDisplayMinimumSeconds`, `lastDisplayMinimumLaunches`, `flagNotSet`) are about its own
/// notification id, so nothing about another banner can make them hold, with one exception:
/// `lastDisplayMinimumLaunches=0` always holds (the launch counter is at least 1).
enum BannerLogic {
    /// One way for a banner to qualify: these conditions all hold.
    typealias Branch = [Condition]

    static func branches(_ set: ConditionSet) -> [Branch] {
        branches(all: set.conditions.filter { $0.group == .all }, any: set.conditions.filter { $0.group == .any })
    }

    static func branches(all: [Condition], any: [Condition]) -> [Branch] {
        any.isEmpty ? [all] : any.map { all + [$0] }
    }

    /// False when the branch can never hold (it asks for Wi-Fi both on and off).
    static func isSatisfiable(_ branch: Branch) -> Bool {
        var wifi: Bool?
        for condition in branch where condition.type == .onWifi {
            guard case .bool(let value) = condition.value else { continue }
            if let other = wifi, other != value { return false }
            wifi = value
        }
        return true
    }

    /// Whether some device state satisfies the banner at all (by its shared conditions).
    static func isSatisfiable(_ set: ConditionSet) -> Bool {
        branches(set).contains(where: isSatisfiable)
    }

    /// Proves that every device on which `lower` qualifies also qualifies for `higher`
    /// (false means "not proven").
    static func implies(_ lower: ConditionSet, _ higher: ConditionSet) -> Bool {
        implies(Reading(lower), Reading(higher))
    }

    /// A banner's conditions as `implies` reads them, worked out once per banner rather than
    /// once per pair.
    struct Reading {
        /// The ways to qualify that can hold.
        let possible: [Branch]
        let all: [Condition]
        let any: [Condition]

        init(_ set: ConditionSet) {
            all = set.conditions.filter { $0.group == .all }
            any = set.conditions.filter { $0.group == .any }
            possible = branches(all: all, any: any).filter(isSatisfiable)
        }
    }

    static func implies(_ lower: Reading, _ higher: Reading) -> Bool {
        guard !lower.possible.isEmpty else { return false }  // never qualifies: nothing to prove about it
        return lower.possible.allSatisfy { branch in
            higher.all.allSatisfy { implies(branch, $0) } && (higher.any.isEmpty || higher.any.contains { implies(branch, $0) })
        }
    }

    /// Whether the conditions of `branch` (about another notification id) force `condition`.
    static func implies(_ branch: Branch, _ condition: Condition) -> Bool {
        switch (condition.type, condition.value) {
        case (.lastDisplayMinimumLaunches, .integer(0)):
            return true
        case (.onWifi, .bool(let wanted)):
            return branch.contains { $0.type == .onWifi && $0.value == .bool(wanted) }
        case (.iOSVersionLessThan, .version(let limit)), (.appVersionLessThan, .version(let limit)):
            // below w, and w ≤ limit: below limit (numeric search is a total preorder).
            return branch.contains { other in
                guard other.type == condition.type, case .version(let tighter) = other.value else { return false }
                return NumericSearch.compare(tighter.rawValue, limit.rawValue) <= 0
            }
        default:
            return false
        }
    }

    /// The Wi-Fi state each way of qualifying demands (nil: either); empty when the banner can
    /// never qualify. Worked out once per banner, for `canOverlap`.
    static func wifiDemands(_ set: ConditionSet) -> [Bool?] {
        // `branches(set).filter(isSatisfiable)`, each read for its first Wi-Fi value, without
        // building the branches: the `all` conditions' first value leads each branch, and two
        // values that differ make it unsatisfiable.
        var allDemand: Bool?
        var allSatisfiable = true
        var anyDemands: [Bool?] = []
        for condition in set.conditions {
            let demand = wifiDemand(condition)
            switch condition.group {
            case .all:
                if let demand, let first = allDemand, first != demand { allSatisfiable = false }
                allDemand = allDemand ?? demand
            case .any:
                anyDemands.append(demand)
            }
        }
        guard allSatisfiable else { return [] }
        guard !anyDemands.isEmpty else { return [allDemand] }
        var demands: [Bool?] = []
        for demand in anyDemands {
            if let demand, let first = allDemand, first != demand { continue }
            demands.append(allDemand ?? demand)
        }
        return demands
    }

    /// The Wi-Fi state `condition` asks for, if it asks for one.
    private static func wifiDemand(_ condition: Condition) -> Bool? {
        if condition.type == .onWifi, case .bool(let value) = condition.value { return value }
        return nil
    }

    /// Whether some device could qualify for both banners: only opposite Wi-Fi demands keep
    /// two ways of qualifying apart (versions are only ever bounded from above, and the other
    /// conditions are about each banner's own history).
    static func canOverlap(_ a: [Bool?], _ b: [Bool?]) -> Bool {
        a.contains { x in b.contains { y in x == nil || y == nil || x == y } }
    }
}

/// `BannerLogic.implies` between the campaigns of one app's `live`, by their indices there:
/// each banner read once and each pair proven once for all the app's locales.
struct BannerProofs {
    private let count: Int
    private var readings: [BannerLogic.Reading?]
    /// By `lower * count + higher`: only the pairs asked about (not count² of them).
    private var proven: [Int: Bool] = [:]

    init(_ live: [CampaignSpec]) {
        count = live.count
        readings = Array(repeating: nil, count: live.count)
    }

    /// `live` is the array these proofs were made for.
    mutating func implies(_ lower: Int, _ higher: Int, in live: [CampaignSpec]) -> Bool {
        precondition(live.count == count, "proofs are for another app's campaigns")
        if let known = proven[lower * count + higher] { return known }
        let answer = BannerLogic.implies(reading(lower, in: live), reading(higher, in: live))
        proven[lower * count + higher] = answer
        return answer
    }

    private mutating func reading(_ index: Int, in live: [CampaignSpec]) -> BannerLogic.Reading {
        if let known = readings[index] { return known }
        let reading = BannerLogic.Reading(live[index].conditions)
        readings[index] = reading
        return reading
    }
}

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
        let all = set.conditions.filter { $0.group == .all }
        let any = set.conditions.filter { $0.group == .any }
        return any.isEmpty ? [all] : any.map { all + [$0] }
    }

    /// False when the branch can never hold (it asks for Wi-Fi both on and off).
    static func isSatisfiable(_ branch: Branch) -> Bool {
        let wifi = Set(branch.compactMap { condition -> Bool? in
            if condition.type == .onWifi, case .bool(let value) = condition.value { return value }
            return nil
        })
        return wifi.count <= 1
    }

    /// Whether some device state satisfies the banner at all (by its shared conditions).
    static func isSatisfiable(_ set: ConditionSet) -> Bool {
        branches(set).contains(where: isSatisfiable)
    }

    /// Proves that every device on which `lower` qualifies also qualifies for `higher`
    /// (false means "not proven").
    static func implies(_ lower: ConditionSet, _ higher: ConditionSet) -> Bool {
        let higherAll = higher.conditions.filter { $0.group == .all }
        let higherAny = higher.conditions.filter { $0.group == .any }
        let possible = branches(lower).filter(isSatisfiable)
        guard !possible.isEmpty else { return false }  // never qualifies: nothing to prove about it
        return possible.allSatisfy { branch in
            higherAll.allSatisfy { implies(branch, $0) } && (higherAny.isEmpty || higherAny.contains { implies(branch, $0) })
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
        branches(set).filter(isSatisfiable).map { branch in
            branch.lazy.compactMap { condition -> Bool? in
                if condition.type == .onWifi, case .bool(let value) = condition.value { return value }
                return nil
            }.first
        }
    }

    /// Whether some device could qualify for both banners: only opposite Wi-Fi demands keep
    /// two ways of qualifying apart (versions are only ever bounded from above, and the other
    /// conditions are about each banner's own history).
    static func canOverlap(_ a: [Bool?], _ b: [Bool?]) -> Bool {
        a.contains { x in b.contains { y in x == nil || y == nil || x == y } }
    }
}

/// `BannerLogic.implies` between two banners of one app, each pair proven once.
struct BannerProofs {
    private struct Pair: Hashable {
        let lower: Slug
        let higher: Slug
    }

    private var proven: [Pair: Bool] = [:]

    mutating func implies(_ lower: CampaignSpec, _ higher: CampaignSpec) -> Bool {
        let pair = Pair(lower: lower.key, higher: higher.key)
        if let known = proven[pair] { return known }
        let answer = BannerLogic.implies(lower.conditions, higher.conditions)
        proven[pair] = answer
        return answer
    }
}

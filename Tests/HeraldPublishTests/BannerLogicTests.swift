import HeraldCore
import HeraldTestSupport
import Testing

@testable import HeraldPublish

/// BannerLogic's one-pass readings of a banner's conditions agree with reading its branches
/// one by one, as the rules are stated.
@Suite struct BannerLogicTests {
    static let pool: [(ConditionType, [ConditionValue])] = [
        (.onWifi, [.bool(true), .bool(false)]),
        (.neverDisplayed, [.bool(true)]),
        (.lastDisplayMinimumLaunches, [.integer(0), .integer(3)]),
        (.flagNotSet, [.string("seen")]),
    ]

    func randomSet(_ random: inout SplitMix) throws -> ConditionSet {
        var conditions: [Condition] = []
        for group in [ConditionGroup.all, .any] {
            for (type, values) in Self.pool.shuffled(using: &random) where random.chance(40) {
                conditions.append(Condition(group: group, type: type, value: random.pick(values)))
            }
        }
        return try ConditionSet(conditions.shuffled(using: &random))
    }

    @Test func wifiDemandsReadEveryBranch() throws {
        var random = SplitMix(seed: 6)
        for _ in 0..<5_000 {
            let set = try randomSet(&random)
            let branches = BannerLogic.branches(set)
            let wifi = { (branch: BannerLogic.Branch) in
                branch.compactMap { condition -> Bool? in
                    if condition.type == .onWifi, case .bool(let value) = condition.value { return value }
                    return nil
                }
            }
            let expected = branches.filter { Set(wifi($0)).count <= 1 }.map { wifi($0).first }
            #expect(BannerLogic.wifiDemands(set) == expected, "\(set)")
            #expect(branches.map(BannerLogic.isSatisfiable) == branches.map { Set(wifi($0)).count <= 1 }, "\(set)")
        }
    }
}

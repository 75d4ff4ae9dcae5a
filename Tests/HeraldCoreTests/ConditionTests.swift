import Testing

@testable import HeraldCore

@Suite struct ConditionTests {
    /// Every kind × every type × every group: exactly the matrix of README "Conditions per kind" is accepted.
    @Test(arguments: CampaignKind.allCases)
    func capabilityMatrix(kind: CampaignKind) throws {
        let banner: Set<ConditionType> = [
            .onWifi, .neverDisplayed, .lastDisplayMinimumSeconds, .lastDisplayMinimumLaunches, .flagNotSet,
            .iOSVersionLessThan, .appVersionLessThan,
        ]
        let sample: [ConditionType: String] = [
            .onWifi: "true", .neverDisplayed: "true", .lastDisplayMinimumSeconds: "3600", .lastDisplayMinimumLaunches: "5",
            .flagNotSet: "hideSale", .iOSVersionLessThan: "17.0.1", .appVersionLessThan: "2.4.0", .minAppVersion: "1.0",
            .maxAppVersion: "3.9",
        ]
        for type in ConditionType.allCases {
            for group in ConditionGroup.allCases {
                let expected =
                    switch kind {
                    case .banner: banner.contains(type)
                    case .alert: (type == .minAppVersion || type == .maxAppVersion) && group == .all
                    case .story, .local: false
                    }
                let assignment = "\(type.rawValue)=\(sample[type] ?? "")"
                let parsed = try? Condition.parse(group: group, assignment: assignment, kind: kind)
                #expect((parsed != nil) == expected, "\(kind) \(group) \(type)")
            }
        }
    }

    @Test func refusalsListWhatTheKindSupports() {
        let alert = #expect(throws: ValidationError.self) { try Condition.parse(group: .all, assignment: "onWifi=true", kind: .alert) }
        #expect(alert?.message == "alert campaigns do not support condition \"onWifi\"; supported: minAppVersion, maxAppVersion")
        let story = #expect(throws: ValidationError.self) { try Condition.parse(group: .all, assignment: "onWifi=true", kind: .story) }
        #expect(story?.message.contains("story campaigns take no device conditions") == true)
        let unknown = #expect(throws: ValidationError.self) { try Condition.parse(group: .all, assignment: "onWiFi=true", kind: .banner) }
        #expect(unknown?.message.contains("appVersionLessThan") == true)
        let anyAlert = #expect(throws: ValidationError.self) { try Condition.parse(group: .any, assignment: "minAppVersion=1", kind: .alert) }
        #expect(anyAlert?.message.contains("`all` group only") == true)
    }

    @Test func valuesAreTypedByTheirCondition() throws {
        #expect(try Condition.parse(group: .any, assignment: "onWifi=false", kind: .banner).value == .bool(false))
        #expect(try Condition.parse(group: .all, assignment: "lastDisplayMinimumLaunches=5", kind: .banner).value == .integer(5))
        #expect(try Condition.parse(group: .all, assignment: "flagNotSet=a=b", kind: .banner).value == .string("a=b"))
        for bad in ["onWifi=yes", "lastDisplayMinimumSeconds=-1", "lastDisplayMinimumSeconds=1.5", "flagNotSet=", "appVersionLessThan= 2.4", "appVersionLessThan=2.4é", "noequals"] {
            #expect(throws: ValidationError.self, "\(bad)") { try Condition.parse(group: .all, assignment: bad, kind: .banner) }
        }
        let version = try Condition.parse(group: .all, assignment: "appVersionLessThan=2.4.0", kind: .banner).value
        #expect(version.jsonText == "\"2.4.0\"")
        #expect(try ConditionValue(jsonText: "\"2.4.0\"", for: .appVersionLessThan) == version)
        #expect(try ConditionValue(jsonText: "true", for: .onWifi) == .bool(true))
        #expect(try ConditionValue(jsonText: "7", for: .lastDisplayMinimumSeconds) == .integer(7))
    }

    @Test func oneTypePerGroupBecauseTheClientReadsMaps() throws {
        let a = Condition(group: .all, type: .onWifi, value: .bool(true))
        let b = Condition(group: .all, type: .onWifi, value: .bool(false))
        let error = #expect(throws: ValidationError.self) { try ConditionSet([a, b]) }
        #expect(error?.message.contains("map") == true)
        var set = try ConditionSet([a, Condition(group: .any, type: .onWifi, value: .bool(false))])
        set.set(b)
        #expect(set.conditions.count == 2)
        #expect(set.value(group: .all, type: .onWifi) == .bool(false))
        #expect(set.remove(group: .any, type: .onWifi) != nil)
        #expect(set.remove(group: .any, type: .onWifi) == nil)
    }

    @Test func alertBoundsMustOverlap() throws {
        let set = try ConditionSet([
            Condition(group: .all, type: .minAppVersion, value: .version(try Version("3.0"))),
            Condition(group: .all, type: .maxAppVersion, value: .version(try Version("2.10"))),
        ])
        #expect(set.problems(kind: .alert).count == 1)
        let fine = try ConditionSet([
            Condition(group: .all, type: .minAppVersion, value: .version(try Version("2.9"))),
            Condition(group: .all, type: .maxAppVersion, value: .version(try Version("2.10"))),
        ])
        #expect(fine.problems(kind: .alert).isEmpty)
    }
}

import ArgumentParser
import HeraldCore
import HeraldJobs

struct ConditionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "condition",
        abstract: "Add or remove a campaign's targeting conditions.",
        discussion: """
            Banner (Notable) conditions, in --all (every one must hold) \
            or --any (one must hold):
              onWifi=true|false  neverDisplayed=true  lastDisplayMinimumSeconds=N
              lastDisplayMinimumLaunches=N  flagNotSet=NAME  iOSVersionLessThan=X.Y.Z
              appVersionLessThan=X.Y.Z (compares the app's build version)
            Alert (iNotify) conditions, in --all (inclusive bounds):
              minAppVersion=X.Y  maxAppVersion=X.Y
            Story campaigns take no device conditions (schedule and locales only).
            A group holds each type once: the clients read groups as maps.
            """,
        subcommands: [Add.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add conditions (replacing the value of a type already in that group).",
            discussion: """
                Example:
                  herald campaign condition add spring-sale --app weather \\
                    --all appVersionLessThan=2.4.0 --any onWifi=true
                """)
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: CampaignCommand.AppOptions
        @Option(name: .customLong("all"), help: ArgumentHelp("TYPE=VALUE that must hold (repeatable).", valueName: "condition"))
        var all: [String] = []
        @Option(name: .customLong("any"), help: ArgumentHelp("TYPE=VALUE of which one must hold (repeatable).", valueName: "condition"))
        var any: [String] = []
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                guard !all.isEmpty || !any.isEmpty else {
                    throw InputError(message: "give at least one --all TYPE=VALUE or --any TYPE=VALUE", code: ExitStatus.usage)
                }
                try changeConditions(key: key, where_: where_, json: output.json) { spec in
                    spec.conditions = try addConditions(all: all, any: any, kind: spec.kind, to: spec.conditions)
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove conditions by type.",
            discussion: "Example: herald campaign condition remove spring-sale --app weather --any onWifi")
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: CampaignCommand.AppOptions
        @Option(name: .customLong("all"), help: ArgumentHelp("Condition type to remove from the all group.", valueName: "type"))
        var all: [String] = []
        @Option(name: .customLong("any"), help: ArgumentHelp("Condition type to remove from the any group.", valueName: "type"))
        var any: [String] = []
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                guard !all.isEmpty || !any.isEmpty else {
                    throw InputError(message: "give at least one --all TYPE or --any TYPE", code: ExitStatus.usage)
                }
                try changeConditions(key: key, where_: where_, json: output.json) { spec in
                    for (group, types) in [(ConditionGroup.all, all), (.any, any)] {
                        for raw in types {
                            guard let type = ConditionType(rawValue: raw),
                                spec.conditions.remove(group: group, type: type) != nil
                            else {
                                throw InputError(message: "campaign \(spec.key) has no \(group.rawValue) condition \(Excerpt.quoted(raw))")
                            }
                        }
                    }
                }
            }
        }
    }
}

private func changeConditions(
    key: String, where_: CampaignCommand.AppOptions, json: Bool, _ change: @escaping (inout CampaignSpec) throws -> Void
) throws {
    let key = try Slug(key)
    try printUpdate(try where_.editing().edit(key) { spec, _ in try change(&spec) }, json: json)
}

/// Parses `--all`/`--any` TYPE=VALUE assignments into `set`, reporting every bad one.
func addConditions(all: [String], any: [String], kind: CampaignKind, to set: ConditionSet) throws -> ConditionSet {
    var set = set
    var problems: [ValidationError] = []
    for (group, assignments) in [(ConditionGroup.all, all), (.any, any)] {
        // The clients read a group as a map: a type given twice would silently keep one value.
        var given: [ConditionType: String] = [:]
        for assignment in assignments {
            do {
                let condition = try Condition.parse(group: group, assignment: assignment, kind: kind)
                if let earlier = given.updateValue(assignment, forKey: condition.type) {
                    problems.append(
                        ValidationError(
                            message: "--\(group.rawValue) \(condition.type.rawValue) is given twice (\(earlier) and \(assignment)): "
                                + "a group holds each condition type once; keep one"))
                }
                set.set(condition)
            } catch {
                problems.append(error)
            }
        }
    }
    try throwIfProblems(problems)
    return set
}

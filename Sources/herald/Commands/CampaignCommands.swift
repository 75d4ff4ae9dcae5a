import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldText

struct CampaignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campaign",
        abstract: "Create, inspect and change campaigns: banner (Notable), alert (iNotify), story (Pushwoosh), local (notifications the app schedules).",
        subcommands: [
            Create.self, List.self, Show.self, Update.self, Activate.self, Pause.self, Archive.self, Approve.self,
            ConditionCommand.self,
        ])

    /// `--app` plus the tenant: which app a campaign command works in.
    struct AppOptions: ParsableArguments {
        @OptionGroup var tenant: TenantOption
        @OptionGroup var app: RequiredAppOption

        /// The campaigns of this app, on the command's database.
        func editing() throws -> CampaignEditing {
            let (tenant, app) = (try tenant.named(), try app.slug())
            return CampaignEditing(try Environment.openDatabase(), tenant: tenant, app: app)
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a campaign (as a draft; `campaign activate` publishes it).",
            discussion: """
                The key is the campaign's permanent identity (a banner's notification id): it never changes and is never reused in the app, even after archive.

                Examples:
                  herald campaign create welcome --app weather --kind alert \\
                    --name Welcome --title Hello --message "Thanks!" \\
                    --starts 2026-05-01
                  herald campaign create spring-sale --app weather \\
                    --kind banner --name "Spring sale" --entry banner \\
                    --view 'id=banner,file=https://cdn.example.com/b.html' \\
                    --all appVersionLessThan=2.4.0 --any onWifi=true
                  herald campaign create tour --app weather --kind story \\
                    --name Tour --push-text "See what's new" --push-sound default --push-badge +1 \\
                    --page 'image=https://cdn.example.com/1.jpg,duration=5'
                  herald campaign create storm-check --app weather --kind local \\
                    --name "Storm check" --body "A storm is on its way. See when it reaches you." \\
                    --action "See Forecast" --fire-at 2026-12-24T09:00 --repeat day \\
                    --sound default --badge 1 --user-info screen=radar
                """)

        @Argument(help: "Campaign key (slug).") var key: String
        @OptionGroup var where_: AppOptions
        @Option(help: "banner, alert, story or local.", completion: Completions.kinds) var kind: String
        @Option(help: "Display name.") var name: String
        @OptionGroup var schedule: ScheduleOptions
        @Option(help: "Alert message key (default: YYYY/MM/DD of the start, or today).") var messageKey: String?
        @Option(name: .customLong("all"), help: ArgumentHelp("Condition that must hold: TYPE=VALUE (repeatable).", valueName: "condition"))
        var allConditions: [String] = []
        @Option(name: .customLong("any"), help: ArgumentHelp("Banner condition of which one must hold: TYPE=VALUE (repeatable).", valueName: "condition"))
        var anyConditions: [String] = []
        @OptionGroup var contentOptions: CampaignContentOptions
        @OptionGroup var notificationOptions: NotificationOptions
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                guard let kind = CampaignKind(rawValue: kind) else {
                    throw ValidationError(
                        path: nil,
                        message: "unknown kind \(Excerpt.quoted(self.kind)): use one of \(CampaignKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                var spec = CampaignSpec(
                    key: try Slug(key), kind: kind, name: name, status: .draft,
                    startsAt: nil, endsAt: nil, priority: 0, locales: nil, conditions: ConditionSet(),
                    messageKey: try messageKey.map { try MessageKey($0) }, content: [:])
                try schedule.apply(to: &spec)
                spec.conditions = try addConditions(all: allConditions, any: anyConditions, kind: kind, to: ConditionSet())
                let locale = try contentOptions.locale.map { try LocaleTag($0) }
                let content = try contentOptions.content(kind: kind, existing: nil)
                try notificationOptions.apply(to: &spec, givesAction: contentOptions.givesAction)
                let (app, created) = try where_.editing().create { app in
                    if let content { spec.content[locale ?? app.defaultLocale] = content }
                    return spec
                }
                if output.json {
                    try printJSON(CampaignJSON(created, app: app.slug, detail: app))
                } else {
                    var line = "created \(kind) campaign \(created.key) (draft)"
                    if let key = created.messageKey { line += ", message key \(key)" }
                    print(line)
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List campaigns of a tenant (or of one app).",
            discussion: "Example: herald campaign list --tenant acme --app weather --status active")
        @OptionGroup var tenant: TenantOption
        @Option(help: ArgumentHelp("Only this app.", discussion: "Defaults to $HERALD_APP."), completion: Completions.apps) var app: String?
        @Option(help: "Only this status: draft, active, paused or archived.") var status: String?
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let status = try status.map { raw in
                    guard let status = CampaignStatus(rawValue: raw) else {
                        throw ValidationError(
                            path: nil,
                            message: "unknown status \(Excerpt.quoted(raw)): use one of \(CampaignStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return status
                }
                let app = try ShellDefaults.app(app).map { try Slug($0) }
                let tenantSpec = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).spec(app: app)
                let rows = tenantSpec.apps.flatMap { app in
                    app.campaigns.filter { status == nil || $0.status == status }.map { (app.slug, $0) }
                }
                if output.json {
                    try printJSON(rows.map { CampaignJSON($0.1, app: $0.0) })
                    return
                }
                printTable(CampaignText.table(rows, now: Date()), emptyMessage: "no campaigns")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one campaign with its conditions and content.",
            discussion: "Example: herald campaign show spring-sale --tenant acme --app weather")
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let key = try Slug(key)
                let (app, record) = try where_.editing().find(key)
                if output.json {
                    try printJSON(CampaignJSON(record.spec, app: app.slug, detail: app))
                } else {
                    print(CampaignText.describe(record.spec, app: app))
                }
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change a campaign's name, schedule, priority, locales, message key or content.",
            discussion: """
                Content flags change the content of one locale (--locale, default the app's default locale), keeping what they do not mention: \
                --view replaces the view with its id and keeps the others, --remove-view removes one, --page replaces the whole page list. \
                Prints every field that changed, old → new (--json: the campaign with a `changes` list).

                Example:
                  herald campaign update welcome --app weather --locale de \\
                    --title Hallo --message Willkommen
                """)
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions
        @Option(help: "New display name.") var name: String?
        @OptionGroup var schedule: ScheduleOptions
        @Flag(name: .customLong("clear-starts"), help: "Remove the start time.") var clearStarts = false
        @Flag(name: .customLong("clear-ends"), help: "Remove the end time.") var clearEnds = false
        @Flag(name: .customLong("all-locales"), help: "Remove the locale restriction.") var allLocales = false
        @Option(
            help: ArgumentHelp(
                "Remove an optional field (repeatable): \(ClearableField.allCases.map(\.rawValue).joined(separator: ", ")).",
                discussion: "Content fields are removed in --locale's content. `--action-url ''` does the same as `--clear action-url`.",
                valueName: "field"))
        var clear: [ClearableField] = []
        @Option(help: "New alert message key (the old one stays used forever).") var messageKey: String?
        @Option(name: .customLong("remove-content"), help: ArgumentHelp("Remove the content of a locale (repeatable).", valueName: "locale"))
        var removeContent: [String] = []
        @Option(
            name: .customLong("remove-view"),
            help: ArgumentHelp("Remove a banner view from --locale's content, by id (repeatable).", valueName: "id"))
        var removeViews: [String] = []
        @OptionGroup var contentOptions: CampaignContentOptions
        @OptionGroup var notificationOptions: NotificationOptions
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let key = try Slug(key)
                let messageKey = try messageKey.map { try MessageKey($0) }
                let removedContent = try removeContent.map { try LocaleTag($0) }
                let locale = try contentOptions.locale.map { try LocaleTag($0) }
                let edit = try where_.editing().edit(key) { spec, app in
                    if let name { spec.name = name }
                    if clearStarts || clear.contains(.starts) { spec.startsAt = nil }
                    if clearEnds || clear.contains(.ends) { spec.endsAt = nil }
                    if allLocales || clear.contains(.locales) { spec.locales = nil }
                    try schedule.apply(to: &spec)
                    if let messageKey { spec.messageKey = messageKey }
                    for locale in removedContent {
                        guard spec.content.removeValue(forKey: locale) != nil else {
                            throw InputError(message: "campaign \(spec.key) has no content for \(locale) to remove")
                        }
                    }
                    let locale = locale ?? app.defaultLocale
                    if let content = try contentOptions.content(
                        kind: spec.kind, existing: spec.content[locale], clearing: Set(clear), removingViews: removeViews)
                    {
                        spec.content[locale] = content
                    }
                    try notificationOptions.apply(to: &spec, clearing: clear, givesAction: contentOptions.givesAction)
                }
                try printUpdate(edit, json: output.json)
            }
        }
    }

    struct Activate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activate",
            abstract: "Activate a campaign (publish it while its schedule runs).",
            discussion: """
                Refuses a campaign that could not be published, and says why. An archived campaign comes back \
                only with --force: devices remember its identity, and the refusal says what they will do.

                Example: herald campaign activate spring-sale --tenant acme --app weather
                """)
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions
        @Flag(help: "Activate an archived campaign again (devices remember what they did with it).") var force = false
        @OptionGroup var output: JSONFlag
        func run() throws { try setStatus(.active, key: key, where_: where_, force: force, json: output.json) }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause",
            abstract: "Pause a campaign (stop publishing it; keep everything).",
            discussion: "Example: herald campaign pause spring-sale --tenant acme --app weather")
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions
        @OptionGroup var output: JSONFlag
        func run() throws { try setStatus(.paused, key: key, where_: where_, json: output.json) }
    }

    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive a campaign (stop publishing it for good; its key stays reserved).",
            discussion: "Example: herald campaign archive spring-sale --tenant acme --app weather")
        @Argument(help: "Campaign key.", completion: Completions.campaigns) var key: String
        @OptionGroup var where_: AppOptions
        @OptionGroup var output: JSONFlag
        func run() throws { try setStatus(.archived, key: key, where_: where_, json: output.json) }
    }
}

private func setStatus(
    _ status: CampaignStatus, key: String, where_: CampaignCommand.AppOptions, force: Bool = false, json: Bool
) throws {
    try reportingFailures {
        let key = try Slug(key)
        let edit = try where_.editing().setStatus(key, status, force: force)
        if json {
            try printJSON(CampaignJSON(edit.after, app: edit.app.slug, detail: edit.app))
        } else {
            print("campaign \(edit.after.key) is \(edit.after.status.rawValue)")
        }
    }
}

/// `--starts`, `--ends`, `--priority`, `--locales` for create and update.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start time (ISO 8601 with zone, or a UTC date).", valueName: "time")) var starts: String?
    @Option(help: ArgumentHelp("End time, exclusive (ISO 8601 with zone, or a UTC date).", valueName: "time")) var ends: String?
    @Option(
        help: ArgumentHelp(
            "Banner priority: a banner is left out of control.json where one of higher priority qualifies on every device "
                + "it does (Notable itself shows banners in dictionary order); publish warns about the rest. Alerts and stories "
                + "ignore it (iNotify orders by message key)."))
    var priority: Int?
    @Option(help: ArgumentHelp("Publish only in these locales, comma-separated.", valueName: "locales")) var locales: String?

    func apply(to spec: inout CampaignSpec) throws {
        if let starts { spec.startsAt = try flagTime(starts, flag: "--starts") }
        if let ends { spec.endsAt = try flagTime(ends, flag: "--ends") }
        if let priority { spec.priority = priority }
        if let locales { spec.locales = Array(Set(try parseLocales(locales))).sorted() }
    }
}

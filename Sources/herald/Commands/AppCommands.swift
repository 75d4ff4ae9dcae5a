import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldStore
import HeraldText

struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Create, inspect and change a tenant's apps.",
        subcommands: [Create.self, List.self, Show.self, Update.self, AppKeyCommand.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create an app.",
            discussion: """
                Example:
                  herald app create weather --tenant acme --name Weather --platform ios \\
                    --bundle-id com.acme.weather --default-locale en --locales en,de,pt-BR \\
                    --base-url https://static.example.com/acme/weather
                """)

        @Argument(help: "App slug (names its published folder).")
        var slug: String
        @OptionGroup var tenant: TenantOption
        @Option(help: "Display name.") var name: String
        @Option(help: "ios or macos.") var platform: String = "ios"
        @Option(name: .customLong("bundle-id"), help: "Bundle identifier, e.g. com.acme.weather.") var bundleID: String
        @Option(name: .customLong("default-locale"), help: "The locale every other falls back to.")
        var defaultLocale: String
        @Option(help: "Supported locales, comma-separated (the default locale is always included).")
        var locales: String?
        @Option(name: .customLong("base-url"), help: "Public URL where this app's published folder is served.")
        var baseURL: String?
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let defaultLocale = try LocaleTag(defaultLocale)
                let spec = AppSpec(
                    slug: try Slug(slug), name: name, platform: try parsePlatform(platform), bundleID: bundleID,
                    defaultLocale: defaultLocale,
                    locales: Array(Set(try parseLocales(locales ?? "") + [defaultLocale])).sorted(),
                    baseURL: try baseURL.map { try HTTPURL($0) }, campaigns: [])
                try throwIfProblems(spec.problems())
                let app = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).create(spec)
                if output.json {
                    try printJSON(AppJSON(app))
                } else {
                    print("created app \(app.spec.slug) (\(app.spec.locales.map(\.rawValue).joined(separator: ", ")))")
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List a tenant's apps.", discussion: "Example: herald app list --tenant acme")
        @OptionGroup var tenant: TenantOption
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let apps = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).list()
                if output.json {
                    try printJSON(apps.map(AppJSON.init))
                    return
                }
                printTable(CatalogText.apps(apps), emptyMessage: "no apps yet: create one with `herald app create`")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one app.", discussion: "Example: herald app show weather --tenant acme --json")
        @Argument(help: "App slug.") var slug: String
        @OptionGroup var tenant: TenantOption
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                let app = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).find(slug)
                if output.json {
                    try printJSON(AppJSON(app))
                    return
                }
                print(CatalogText.describe(app))
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change an app: name, platform, bundle id, locales, default locale, base URL.",
            discussion: "Example: herald app update weather --tenant acme --add-locale fr --default-locale en")

        @Argument(help: "App slug.") var slug: String
        @OptionGroup var tenant: TenantOption
        @Option(help: "New display name.") var name: String?
        @Option(help: "ios or macos.") var platform: String?
        @Option(name: .customLong("bundle-id"), help: "New bundle identifier.") var bundleID: String?
        @Option(name: .customLong("default-locale"), help: "New default locale (must be supported).")
        var defaultLocale: String?
        @Option(name: .customLong("add-locale"), help: "Add a supported locale (repeatable).")
        var addLocales: [String] = []
        @Option(name: .customLong("remove-locale"), help: "Remove a supported locale (repeatable).")
        var removeLocales: [String] = []
        @Option(name: .customLong("base-url"), help: "New public base URL.") var baseURL: String?
        @Flag(name: .customLong("clear-base-url"), help: "Remove the base URL.") var clearBaseURL = false
        @OptionGroup var output: JSONFlag

        func run() throws {
            try reportingFailures {
                let slug = try Slug(slug)
                var changes = AppChanges()
                changes.name = name
                changes.platform = try platform.map(parsePlatform)
                changes.bundleID = bundleID
                changes.defaultLocale = try defaultLocale.map { try LocaleTag($0) }
                changes.addLocales = try addLocales.map { try LocaleTag($0) }
                changes.removeLocales = try removeLocales.map { try LocaleTag($0) }
                if clearBaseURL {
                    changes.baseURL = .some(nil)
                } else if let baseURL {
                    changes.baseURL = .some(try HTTPURL(baseURL))
                }
                guard !changes.isEmpty else {
                    throw InputError(message: "nothing to change: give at least one option (see --help)", code: ExitStatus.usage)
                }
                let app = try AppCatalog(Environment.openDatabase(), tenant: tenant.named()).update(slug, changes)
                if output.json {
                    try printJSON(AppJSON(app))
                } else {
                    print("updated app \(app.spec.slug)")
                }
            }
        }
    }
}

func parsePlatform(_ raw: String) throws -> Platform {
    guard let platform = Platform(rawValue: raw.lowercased()) else {
        throw ValidationError(
            path: nil, message: "unknown platform \(Excerpt.quoted(raw)): use one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return platform
}

func parseLocales(_ list: String) throws -> [LocaleTag] {
    try list.split(separator: ",").map { try LocaleTag($0.trimmingCharacters(in: .whitespaces)) }
}

func throwIfProblems(_ problems: [ValidationError]) throws {
    if !problems.isEmpty { throw ValidationErrors(problems) }
}

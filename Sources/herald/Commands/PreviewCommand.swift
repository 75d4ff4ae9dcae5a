import ArgumentParser
import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldText

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "What would this device see, and why not the rest.",
        discussion: """
            Reads the files as published (from --out DIR, or compiled in memory without it) and \
            decides as the clients' own code does (docs/clients.md): numeric-search versions \
            (2.10b1 is above 2.10), Notable's all/any, launch counter, display times and view \
            lookup; iNotify's first-launch, check-period and remind-period gates, seen keys, \
            inclusive Min/MaxVersion, case-insensitive newest-last order, and its ActionURL check \
            (when the device cannot open the next alert's URL, iNotify shows nothing at all). For \
            every campaign not shown it gives the first reason.

            Notable's launch counter counts the current launch (it is incremented before the \
            check), so --launches-since is at least 1 and defaults to 1. A notification id never \
            shown has no display time: Notable measures lastDisplayMinimumSeconds from 2001-01-01.

            Examples:
              herald preview --tenant acme --app weather --locale de --app-version 2.3.1 \\
                --os-version 17.4 --wifi --seen 2026/04/01
              herald preview --tenant acme --app weather --locale en --app-version 2.10b1 \\
                --os-version 17.4 --can-open https,weather --last-checked 2026-11-23T08:00:00Z
              herald preview --tenant acme --app weather --locale de --app-version 2.4 \\
                --os-version 17.4 --time-zone Europe/Berlin --pending storm-check --pending old-sale

            Local notifications: what Herald's client (clients/HeraldLocalNotifications.swift) \
            would schedule, replace and cancel on a device in --time-zone that has the --pending \
            campaigns' notifications scheduled (and --own-pending of the app's own), with each \
            one's next fire time on the device's clock; and which it leaves out of iOS's 64.
            """)

    @OptionGroup var tenantOption: TenantOption
    @OptionGroup var appOption: RequiredAppOption
    @Option(help: "The device's locale.") var locale: String
    @Option(name: .customLong("app-version"), help: "CFBundleShortVersionString (iNotify's Min/MaxVersion), as the app has it: 2.4.0, 2.10b1.")
    var appVersion: String
    @Option(help: "CFBundleVersion (Notable's appVersionLessThan); default: --app-version.") var build: String?
    @Option(name: .customLong("os-version"), help: "The OS version (iOSVersionLessThan).") var osVersion: String
    @Flag(inversion: .prefixedNo, help: "Whether the device is on Wi-Fi.") var wifi = true
    @Option(help: ArgumentHelp("A notification id already shown on this device (repeatable).", valueName: "id")) var displayed: [String] = []
    @Option(
        name: .customLong("launches-since"),
        help: ArgumentHelp(
            "Notable's launch counter for ID: launches since it was last shown (or first listed), counting the current launch, "
                + "so at least 1 (default 1) (repeatable).", valueName: "id=n"))
    var launchesSince: [String] = []
    @Option(
        name: .customLong("seconds-since"),
        help: ArgumentHelp(
            "Seconds since ID was last shown; marks it shown (repeatable). Never shown: Notable counts from 2001-01-01.", valueName: "id=n"))
    var secondsSince: [String] = []
    @Option(help: ArgumentHelp("A flag set for ID by its banner (repeatable).", valueName: "id=name")) var flag: [String] = []
    @Option(help: ArgumentHelp("An iNotify message key seen or ignored (repeatable).", valueName: "key")) var seen: [String] = []
    @Option(
        name: .customLong("can-open"),
        help: ArgumentHelp("URL schemes the device can open, comma-separated (iNotify's ActionURL check).", valueName: "schemes"))
    var canOpen = "http,https"
    @Flag(name: .customLong("first-launch"), help: "The app's first launch (iNotify shows nothing on it).") var firstLaunch = false
    @Option(name: .customLong("last-checked"), help: ArgumentHelp("When iNotify last checked (it waits 12 hours).", valueName: "time"))
    var lastChecked: String?
    @Option(help: ArgumentHelp("When \"Remind Me Later\" was last chosen (iNotify waits a day).", valueName: "time")) var reminded: String?
    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("The device's time zone, for local notifications (IANA name; default UTC).", valueName: "zone"))
    var timeZone = "UTC"
    @Option(
        help: ArgumentHelp(
            "A local campaign whose notification the device has pending (repeatable): replaced, or cancelled when no longer published.",
            valueName: "key"))
    var pending: [String] = []
    @Option(
        name: .customLong("own-pending"),
        help: ArgumentHelp("How many local notifications the app scheduled itself (they count towards iOS's 64).", valueName: "n"))
    var ownPending = 0
    @Option(help: ArgumentHelp("Preview at this time (ISO 8601).", valueName: "time")) var at: String?
    @Option(help: ArgumentHelp("Read the published files from this folder instead of compiling.", valueName: "dir")) var out: String?
    @Option(name: .customLong("base-url"), help: ArgumentHelp("As for publish, when compiling in memory.", valueName: "url")) var baseURL: String?
    @OptionGroup var output: JSONFlag

    func run() throws {
        try reportingFailures {
            let app = try appOption.slug()
            let locale = try LocaleTag(locale)
            let at = try at.map { try flagTime($0, flag: "--at") } ?? Date()
            var device = DeviceState(
                appVersion: try Version(appVersion).rawValue, build: try build.map { try Version($0).rawValue },
                osVersion: try Version(osVersion).rawValue, wifi: wifi)
            device.displayed = Set(displayed)
            device.seen = Set(seen)
            device.launchesSince = try DeviceState.counts(launchesSince, flag: "--launches-since", minimum: 1)
            device.secondsSince = try DeviceState.counts(secondsSince, flag: "--seconds-since", minimum: 0)
            device.canOpen = try DeviceState.schemes(canOpen)
            device.firstLaunch = firstLaunch
            device.lastChecked = try lastChecked.map { try flagTime($0, flag: "--last-checked") }
            device.lastReminded = try reminded.map { try flagTime($0, flag: "--reminded") }
            for assignment in flag {
                let (id, name) = try DeviceState.pair(assignment, flag: "--flag")
                device.flags[id, default: []].insert(name)
            }
            guard let zone = TimeZone(identifier: timeZone), timeZone.contains("/") || timeZone == "UTC" else {
                throw InputError(
                    message: "--time-zone \(Excerpt.quoted(timeZone)) is not a time zone: give an IANA name, e.g. Europe/Berlin or UTC",
                    code: ExitStatus.usage)
            }
            guard (0...LocalDeviceState.pendingLimit).contains(ownPending) else {
                throw InputError(
                    message: "--own-pending \(ownPending) is not a count of pending notifications: give 0 to \(LocalDeviceState.pendingLimit)",
                    code: ExitStatus.usage)
            }
            device.local = LocalDeviceState(timeZone: zone, pending: try pending.map { try Slug($0).rawValue }, ownPending: ownPending)

            let source: PreviewJob.Source =
                if let out { .folder(URL(fileURLWithPath: out)) } else { .compiled(siteBaseURL: try baseURL.map { try HTTPURL($0) }) }
            let result = try PreviewJob(Environment.openDatabase()).preview(
                tenant: tenantOption.named(), app: app, locale: locale, device: device, at: at, from: source)
            try show(result)
        }
    }

    private func show(_ result: PreviewResult) throws {
        if output.json {
            try printJSON(PreviewJSON(result))
        } else {
            print(PreviewText.render(result))
        }
    }

}

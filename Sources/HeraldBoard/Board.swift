import Foundation
import HeraldCore
import HeraldPublish

/// The review board: a static site of HTML and inline SVG, made from values. Pure: the same
/// input gives the same bytes, so the site writer leaves an unchanged board untouched.
///
/// Layout, under the output folder:
///   board/index.html                          tenants → apps, top campaigns, what changed since the previous board
///   board/<tenant>/<app>.html                 an app's campaigns with a filter by state, its schedules
///   board/<tenant>/<app>/<campaign>.html      each locale as devices draw it, who sees what, charts
///   board/history.html                        publish runs and the files each changed
///   board/assets/board.css                    the one stylesheet
///   board/assets/inputs.txt                   what each page was made from (`BoardMemory`)
public enum Board {
    /// Everything the board writes lives under this folder of the output folder.
    public static let folder = "board"
    public static let indexPath = "board/index.html"
    public static let historyPath = "board/history.html"
    public static let stylesheetPath = "board/assets/board.css"
    /// The board's layout, in the renderer's name a board keeps (a page kept from a board of
    /// another layout is made again).
    public static let layoutVersion = 2

    public static func campaignPath(tenant: Slug, app: Slug, campaign: Slug) -> String {
        "board/\(tenant)/\(app)/\(campaign).html"
    }

    /// `board/<tenant>/<app>.html`: one app's campaigns (the index links each app here).
    public static func appPath(tenant: Slug, app: Slug) -> String {
        "board/\(tenant)/\(app).html"
    }

    /// Every file of the board, sorted by path, every page rendered.
    public static func render(_ input: BoardInput) -> [SiteFile] {
        plan(input, previous: nil, renderer: "").files(kept: [:])
    }

    /// What this board is made from, page by page, against what the previous board was made
    /// from (`previous`, from its `BoardMemory`); `renderer` names what renders the pages
    /// (pages another renderer made are made again).
    public static func plan(_ input: BoardInput, previous: BoardMemory?, renderer: String) -> BoardPlan {
        BoardPlan(input, previous: previous, renderer: renderer)
    }
    /// The matrix of one campaign, as the board shows it (for tests and tools).
    public static func matrix(_ input: BoardInput, tenant: Slug, app: Slug, campaign: Slug) -> [MatrixRow] {
        let context = BoardContext(input)
        guard let tenantSpec = context.tenants.first(where: { $0.slug == tenant }),
            let appSpec = tenantSpec.apps.first(where: { $0.slug == app }),
            let campaignSpec = appSpec.campaigns.first(where: { $0.key == campaign })
        else { return [] }
        return DeviceMatrix.rows(for: campaignSpec, app: appSpec, tenant: tenantSpec, parsed: context.parsedFiles, at: context.timelineMoment)
    }
}

/// What every page needs, worked out once.
struct BoardContext: Sendable {
    let input: BoardInput
    /// The campaigns changed since the previous board (nil: not known, as for `render`).
    var changes: BoardChanges?
    let tenants: [TenantSpec]
    /// Each locale's files as devices read them, by locale folder.
    let files: [[String]: LocaleFiles]
    /// The same, parsed once for every matrix of the board (parsing them again for each of an
    /// app's campaigns was a quarter of a cold board's time).
    let parsedFiles: [[String]: ParsedLocaleFiles]
    let warnings: BoardWarnings
    let days: [String]
    /// `tenant/app/campaign` → its events per day.
    let series: [String: DaySeries]

    init(_ input: BoardInput) {
        self.input = input
        tenants = input.tenants.sorted { $0.slug < $1.slug }.map { tenant in
            var tenant = tenant
            tenant.apps.sort { $0.slug < $1.slug }
            return tenant
        }
        // What publish would write now: the device matrix reads these files, as preview does.
        // The board's "now" is a minute (or `--at` as given): states, schedules, the matrix's
        // files and the timelines all at the same moment, so that badge, table and chart agree.
        let now = Self.now(input)
        let site = SiteCompiler(siteBaseURL: input.siteBaseURL).compile(tenants, at: now)
        files = LocaleFiles.byLocale(site.files)
        let folders = Array(files)
        let parsing = ConcurrentSlots<ParsedLocaleFiles>(count: folders.count)
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in parsing[index] = folders[index].value.parsed() }
        parsedFiles = Dictionary(uniqueKeysWithValues: zip(folders.map(\.key), parsing.values))
        warnings = BoardWarnings(tenants: tenants, site: site)
        days = DaySeries.days(since: input.since, until: input.until)
        let dayIndex = Dictionary(uniqueKeysWithValues: days.enumerated().map { ($0.element, $0.offset) })
        var series: [String: DaySeries] = [:]
        for count in input.daily {
            series["\(count.tenant)/\(count.app)/\(count.campaign)", default: DaySeries(days: days)].add(count, dayIndex: dayIndex)
        }
        self.series = series
    }

    func series(tenant: Slug, app: Slug, campaign: Slug) -> DaySeries {
        series["\(tenant)/\(app)/\(campaign)"] ?? DaySeries(days: days)
    }

    /// The moment the board shows, in words.
    var moment: String {
        input.atIsExplicit ? When.text(input.at) : "\(When.day(input.at)) (UTC), when the board was made"
    }

    var window: String { "\(input.since) … \(input.until)" }

    /// Where the timelines put "now": `--at` as given, else the minute it falls in (the
    /// board's states and badges are to the minute too, so that all three agree).
    var timelineMoment: Date { Self.now(input) }

    static func now(_ input: BoardInput) -> Date {
        input.atIsExplicit ? input.at : Date(timeIntervalSince1970: (input.at.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    /// A locale's name for people: `pt-BR · Portuguese (Brazil)`.
    static func localeName(_ locale: LocaleTag) -> String {
        let name = Locale(identifier: "en").localizedString(forIdentifier: locale.rawValue)
        guard let name, name != locale.rawValue else { return locale.rawValue }
        return "\(locale) · \(name)"
    }
}

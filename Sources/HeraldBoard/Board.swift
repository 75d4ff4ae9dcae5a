import Foundation
import HeraldCore
import HeraldPublish

/// The review board: a static site of HTML and inline SVG, made from values. Pure: the same
/// input gives the same bytes, so the site writer leaves an unchanged board untouched.
///
/// Layout, under the output folder:
///   board/index.html                          tenants → apps → campaigns, schedules, top campaigns
///   board/<tenant>/<app>/<campaign>.html      each locale as devices draw it, who sees what, charts
///   board/history.html                        publish runs and the files each changed
///   board/assets/board.css                    the one stylesheet
public enum Board {
    /// Everything the board writes lives under this folder of the output folder.
    public static let folder = "board"
    public static let indexPath = "board/index.html"
    public static let historyPath = "board/history.html"
    public static let stylesheetPath = "board/assets/board.css"

    public static func campaignPath(tenant: Slug, app: Slug, campaign: Slug) -> String {
        "board/\(tenant)/\(app)/\(campaign).html"
    }

    /// Every file of the board, sorted by path.
    public static func render(_ input: BoardInput) -> [SiteFile] {
        let context = BoardContext(input)
        var pages: [(String, HTML)] = [
            (indexPath, IndexPage.render(context)),
            (historyPath, HistoryPage.render(context)),
        ]
        for tenant in context.tenants {
            for app in tenant.apps {
                for campaign in app.campaigns {
                    pages.append((campaignPath(tenant: tenant.slug, app: app.slug, campaign: campaign.key),
                        CampaignPage.render(campaign, app: app, tenant: tenant, context: context)))
                }
            }
        }
        var files = pages.compactMap { path, html in
            SitePath(relative: path).map { SiteFile(path: $0, bytes: Array(html.raw.utf8)) }
        }
        if let stylesheet = SitePath(relative: stylesheetPath) {
            files.append(SiteFile(path: stylesheet, bytes: Array(Layout.stylesheet.utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The matrix of one campaign, as the board shows it (for tests and tools).
    public static func matrix(_ input: BoardInput, tenant: Slug, app: Slug, campaign: Slug) -> [MatrixRow] {
        let context = BoardContext(input)
        guard let tenantSpec = context.tenants.first(where: { $0.slug == tenant }),
            let appSpec = tenantSpec.apps.first(where: { $0.slug == app }),
            let campaignSpec = appSpec.campaigns.first(where: { $0.key == campaign })
        else { return [] }
        return DeviceMatrix.rows(for: campaignSpec, app: appSpec, tenant: tenantSpec, files: context.files, at: input.at)
    }
}

/// What every page needs, worked out once.
struct BoardContext {
    let input: BoardInput
    let tenants: [TenantSpec]
    /// Each locale's files as devices read them, by locale folder.
    let files: [[String]: LocaleFiles]
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
        let site = SiteCompiler(siteBaseURL: input.siteBaseURL).compile(tenants, at: input.at)
        files = LocaleFiles.byLocale(site.files)
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
    var timelineMoment: Date {
        input.atIsExplicit ? input.at : Date(timeIntervalSince1970: (input.at.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    /// A locale's name for people: `pt-BR · Portuguese (Brazil)`.
    static func localeName(_ locale: LocaleTag) -> String {
        let name = Locale(identifier: "en").localizedString(forIdentifier: locale.rawValue)
        guard let name, name != locale.rawValue else { return locale.rawValue }
        return "\(locale) · \(name)"
    }
}

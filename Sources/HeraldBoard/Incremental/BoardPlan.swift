import Foundation
import HeraldCore
import HeraldPublish

/// One board, page by page: what each page is made from (a digest of its inputs), which pages
/// show what the previous board's showed (their bytes on disk can stay), and the rest rendered
/// on every core. The index and the history are made every time: they are small, and the
/// index says what changed since the previous board.
public struct BoardPlan: Sendable {
    let context: BoardContext
    /// What this board is made from, to keep beside it.
    public let memory: BoardMemory
    /// Pages whose inputs are the ones the previous board recorded, by path: the caller may
    /// give their bytes as they are on disk instead of having them rendered again.
    public let reusable: [String]
    public var changes: BoardChanges { context.changes ?? BoardChanges(since: nil) }

    /// A page: where it goes, the digest of its inputs (nil: made every time), how to make it.
    struct Page: Sendable {
        let path: String
        let digest: String?
        let render: @Sendable (BoardContext) -> HTML
    }

    let pages: [Page]

    init(_ input: BoardInput, previous: BoardMemory?, renderer: String) {
        var context = BoardContext(input)
        let moment = "\(context.moment) \(Timestamp.format(context.timelineMoment)) \(context.window) \(input.siteBaseURL?.rawValue ?? "")"
        var pages: [Page] = [
            Page(path: Board.indexPath, digest: nil) { IndexPage.render($0) },
            Page(path: Board.historyPath, digest: nil) { HistoryPage.render($0) },
        ]
        var campaignDigests: [String: String] = [:]
        for tenant in context.tenants {
            for app in tenant.apps {
                // A campaign's page shows other campaigns of its app too (the matrix decides
                // among them, as devices do): every campaign of the app is among its inputs.
                let campaignTexts = app.campaigns.map { CampaignsDocument.yaml(of: $0) }
                let appText = CampaignsDocument.yaml(of: app) + "\(app.publishesLocalNotifications)\n" + campaignTexts.joined()
                let appDigest = SHA256.hex(Array(("\(tenant.slug) \(tenant.name)\n" + appText).utf8))
                var appLines = "app \(renderer)\n\(moment)\n\(appDigest)\n"
                appLines += context.warnings.appWarnings(tenant: tenant.slug, app: app.slug).joined(separator: "\n")
                for (campaign, text) in zip(app.campaigns, campaignTexts) {
                    let key = BoardApproval.key(tenant: tenant.slug, app: app.slug, campaign: campaign.key)
                    let badge = CampaignBadge(campaign, at: context.timelineMoment)
                    let approval = ApprovalParts.approval(context, tenant: tenant.slug, app: app.slug, campaign: campaign.key)
                    let approvalText = approval.map { "\($0.version) \($0.approvedVersion.map(String.init) ?? "-")" } ?? "-"
                    campaignDigests[key] = SHA256.hex(Array("\(text)\(badge.name)\n\(approvalText)\n".utf8))
                    var lines = "campaign \(renderer)\n\(moment)\n\(appDigest)\n\(campaign.key)\n\(badge.label(at: context.timelineMoment))\n"
                    lines += context.series(tenant: tenant.slug, app: app.slug, campaign: campaign.key).digestText
                    if let approval {
                        lines += "\(approval.version) \(approval.editedBy ?? "-") \(Timestamp.format(approval.editedAt)) "
                            + "\(approval.approvedVersion.map(String.init) ?? "-") \(approval.approvedBy ?? "-") "
                            + "\(approval.approvedAt.map(Timestamp.format) ?? "-")\n\(approval.diff)\n"
                    }
                    lines += context.warnings.publishWarnings(tenant: tenant.slug, app: app.slug, campaign: campaign.key).joined(separator: "\n")
                    lines += context.warnings.copyFindings(tenant: tenant.slug, app: app.slug, campaign: campaign.key).map(\.description).joined(separator: "\n")
                    appLines += "\(campaign.key) \(badge.label(at: context.timelineMoment)) \(context.warnings.count(tenant: tenant.slug, app: app.slug, campaign: campaign.key))\n"
                    pages.append(
                        Page(path: Board.campaignPath(tenant: tenant.slug, app: app.slug, campaign: campaign.key), digest: SHA256.hex(Array(lines.utf8))) {
                            [tenant, app, campaign] context in CampaignPage.render(campaign, app: app, tenant: tenant, context: context)
                        })
                }
                pages.append(
                    Page(path: Board.appPath(tenant: tenant.slug, app: app.slug), digest: SHA256.hex(Array(appLines.utf8))) {
                        [tenant, app] context in AppPage.render(app, tenant: tenant, context: context)
                    })
            }
        }
        context.changes = BoardChanges.between(previous, campaignDigests)
        self.context = context
        self.pages = pages
        var recorded: [String: String] = [:]
        for page in pages { if let digest = page.digest { recorded[page.path] = digest } }
        var memory = BoardMemory(renderer: renderer, made: When.text(context.timelineMoment), pages: recorded, campaigns: campaignDigests)
        memory.input = Self.inputDigest(input, renderer: renderer)
        self.memory = memory
        if let previous, previous.renderer == renderer, !renderer.isEmpty {
            reusable = pages.compactMap { page in page.digest != nil && previous.pages[page.path] == page.digest ? page.path : nil }
        } else {
            reusable = []
        }
    }

    /// The digest of everything the board shows, made from its input alone (nothing compiled
    /// or rendered): the tenants' campaigns as their campaigns-file text, the moment as the
    /// pages show it, the window, the daily counts (or their fingerprint, when the input has
    /// one: then the counts need not be read to make it), the approvals and the publish runs.
    public static func inputDigest(_ input: BoardInput, renderer: String) -> String {
        var text = "board \(Board.layoutVersion) \(renderer)\n"
        let moment = BoardContext.now(input)
        text += "\(input.atIsExplicit) \(Timestamp.format(moment)) \(input.since) \(input.until) \(input.siteBaseURL?.rawValue ?? "-") \(input.scope ?? "-")\n"
        for tenant in input.tenants.sorted(by: { $0.slug < $1.slug }) {
            text += "tenant \(tenant.slug) \(tenant.name.utf8.count) \(tenant.name)\n"
            for app in tenant.apps.sorted(by: { $0.slug < $1.slug }) {
                text += CampaignsDocument.yaml(of: app)
                text += "\(app.publishesLocalNotifications)\n"
                for campaign in app.campaigns { text += CampaignsDocument.yaml(of: campaign) }
            }
        }
        if let fingerprint = input.dailyFingerprint {
            text += "daily fingerprint\n"
            text += fingerprint
        }
        text.reserveCapacity(text.utf8.count + input.daily.count * 48)
        for count in input.dailyFingerprint == nil ? input.daily : [] {
            text += count.tenant
            text += " "
            text += count.app
            text += " "
            text += count.campaign
            text += " "
            text += count.day
            text += " "
            text += count.event
            text += " "
            text += String(count.events)
            text += "\n"
        }
        for (key, approval) in input.approvals.sorted(by: { $0.key < $1.key }) {
            text += "approval \(key) \(approval)\n"
        }
        for run in input.runs { text += "run \(run)\n" }
        return SHA256.hex(Array(text.utf8))
    }

    /// Every file of the board, sorted by path: `kept` holds the bytes of reusable pages as
    /// they are on disk (a page missing there is rendered); every other page is rendered.
    public func files(kept: [String: [UInt8]]) -> [SiteFile] {
        let reusable = Set(reusable)
        let slots = ConcurrentSlots<SiteFile>(count: pages.count)
        let pages = pages
        let context = context
        DispatchQueue.concurrentPerform(iterations: pages.count) { index in
            let page = pages[index]
            guard let path = SitePath(relative: page.path) else { return }
            if reusable.contains(page.path), let bytes = kept[page.path] {
                slots[index] = SiteFile(path: path, bytes: bytes)
            } else {
                slots[index] = SiteFile(path: path, bytes: Array(page.render(context).raw.utf8))
            }
        }
        var files = slots.values
        if let stylesheet = SitePath(relative: Board.stylesheetPath) {
            files.append(SiteFile(path: stylesheet, bytes: Array(Layout.stylesheet.utf8)))
        }
        if let inputs = SitePath(relative: BoardMemory.path), !memory.renderer.isEmpty {
            files.append(SiteFile(path: inputs, bytes: memory.serialized()))
        }
        return files.sorted { $0.path < $1.path }
    }
}

extension DaySeries {
    /// The counts, as text, for a page's digest.
    var digestText: String {
        var text = "\(days.first ?? "") \(days.count)\n"
        for values in [delivered, impressions, clicks, dismissals] {
            for value in values {
                text += String(value)
                text += " "
            }
            text += "\n"
        }
        return text
    }
}

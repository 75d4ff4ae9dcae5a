import Foundation
import HeraldCore
import HeraldJobs
import HeraldPublish
import HeraldStore
import HeraldTestSupport
import Testing

/// Campaigns changed one at a time through the application layer: one load, the change, one
/// write, and the campaign before and after with every changed field in one vocabulary.
@Suite struct CampaignEditingTests {
    static func editing(_ database: HeraldDatabase) throws -> CampaignEditing {
        CampaignEditing(database, tenant: try Slug("acme"), app: try Slug("weather"), now: { JobFixtures.june2026 })
    }

    @Test func anEditSaysWhatChangedAndWritesOnlyThat() throws {
        try JobFixtures.withExample { database, _ in
            let editing = try Self.editing(database)
            let de = try LocaleTag("de")
            let before = try auditRows(database)
            let edit = try editing.edit(try Slug("welcome")) { spec, app in
                #expect(app.slug.rawValue == "weather")
                guard case .alert(var alert)? = spec.content[de] else { return }
                alert.title = "Hallo"
                spec.content[de] = .alert(alert)
                spec.name = "Welcome back"
            }
            #expect(edit.changes.map(\.field) == ["name", "title"])
            #expect(edit.changes.last?.locale == de && edit.changes.last?.new == .text("Hallo"))
            #expect(edit.before.name == "Welcome" && edit.after.name == "Welcome back")
            #expect(edit.after.messageKey == edit.before.messageKey)
            // What is stored is what the edit says: read back.
            #expect(try editing.find(try Slug("welcome")).campaign.spec == edit.after)
            // The campaigns row and the de content were rewritten, nothing else (the audit shows
            // the content's delete and insert as one update).
            let written = try auditRows(database) - before
            #expect(written == 2, "an update of the campaign and one of its de content")

            // An edit that changes nothing writes nothing.
            let noChange = try editing.edit(try Slug("welcome")) { _, _ in }
            #expect(noChange.changes.isEmpty && noChange.after == noChange.before)
            #expect(try auditRows(database) - before == 2)
        }
    }

    /// `herald audit --limit 1` right after a content edit: the newest change is the content's
    /// update (old and new text), not a bare insert cut from the delete it pairs with.
    @Test func theNewestChangeKeepsItsPairAtAnyLimit() throws {
        try JobFixtures.withExample { database, _ in
            let editing = try Self.editing(database)
            let de = try LocaleTag("de")
            _ = try editing.edit(try Slug("welcome")) { spec, _ in
                guard case .alert(var alert)? = spec.content[de] else { return }
                alert.title = "Hallo"
                spec.content[de] = .alert(alert)
            }
            let audit = AuditJob(database)
            let newest = try audit.changes(tenant: try Slug("acme"), AuditFilter(limit: 1))
            #expect(newest.count == 1)
            #expect(newest.first?.action == "update", "\(newest)")
            #expect(newest.first?.before?.contains("Hallo") == false && newest.first?.after?.contains("Hallo") == true)
            // The same change is the last of a longer listing.
            let longer = try audit.changes(tenant: try Slug("acme"), AuditFilter(limit: 5))
            #expect(longer.count == 5 && longer.last == newest.first)
        }
    }

    @Test func anArchivedCampaignComesBackOnlyWhenForced() throws {
        try JobFixtures.withExample { database, _ in
            let editing = try Self.editing(database)
            let key = try Slug("welcome")
            #expect(try editing.setStatus(key, .archived).after.status == .archived)
            #expect {
                try editing.setStatus(key, .active)
            } throws: { error in
                (error as? JobError)?.kind == .usage && "\(error)".contains("Pass --force")
            }
            #expect(try editing.setStatus(key, .active, force: true).after.status == .active)
        }
    }

    @Test func aNewAlertGetsItsMessageKeyAndTheRulesOfApply() throws {
        try JobFixtures.withExample { database, _ in
            let editing = try Self.editing(database)
            let (app, created) = try editing.create { app in
                CampaignSpec(
                    key: try Slug("fresh"), kind: .alert, name: "Fresh",
                    content: [app.defaultLocale: .alert(AlertContent(title: "New", message: "Here"))])
            }
            #expect(app.slug.rawValue == "weather")
            #expect(created.messageKey?.rawValue == "2026/06/01" || created.messageKey?.rawValue.hasPrefix("2026/06/01-") == true)
            // Content in a locale the app does not support: refused in the words apply uses.
            #expect {
                _ = try editing.create { _ in
                    CampaignSpec(
                        key: try Slug("elsewhere"), kind: .alert, name: "Elsewhere",
                        content: [try LocaleTag("fr"): .alert(AlertContent(title: "Salut", message: "Ici"))])
                }
            } throws: { error in
                guard case StoreError.invalid(let problems)? = error as? StoreError else { return false }
                return problems.contains { $0.contains("which app weather does not support") }
            }
        }
    }

    private func auditRows(_ database: HeraldDatabase) throws -> Int {
        try AuditJob(database).changes(tenant: try Slug("acme"), AuditFilter(limit: 100_000)).count
    }
}

/// `apply` as a use case: the login's scope, the apply turn, and a dry run as a value.
@Suite struct ApplyJobTests {
    @Test func aDryRunReturnsThePlanAndWritesNothing() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let database = try HeraldDatabase(configuration: configuration, actor: JobFixtures.actor)
            guard case .success(let document) = CampaignsDocument.parse(
                try String(contentsOf: JobFixtures.exampleURL, encoding: .utf8), fileName: "campaigns.yaml")
            else { throw StoreError.invalid(["the example does not parse"]) }
            let before = try HeraldFixtures.fingerprint(configuration)
            let planned = try ApplyJob(database).apply(document, source: "campaigns.yaml", dryRun: true, now: JobFixtures.june2026)
            #expect(!planned.isEmpty)
            #expect(try HeraldFixtures.fingerprint(configuration) == before)
            let applied = try ApplyJob(database).apply(document, source: "campaigns.yaml", now: JobFixtures.june2026)
            #expect(applied == planned)
            #expect(try HeraldFixtures.fingerprint(configuration) != before)
            #expect(try ApplyJob(database).apply(document, source: "campaigns.yaml", dryRun: true).isEmpty)
        }
    }
}

/// `herald preview` decides from the files publish wrote or from the site compiled in
/// memory: the two are the same files.
@Suite struct PreviewJobTests {
    @Test func aPublishedFolderAndTheCompiledSiteGiveTheSameFiles() throws {
        try JobFixtures.withExample { database, root in
            _ = try PublishJob(database: database, out: root).publish(
                at: JobFixtures.june2026, tenant: nil, app: nil, siteBaseURL: nil, dryRun: false)
            let (tenant, app) = (try Slug("acme"), try Slug("weather"))
            var device = DeviceState(appVersion: "2.3.1", osVersion: "17.4", wifi: true)
            device.firstLaunch = false
            for locale in try ["en", "de", "pt-BR"].map({ try LocaleTag($0) }) {
                let published = try PreviewJob.published(in: root, tenant: tenant, app: app, locale: locale)
                #expect(published.storyKeys.isEmpty == false || locale.rawValue == "pt-BR")
                let job = PreviewJob(database)
                let fromFolder = try job.preview(tenant: tenant, app: app, locale: locale, device: device, at: JobFixtures.june2026, from: .folder(root))
                let compiled = try job.preview(
                    tenant: tenant, app: app, locale: locale, device: device, at: JobFixtures.june2026, from: .compiled(siteBaseURL: nil))
                #expect(fromFolder == compiled, "\(locale)")
            }
        }
    }
}

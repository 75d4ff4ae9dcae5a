import Foundation
import HeraldCore
import HeraldTestSupport
import PostgresClient
import Testing

@testable import HeraldStore

/// Campaigns changed one at a time (the CLI's `campaign create`, `update`, `condition`,
/// `activate`, ...) go through apply's planner and writer. Tested against the row-by-row
/// writer they used before (`ReferenceCampaignWriter`), on two databases given the same
/// changes: the same rows, the same audit rows, the same changed parts.
@Suite struct OneWritePathTests {
    static let now = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z

    /// One change after another, each applied to a campaign of the example as both writers would.
    static var edits: [(String, Slug, (inout CampaignSpec) throws -> Void)] { [
        ("rename", try! Slug("welcome"), { $0.name = "Hello again" }),
        ("a translated title", try! Slug("welcome"), { spec in
            guard case .alert(var alert)? = spec.content[try LocaleTag("de")] else { return }
            alert.title = "Hallo"
            spec.content[try LocaleTag("de")] = .alert(alert)
        }),
        ("a locale's content removed", try! Slug("welcome"), { spec in spec.content[try LocaleTag("de")] = nil }),
        ("a condition added and one removed", try! Slug("welcome"), { spec in
            spec.conditions.set(try Condition.parse(group: .all, assignment: "maxAppVersion=9.0", kind: .alert))
            _ = spec.conditions.remove(group: .all, type: .minAppVersion)
        }),
        ("the schedule", try! Slug("welcome"), { $0.endsAt = Date(timeIntervalSince1970: 1_800_000_000) }),
        ("a new message key", try! Slug("welcome"), { $0.messageKey = try MessageKey("2026/06/02") }),
        ("paused", try! Slug("welcome"), { $0.status = .paused }),
        ("nothing at all", try! Slug("welcome"), { _ in }),
        ("archived", try! Slug("welcome"), { $0.status = .archived }),
    ] }

    @Test func campaignsChangedOneAtATimeWriteWhatTheRowByRowWriterWrote() throws {
        try HeraldFixtures.withMigratedDatabase { newConfiguration in
            try HeraldFixtures.withMigratedDatabase { referenceConfiguration in
                let tenant = try Slug("acme")
                let new = try HeraldDatabase(configuration: newConfiguration, actor: "one-path")
                let reference = try HeraldDatabase(configuration: referenceConfiguration, actor: "one-path")
                let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")
                guard case .success(let document) = CampaignsDocument.parse(try String(contentsOf: example, encoding: .utf8), fileName: "x")
                else { throw StoreError.invalid(["examples/campaigns.yaml does not parse"]) }
                for database in [new, reference] {
                    _ = try database.transaction { try CampaignsApplier(now: Self.now).apply(document, in: $0) }
                }
                // A new campaign, then each edit.
                let created = CampaignSpec(
                    key: try Slug("fresh"), kind: .alert, name: "Fresh",
                    content: [try LocaleTag("en"): .alert(AlertContent(title: "New", message: "Here"))])
                try new.inTenant(tenant) { session in
                    let app = try session.apps.find(try Slug("weather"))
                    let stored = try session.campaigns.write(created, over: nil, in: app, now: Self.now).stored
                    #expect(stored.messageKey?.rawValue == "2026/06/01")
                }
                try reference.inTenant(tenant) { session in
                    try ReferenceCampaignWriter(session: session, now: Self.now).create(created, in: try session.apps.find(try Slug("weather")))
                }
                try expectSame(newConfiguration, referenceConfiguration, tenant: tenant, "after a create")
                for (name, key, edit) in Self.edits {
                    let parts = try new.inTenant(tenant) { session in
                        let app = try session.apps.find(try Slug("weather"))
                        let current = try session.campaigns.find(key, in: app)
                        var spec = current.spec
                        try edit(&spec)
                        return CampaignDifference.parts(try session.campaigns.write(spec, over: current, in: app, now: Self.now).changes)
                    }
                    let referenceParts = try reference.inTenant(tenant) { session in
                        let app = try session.apps.find(try Slug("weather"))
                        var spec = try session.campaigns.find(key, in: app).spec
                        try edit(&spec)
                        return try ReferenceCampaignWriter(session: session, now: Self.now).save(spec, in: app)
                    }
                    #expect(parts == referenceParts, "\(name)")
                    try expectSame(newConfiguration, referenceConfiguration, tenant: tenant, name)
                }
            }
        }
    }

    private func expectSame(
        _ new: ConnectionConfiguration, _ reference: ConnectionConfiguration, tenant: Slug, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        func export(_ configuration: ConnectionConfiguration) throws -> String {
            let database = try HeraldDatabase(configuration: configuration, actor: "one-path")
            return CampaignsDocument(tenants: [try database.inTenant(tenant, readOnly: true) { try $0.spec() }]).yaml()
        }
        #expect(try export(new) == export(reference), "\(context)", sourceLocation: sourceLocation)
        let newAudit = try AuditRows.normalized(new, tenant: tenant)
        let referenceAudit = try AuditRows.normalized(reference, tenant: tenant)
        #expect(
            newAudit.subtracting(referenceAudit).isEmpty && referenceAudit.subtracting(newAudit).isEmpty,
            "\(context): extra \(newAudit.subtracting(referenceAudit)) missing \(referenceAudit.subtracting(newAudit))",
            sourceLocation: sourceLocation)
    }

    /// No product code but apply's writer writes a campaign's rows: the statements that
    /// insert, update or delete them appear in its statements alone (migrations aside: the
    /// schema; and the large-site fixture of tests and benchmarks, which bulk-loads rows).
    @Test func noCampaignRowIsWrittenButByApplysWriter() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tables = "campaigns|campaign_conditions|alert_message_keys|banner_contents|banner_views|alert_contents|story_contents|story_pages"
        let write = try Regex("(?i)(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(\(tables))\\b")
        var writers: Set<String> = []
        for folder in ["Sources", "queries"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in files where path.hasSuffix(".swift") || path.hasSuffix(".sql") {
                if path.hasPrefix("HeraldTestSupport/") || path.hasPrefix("HeraldBenchmark/") { continue }
                let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                if text.contains(write) { writers.insert("\(folder)/\(path)") }
            }
        }
        #expect(writers == ["queries/apply.sql"], "\(writers.sorted())")
    }
}

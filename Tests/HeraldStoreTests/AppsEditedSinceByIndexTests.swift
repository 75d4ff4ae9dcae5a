import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

/// A publish after an edit learns which apps changed from the audit log (`apps-edited-since`):
/// each changed content row is mapped to its campaign's app by a seek on the campaign's id,
/// as Herald's operator (under row security), never by reading every campaign of the tenant.
@Suite struct AppsEditedSinceByIndexTests {
    @Test func eachChangedRowFindsItsCampaignByIndex() throws {
        try HeraldFixtures.withMigratedDatabase { configuration in
            let admin = try Connection(configuration: configuration)
            try LargeSiteFixture.populate(admin, apps: 20, campaignsPerApp: 40)
            try admin.execute("ANALYZE")
            let snapshot: String = try admin.query("SELECT pg_current_snapshot()::text AS s")[0].decode("s")
            // Two alerts' German titles, in two apps, as an operator's edit writes them (audited).
            let database = try HeraldDatabase(configuration: configuration, actor: "plan-test")
            try database.asOperator { session in
                for app in ["app-3", "app-17"] {
                    try session.connection.execute(
                        """
                        UPDATE alert_contents SET title = title || ' (edited)' WHERE locale = 'de' AND campaign_id =
                            (SELECT c.id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.slug = $1 AND c.key = 'c-4')
                        """, [app])
                }
            }
            let expected = Set(try admin.query("SELECT id FROM apps WHERE slug IN ('app-3', 'app-17')").map { try $0.decode("id", as: Int64.self) })
            let found = try database.asOperator(readOnly: true) { session in
                Set(try session.connection.query(AppsEditedSince(snapshot: snapshot)).map { try $0.decode("app_id", as: Int64.self) })
            }
            #expect(found == expected)

            let plan = try database.asOperator(readOnly: true) { session in
                let compiled = try Query.appsEditedSince.compiled
                let values = try AppsEditedSince(snapshot: snapshot).values(for: compiled, of: .appsEditedSince)
                return try session.connection.query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) \(UnsafeSQL(compiled.sql.text))", values)
                    .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
            }
            let executed = PlanCounts.executed(plan)
            #expect(executed.contains("Index Only Scan using campaigns_id_with_app_idx on campaigns"), "\(plan)")
            // No node counts anything near the tenant's 800 campaigns: a handful of audit rows, one campaign each.
            #expect(PlanCounts(plan).above(50).isEmpty, "\(PlanCounts(plan).above(50))\n\(plan)")
        }
    }
}

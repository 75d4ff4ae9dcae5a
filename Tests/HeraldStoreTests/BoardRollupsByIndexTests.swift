import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestSupport
import PostgresClient
import Testing

extension ReportingByIndexTests {
    /// The board's charts read the tenant's own daily rollups through the index that leads with
    /// the tenant and the day: no scan of another tenant's rows (two tenants beside Acme hold
    /// hundreds), the same totals as the rollups hold for Acme.
    @Test func theBoardReadsItsOwnTenantsRollupsByIndex() throws {
        try withThreeTenants { setup in
            let operatorRole = "acme_ops_\(UInt32.random(in: 0...UInt32.max))"
            try setup.database.asOperator { session in
                _ = try session.operatorAccess.grant(role: operatorRole, tenant: try Slug("acme"), password: nil)
            }
            let acme: Int64 = try setup.admin.query("SELECT id FROM tenants WHERE slug = 'acme'")[0].decode("id")
            let stored: Int64 = try setup.admin.query(
                "SELECT sum(delivered + impressions + clicks + dismissals)::bigint AS n FROM campaign_daily_rollup WHERE tenant_id = $1", [acme]
            )[0].decode("n")
            let days = try setup.database.inTenant(try Slug("acme"), readOnly: true) { session in
                try session.campaignDays(app: nil, since: "2026-11-01", until: "2026-11-30")
            }
            #expect(Int64(days.reduce(0) { $0 + $1.delivered + $1.impressions + $1.clicks + $1.dismissals }) == stored)
            #expect(Set(days.map(\.campaign)).isSubset(of: ["spring", "hello", "tour"]) && !days.isEmpty, "\(days)")
            // The fingerprint the board reads first counts the same rows, campaign by campaign.
            let fingerprint = try setup.database.inTenant(try Slug("acme"), readOnly: true) { session in
                try session.campaignDaysFingerprint(app: nil, since: "2026-11-01", until: "2026-11-30")
            }
            #expect(Set(fingerprint.map(\.campaign)) == Set(days.map(\.campaign)))
            #expect(fingerprint.reduce(0) { $0 + $1.delivered + $1.impressions + $1.clicks + $1.dismissals } == stored)

            // As Acme's own login, as the board reads it (inside the tenant's session).
            let connection = try setup.connect(operatorRole)
            try connection.execute("SET ROLE herald_tenant")
            // The fingerprint the board reads first, and the rows it reads when it will render.
            let reads: [(Query, any QueryParameters)] = [
                (.boardDailyFingerprint, BoardDailyWindow(tenantID: acme, app: nil, since: "2026-11-01", until: "2026-11-30")),
                (.boardDaily, BoardDailyWindow(tenantID: acme, app: nil, since: "2026-11-01", until: "2026-11-30")),
            ]
            for when in ["before ANALYZE", "after ANALYZE"] {
                if when == "after ANALYZE" { try setup.admin.execute("ANALYZE") }
                for (query, statement) in reads {
                    let compiled = try query.compiled
                    let values = try statement.values(for: compiled, of: query)
                    let plan = try connection.query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) \(UnsafeSQL(compiled.sql.text))", values)
                        .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
                    let executed = PlanCounts.executed(plan)
                    // The rollups are read by an index (the tenant's and day's, or each of its campaigns'),
                    // and no node of the plan counts more rows than Acme has: other tenants' rows are never read.
                    #expect(!executed.contains("Seq Scan on campaign_daily_rollup"), "\(query) \(when):\n\(plan)")
                    let indexed = #"Index (Only )?Scan (using campaign_daily_rollup_\w+ on campaign_daily_rollup|on campaign_daily_rollup_\w+)"#
                    #expect(executed.range(of: indexed, options: .regularExpression) != nil, "\(query) \(when):\n\(plan)")
                    let counted = PlanCounts(plan).above(Self.ownBound)
                    #expect(counted.isEmpty, "\(query) \(when): \(counted)\n\(plan)")
                }
            }
        }
    }
}

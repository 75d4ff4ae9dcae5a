import Foundation
import PostgresClient
import Testing

@testable import HeraldStore

/// Named parameters: `:name` in queries/*.sql becomes `$1…$n`, shared statements go in front,
/// and a struct's properties are bound by name, every one of them and nothing else.
@Suite struct StatementTests {
    @Test func namesBecomeNumbersInTheOrderTheyFirstAppearOutsideQuotesAndComments() throws {
        let compiled = try CompiledQuery.numbered(
            #"""
            SELECT :b::text, x::int, :a, ':no' || "col:no" || E'\':no' || 'it''s :no', -- :no
                   /* :no /* :no */ :no */ $$ :no $$, $tag$ :no $tag$, f(:a), :a_2, col$1
            FROM t WHERE y = :b
            """#, statement: "sample")
        #expect(compiled.names == ["b", "a", "a_2"])
        #expect(
            compiled.text == #"""
                SELECT $1::text, x::int, $2, ':no' || "col:no" || E'\':no' || 'it''s :no', -- :no
                       /* :no /* :no */ :no */ $$ :no $$, $tag$ :no $tag$, f($2), $3, col$1
                FROM t WHERE y = $1
                """#)
    }

    @Test func aStatementNamesItsParametersOrNumbersThemButNotBoth() throws {
        #expect(try CompiledQuery.numbered("SELECT $1::int + $2", statement: "numbered").names == [])
        let error = #expect(throws: PostgresError.self) { try CompiledQuery.numbered("SELECT $1::int + :two", statement: "mixed") }
        #expect(error?.message == "statement mixed of queries/*.sql uses both $1…$n and :names (two): name every parameter")
    }

    @Test func sharedStatementsGoInFrontNotMaterializedWithTheirParametersFirst() throws {
        let texts = [
            "picked-rows": "-- The rows picked.\nSELECT * FROM t WHERE a = :a",
            "nested": "-- with: picked-rows\nSELECT * FROM picked_rows",
        ]
        let compiled = try CompiledQuery(
            name: "uses", text: "-- Why.\n-- with: picked-rows\nSELECT * FROM picked_rows WHERE b = :b OR a = :a"
        ) { texts[$0] }
        #expect(
            compiled.sql.text == """
                WITH picked_rows AS NOT MATERIALIZED (
                -- The rows picked.
                SELECT * FROM t WHERE a = $1
                )
                -- Why.
                -- with: picked-rows
                SELECT * FROM picked_rows WHERE b = $2 OR a = $1
                """)
        #expect(compiled.parameters == ["a", "b"])

        func mistake(_ text: String) -> String? {
            do {
                _ = try CompiledQuery(name: "bad", text: text) { texts[$0] }
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(mistake("-- with: missing\nSELECT 1") == "statement bad of queries/*.sql says \"-- with: missing\", which is no statement of queries/*.sql")
        #expect(
            mistake("-- with: nested\nSELECT 1")
                == "statement bad of queries/*.sql says \"-- with: nested\", which has \"-- with:\" lines itself: name those in bad")
        #expect(
            mistake("-- with: picked-rows\nWITH x AS (SELECT 1) SELECT * FROM x, picked_rows")
                == "statement bad of queries/*.sql has a WITH of its own and a \"-- with:\" line: write the shared statement into its WITH")
        // Only the comments a statement starts with can name shared statements.
        #expect(mistake("SELECT 1\n-- with: missing") == nil)
    }

    @Test func propertiesBecomeParametersInSnakeCase() {
        #expect(SnapshotApps.parameterName("tenantIDs") == "tenant_ids")
        #expect(SnapshotApps.parameterName("baseURL") == "base_url")
        #expect(SnapshotApps.parameterName("previousAt") == "previous_at")
        #expect(SnapshotApps.parameterName("id") == "id")
        #expect(SnapshotApps.parameterName("file2Name") == "file2_name")
    }

    @Test func propertiesAreBoundByNameNilAsNull() throws {
        let values = try SnapshotApps(tenantIDs: [7, 3], app: nil, appIDs: [5]).values(
            for: try Query.snapshotApps.compiled, of: .snapshotApps)
        #expect(values.map(\.postgresText) == [#"{"7","3"}"#, nil, #"{"5"}"#])
        let none = try SnapshotApps(tenantIDs: [], app: "weather", appIDs: nil).values(
            for: try Query.snapshotApps.compiled, of: .snapshotApps)
        #expect(none.map(\.postgresText) == ["{}", "weather", nil])
        let since = try AuditEntries(since: nil, limit: 5).values(for: try Query.auditEntries.compiled, of: .auditEntries)
        #expect(since.map(\.postgresText) == [nil, "5"])
        let tenants = try SnapshotTenants(tenant: "acme").values(for: try Query.snapshotTenants.compiled, of: .snapshotTenants)
        #expect(tenants.map(\.postgresText) == ["acme"])
    }

    @Test func aPropertyTooManyOrTooFewOrOfNoParameterTypeIsRefusedInWords() throws {
        struct Misspelt: Statement {
            static let query = Query.snapshotApps
            let tenantIDs: [Int64]
            let app: String?
            let appsIDs: [Int64]?
        }
        struct Short: Statement {
            static let query = Query.findTenant
        }
        struct OfNoParameterType: Statement {
            static let query = Query.findTenant
            let slug: URL
        }
        #expect(
            refusal(Misspelt(tenantIDs: [], app: nil, appsIDs: nil))
                == "statement snapshot-apps of queries/*.sql takes :tenant_ids, :app, :app_ids; Misspelt gives :app, :apps_ids, :tenant_ids")
        #expect(refusal(Short()) == "statement find-tenant of queries/*.sql takes :slug; Short gives none")
        #expect(
            refusal(OfNoParameterType(slug: URL(fileURLWithPath: "/acme")))
                == "statement find-tenant of queries/*.sql cannot take OfNoParameterType.slug: a URL is not PostgresEncodable")
    }

    /// Every statement of queries/*.sql that names parameters, with the struct the code binds
    /// them from: a misspelt property fails here even on a path no other test runs.
    @Test func everyStatementWithNamedParametersHasAStructThatBindsThemAll() throws {
        func statement<S: Statement>(_ parameters: S) -> (Query, any QueryParameters) { (S.query, parameters) }
        let selection = LoadedCampaigns(apps: EncodedParameter([Int64(1)]), key: nil, activeOnly: true)
        let date = Date(timeIntervalSince1970: 0)
        let samples: [(Query, any QueryParameters)] = [
            (.loadedCampaigns, selection), (.loadCampaigns, selection), (.loadConditions, selection), (.loadBanners, selection),
            (.loadAlerts, selection), (.loadStories, selection), (.loadLocals, selection),
            statement(SnapshotTenants(tenant: nil)), statement(SnapshotApps(tenantIDs: [1], app: nil, appIDs: nil)),
            statement(AppsEditedSince(snapshot: "1:1:")), statement(AppsWithCampaignsStartingOrEnding(previousAt: date, at: date)),
            statement(TryFolderLock(folder: "board")), statement(PublishChannel(tenantID: nil)),
            statement(NextScheduleBoundary(at: date, tenantID: nil)),
            (.lockPublishTenants, LockPublishTenants(tenants: nil)), (.lockPublishTenantsOrFail, LockPublishTenants(tenants: nil)),
            (.lockFreePublishTenants, LockPublishTenants(tenants: nil)),
            statement(
                StartPublishRun(
                    actor: "a", outDir: "/o", publishAt: date, scope: "site", outcome: "running", rollbackOf: nil, baseURL: nil,
                    tenantID: nil)),
            statement(
                FinishPublishRun(
                    id: 1, outcome: "succeeded", filesWritten: 0, filesUnchanged: 0, filesRemoved: 0, manifestDigest: nil,
                    message: nil, sourceSnapshot: nil, sourceCluster: nil)),
            statement(CountPublishRepeat(id: 1, sourceSnapshot: nil, sourceCluster: nil)), statement(LatestPublishRun(outDir: "/o", tenantID: nil)),
            statement(FindPublishRun(id: 1)), statement(PublishHistory(limit: 1)), statement(ChangingRuns(limit: 1)),
            statement(PreviousRunWithManifest(outDir: "/o", runID: 1, tenantID: nil)), statement(KeepsManifest(digest: "d", tenantID: nil)),
            statement(StoredBlobDigests(digests: [])), statement(StoreTenantPublishBlobs(tenantID: 1, digests: [], contents: [])),
            statement(PublishBlobs(digests: [])), statement(TenantPublishBlobs(tenantID: 1, digests: [])),
            statement(PrunePublishRuns(keepNewest: nil, before: nil)), statement(PrunePublishBlobs(needed: [])),
            statement(PruneTenantPublishBlobs(tenantID: 1, needed: [])),
            statement(InsertTenant(slug: "a", name: "A")), statement(FindTenant(slug: "a")),
            statement(RenameTenant(slug: "a", name: "A")),
            (.insertApp, AppRow(try StoreFixtures.app("a"))), statement(FindApp(slug: "a")), (.updateApp, AppRow(try StoreFixtures.app("a"))),
            statement(AuditEntries(since: nil, limit: 1)),
            statement(AuditChanges(since: nil, actor: nil, app: nil, campaign: nil, limit: 1)),
            statement(GrantOperator(role: "r", tenantID: 1, password: nil)), statement(RevokeOperator(role: "r", tenantID: 1)),
            statement(TenantOperators(tenantID: 1)),
            statement(EnterRole(tenantID: "1", role: "herald_tenant")),
            statement(RecordMigration(name: "0001_x.sql", checksum: "c")),
            statement(LocalDatabaseExists(name: "herald")),
            statement(ApplyMessageKeys(appIDs: [])), statement(ApplyInsertApps()), statement(ApplyUpdateApps()),
            statement(ApplyInsertCampaigns()), statement(ApplyUpdateCampaigns()), statement(ApplyInsertMessageKeys()),
            statement(ApplyDeleteConditions()), statement(ApplyUpsertConditions()), statement(ApplyDeleteBannerContents()),
            statement(ApplyDeleteAlertContents()), statement(ApplyDeleteStoryContents()), statement(ApplyInsertBannerContents()),
            statement(ApplyInsertBannerViews()), statement(ApplyInsertAlertContents()), statement(ApplyInsertStoryContents()),
            statement(ApplyInsertStoryPages()), statement(ApplyDeleteLocalContents()), statement(ApplyUpsertLocalNotifications()),
            statement(ApplyInsertLocalContents()),
            statement(CampaignVersionQuery(app: "a", key: "k")), statement(ApproveCampaign(campaignID: 1, version: 1, snapshot: nil)),
            statement(RequireApproval(slug: "a", required: true)), statement(TenantRequiresApproval(tenantID: 1)),
            (.boardDaily, BoardDailyWindow(tenantID: 1, app: nil, since: "2026-01-01", until: "2026-01-31")),
            (.boardDailyFingerprint, BoardDailyWindow(tenantID: 1, app: nil, since: "2026-01-01", until: "2026-01-31")),
            statement(ReportScope(tenant: "acme")),
        ]
        let covered = Set(samples.map(\.0))
        for query in Query.allCases {
            let compiled = try query.compiled
            if !compiled.parameters.isEmpty, !covered.contains(query) {
                Issue.record("\(query.rawValue) names parameters, and no struct here binds them")
            }
        }
        for (query, parameters) in samples {
            #expect(throws: Never.self, "\(query.rawValue)") { _ = try parameters.values(for: try query.compiled, of: query) }
        }
    }

    /// Why binding `statement`'s properties fails, if it does.
    private func refusal<S: Statement>(_ statement: S) -> String? {
        do {
            _ = try statement.values(for: try S.query.compiled, of: S.query)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

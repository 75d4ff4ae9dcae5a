import Foundation
import PostgresClient

/// The statements of the top-level `queries/*.sql`, by the name each one's `-- name:` line
/// gives it: SQL longer than a few lines lives there, where it reads as SQL, and the build
/// plugin embeds it as it does `migrations/`. A test checks that every case names a
/// statement of those files (and every statement has a case), and that each one prepares
/// against the migrated schema.
enum Query: String, CaseIterable, Sendable {
    // apply.sql
    case applyMessageKeys = "apply-message-keys"
    case applyInsertApps = "apply-insert-apps"
    case applyUpdateApps = "apply-update-apps"
    case applyInsertCampaigns = "apply-insert-campaigns"
    case applyUpdateCampaigns = "apply-update-campaigns"
    case applyInsertMessageKeys = "apply-insert-message-keys"
    case applyDeleteConditions = "apply-delete-conditions"
    case applyUpsertConditions = "apply-upsert-conditions"
    case applyDeleteBannerContents = "apply-delete-banner-contents"
    case applyDeleteAlertContents = "apply-delete-alert-contents"
    case applyDeleteStoryContents = "apply-delete-story-contents"
    case applyDeleteLocalContents = "apply-delete-local-contents"
    case applyUpsertLocalNotifications = "apply-upsert-local-notifications"
    case applyInsertLocalContents = "apply-insert-local-contents"
    case applyInsertBannerContents = "apply-insert-banner-contents"
    case applyInsertBannerViews = "apply-insert-banner-views"
    case applyInsertAlertContents = "apply-insert-alert-contents"
    case applyInsertStoryContents = "apply-insert-story-contents"
    case applyInsertStoryPages = "apply-insert-story-pages"
    // events.sql
    case createEventStaging = "create-event-staging"
    case createFreshIDs = "create-fresh-ids"
    case createBatchCampaignTotals = "create-batch-campaign-totals"
    case createBatchDailyTotals = "create-batch-daily-totals"
    case lockEventPartitionsAlone = "lock-event-partitions-alone"
    case lockEventPartitionsShared = "lock-event-partitions-shared"
    case prunedHorizon = "pruned-horizon"
    case insertAllIDs = "insert-all-ids"
    case storeNewIDs = "store-new-ids"
    case unstageStoredIDs = "unstage-stored-ids"
    case storeEvents = "store-events"
    case addToRollups = "add-to-rollups"
    case eventTargets = "event-targets"
    // approvals.sql
    case campaignVersion = "campaign-version"
    case approveCampaign = "approve-campaign"
    case tenantApprovals = "tenant-approvals"
    case requireApproval = "require-approval"
    case tenantRequiresApproval = "tenant-requires-approval"
    // board.sql
    case boardDaily = "board-daily"
    case boardDailyFingerprint = "board-daily-fingerprint"
    // campaigns.sql
    case loadedCampaigns = "loaded-campaigns"
    case loadCampaigns = "load-campaigns"
    case loadConditions = "load-conditions"
    case loadBanners = "load-banners"
    case loadAlerts = "load-alerts"
    case loadStories = "load-stories"
    case loadLocals = "load-locals"
    // publishing.sql
    case snapshotTenants = "snapshot-tenants"
    case snapshotApps = "snapshot-apps"
    case currentSnapshot = "current-snapshot"
    case appsEditedSince = "apps-edited-since"
    case appsWithCampaignsStartingOrEnding = "apps-with-campaigns-starting-or-ending"
    case tryFolderLock = "try-folder-lock"
    case lockPublishTenants = "lock-publish-tenants"
    case lockPublishTenantsOrFail = "lock-publish-tenants-or-fail"
    case lockFreePublishTenants = "lock-free-publish-tenants"
    case publishChannel = "publish-channel"
    case nextScheduleBoundary = "next-schedule-boundary"
    // publish-runs.sql
    case startPublishRun = "start-publish-run"
    case finishPublishRun = "finish-publish-run"
    case countPublishRepeat = "count-publish-repeat"
    case latestPublishRun = "latest-publish-run"
    case publishRun = "publish-run"
    case publishHistory = "publish-history"
    case changingRuns = "changing-runs"
    case previousRunWithManifest = "previous-run-with-manifest"
    case keepsManifest = "keeps-manifest"
    case storedBlobDigests = "stored-blob-digests"
    case copyPublishBlobs = "copy-publish-blobs"
    case storeTenantPublishBlobs = "store-tenant-publish-blobs"
    case publishBlobs = "publish-blobs"
    case tenantPublishBlobs = "tenant-publish-blobs"
    case prunePublishRuns = "prune-publish-runs"
    case keptManifests = "kept-manifests"
    case prunePublishBlobs = "prune-publish-blobs"
    case pruneTenantPublishBlobs = "prune-tenant-publish-blobs"
    case tenantIDs = "tenant-ids"
    // tenants.sql
    case insertTenant = "insert-tenant"
    case listTenants = "list-tenants"
    case findTenant = "find-tenant"
    case renameTenant = "rename-tenant"
    // apps.sql
    case insertApp = "insert-app"
    case listApps = "list-apps"
    case findApp = "find-app"
    case updateApp = "update-app"
    // audit.sql
    case auditEntries = "audit-entries"
    case auditChanges = "audit-changes"
    // access.sql
    case sessionLogin = "session-login"
    case heraldLogin = "herald-login"
    case grantOperator = "grant-operator"
    case revokeOperator = "revoke-operator"
    case tenantOperators = "tenant-operators"
    // session.sql
    case enterRole = "enter-role"
    // migrator.sql
    case createMigrationLedger = "create-migration-ledger"
    case appliedMigrations = "applied-migrations"
    case recordMigration = "record-migration"
    case ensureAccessExists = "ensure-access-exists"
    case ensureAccess = "ensure-access"
    // local-database.sql
    case localDatabaseExists = "local-database-exists"
    case createLocalDatabase = "create-local-database"
    // reporting.sql
    case reportScope = "report-scope"
    case reportCampaigns = "report-campaigns"
    case reportDaily = "report-daily"
    case reportDevice = "report-device"
    case reportingRoles = "reporting-roles"

    /// The statement's text.
    var sql: SQL {
        guard let sql = Self.embedded.statements[rawValue] else {
            // The test of every name fails first: this is a build that skipped it.
            preconditionFailure("no statement \"\(rawValue)\" in queries/*.sql")
        }
        return sql
    }

    /// The statement, prepared once per connection under its name (for statements run per batch).
    var prepared: PreparedStatement {
        PreparedStatement(name: rawValue, sql: sql)
    }

    /// Every file of `queries/` this binary carries, read once.
    static let embedded = NamedStatements(files: embeddedQueryFiles.map { ($0.name, $0.text) })
}

/// Statements in listmonk's (goyesql's) form: each starts at a `-- name: some-name` line
/// and runs to the next one; comment lines before the first name describe the file. The
/// text between is sent as it is (comments included), without its final `;`.
///
/// Every process parses the embedded files once, before its first statement, so this is on
/// every command's path: it finds the name lines in the text's bytes, and makes a string only
/// of each name and each statement (a Substring per line and an array per name line tried
/// took `herald tenant list` a tenth of its CPU time).
struct NamedStatements {
    private(set) var statements: [String: SQL] = [:]
    /// What is wrong with the files, if anything (the tests require none).
    private(set) var problems: [String] = []

    /// `files`: name and text (nil when a file's bytes were not UTF-8: the build plugin refuses
    /// such a file, so only the tests pass nil).
    init(files: [(name: String, text: String?)]) {
        for (file, text) in files {
            guard var text else {
                problems.append("\(file) is not UTF-8")
                continue
            }
            text.makeContiguousUTF8()  // so that its bytes can be read in place
            if text.utf8.withContiguousStorageIfAvailable({ read(file, $0) }) == nil {
                problems.append("\(file) could not be read as bytes")
            }
        }
    }

    /// One file's blocks: `bytes` cut at its name lines.
    private mutating func read(_ file: String, _ bytes: UnsafeBufferPointer<UInt8>) {
        var name: String?
        var bodyStart = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if let named = Self.name(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) {
                finish(file, name, bytes, bodyStart..<lineStart)
                name = named
                bodyStart = min(lineEnd + 1, bytes.count)
            }
            lineStart = lineEnd + 1
        }
        finish(file, name, bytes, bodyStart..<bytes.count)
    }

    /// The block `range` of `bytes`, under `name` (nil: the file's opening comment).
    private mutating func finish(_ file: String, _ name: String?, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let block = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let name else {
            if Self.hasCode(block[...], trimming: false) {
                problems.append("\(file): SQL before the first \"-- name:\" line")
            }
            return
        }
        var body = Self.trimmed(block[...], newlines: true)
        if body.hasSuffix(";") { body.removeLast() }
        let code = Self.hasCode(body, trimming: true)
        if name.isEmpty || !name.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }) {
            problems.append("\(file): \"\(name)\" is not a name (lowercase letters, digits and -)")
        } else if !code {
            problems.append("\(file): \(name) has no statement")
        } else if statements[name] != nil {
            problems.append("\(file): \(name) is named twice")
        } else {
            statements[name] = "\(UnsafeSQL(String(body)))"  // a file this binary carries
        }
    }

    /// Whether a line of `text` is SQL: not empty and, its blanks trimmed when `trimming` (not
    /// newlines), not a `--` comment. Stops at the first such line: only a statement's head of
    /// comment lines is looked at.
    private static func hasCode(_ text: Substring, trimming: Bool) -> Bool {
        var start = text.startIndex
        while true {
            let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            let line = text[start..<end]
            if !line.isEmpty, !(trimming ? trimmed(line, newlines: false) : line).utf8.starts(with: "--".utf8) { return true }
            guard end < text.endIndex else { return false }
            start = text.utf8.index(after: end)
        }
    }

    /// The name a `-- name: some-name` line gives (spaces around `--`, `name` and `:` allowed,
    /// as goyesql does), or nil for any other line: most lines fail at their first byte.
    private static func name(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        var position = 0
        func skipBlanks() {
            while position < line.count, line[position] == UInt8(ascii: " ") || line[position] == UInt8(ascii: "\t") { position += 1 }
        }
        func skip(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard line.count - position >= count, let base = line.baseAddress, memcmp(base + position, word.utf8Start, count) == 0 else {
                return false
            }
            position += count
            return true
        }
        skipBlanks()
        guard skip("--") else { return nil }
        skipBlanks()
        guard skip("name") else { return nil }
        skipBlanks()
        guard skip(":") else { return nil }
        skipBlanks()
        let rest = String(decoding: UnsafeBufferPointer(rebasing: line[position...]), as: UTF8.self)
        return String(trimmed(rest[...], newlines: false))
    }

    /// `text` without the white space (Unicode's) at either end; line breaks too when `newlines`.
    static func trimmed(_ text: Substring, newlines: Bool) -> Substring {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace && (newlines || !"\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}".unicodeScalars.contains(scalar))
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else {
            return text[text.endIndex...]
        }
        return Substring(scalars[first...last])
    }
}

import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import PostgresClient

/// A migrated database holding examples/campaigns.yaml (tenant acme, app weather: a banner,
/// an alert and a story), opened in-process as actor "jobs-test", and a scratch folder.
enum JobFixtures {
    static let actor = "jobs-test"
    /// When the example's campaigns are all live.
    static let june2026 = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01T00:00:00Z

    static let exampleURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/campaigns.yaml")

    static func withExample<T>(_ body: (HeraldDatabase, URL) throws -> T) throws -> T {
        try withExampleDatabase { _, database, root in try body(database, root) }
    }

    /// `withExample`, with the database's configuration (as its superuser: other clients, plain SQL).
    static func withExampleDatabase<T>(_ body: (ConnectionConfiguration, HeraldDatabase, URL) throws -> T) throws -> T {
        try HeraldFixtures.withMigratedDatabase { configuration in
            try withTemporaryDirectory { root in
                let database = try HeraldDatabase(configuration: configuration, actor: actor)
                try apply(try String(contentsOf: exampleURL, encoding: .utf8), to: database)
                return try body(configuration, database, root)
            }
        }
    }

    /// Applies a campaigns file's text, as `herald apply` does.
    static func apply(_ text: String, to database: HeraldDatabase) throws {
        switch CampaignsDocument.parse(text, fileName: "campaigns.yaml") {
        case .success(let document): _ = try database.transaction { try CampaignsApplier().apply(document, in: $0) }
        case .failure(let problems): throw problems
        }
    }

    /// The example with the German welcome alert's title changed.
    static func exampleWithGermanTitle(_ title: String) throws -> String {
        let text = try String(contentsOf: exampleURL, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "de: {title: Willkommen,", with: "de: {title: \(title),")
        precondition(edited != text, "examples/campaigns.yaml no longer has the German welcome title")
        return edited
    }

    /// Every file under `root`, path → bytes, without Herald's own manifest and seal.
    static func files(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard FileManager.default.fileExists(atPath: root.path) else { return files }
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where path != ".herald-manifest" && path != ".herald-seal" {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    static func history(_ database: HeraldDatabase) throws -> [PublishRun] {
        try database.asOperator(readOnly: true) { try $0.publishRuns.history(limit: 100) }
    }
}

import Foundation

extension PublishRunRepository {
    /// The newest run into `outDir` before run `id` that kept a manifest: what run `id`
    /// changed is the difference between that run's manifest and its own (the board's history).
    public func previousWithManifest(before id: Int64, outDir: String) throws -> PublishRun? {
        let rows = try connection.query(
            "SELECT id FROM publish_runs WHERE out_dir = $1 AND id < $2 AND manifest_digest IS NOT NULL ORDER BY id DESC LIMIT 1",
            [outDir, id])
        guard let row = rows.first else { return nil }
        return try run(try row.decode("id"))
    }
}

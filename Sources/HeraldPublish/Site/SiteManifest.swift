import Foundation

/// What Herald has published under an output folder: path → SHA-256 of its bytes. Kept in
/// the folder itself, so Herald removes only files it wrote and never anything else.
public struct SiteManifest: Equatable, Sendable {
    public static let fileName = ".herald-manifest.json"
    public var files: [String: String]
    /// False while a run is writing: a manifest left that way means the run died part-way.
    public var complete: Bool

    public init(files: [String: String] = [:], complete: Bool = true) {
        self.files = files
        self.complete = complete
    }

    public func serialized() -> [UInt8] {
        Array(
            JSONValue.object([
                "complete": .bool(complete), "files": .object(files.mapValues { .string($0) }), "version": .integer(1),
            ]).serialized().utf8)
    }

    public static func parse(_ bytes: [UInt8]) -> SiteManifest? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let files = object["files"] as? [String: String]
        else { return nil }
        return SiteManifest(files: files, complete: object["complete"] as? Bool ?? true)
    }
}

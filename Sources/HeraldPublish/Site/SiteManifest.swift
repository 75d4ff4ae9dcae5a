import Foundation

/// What Herald has published under an output folder: path → SHA-256 of its bytes. Kept in
/// the folder itself, so Herald removes only files it wrote and never anything else.
public struct SiteManifest: Equatable, Sendable {
    public static let fileName = ".herald-manifest.json"
    public var files: [String: String]

    public init(files: [String: String] = [:]) {
        self.files = files
    }

    public func serialized() -> [UInt8] {
        Array(JSONValue.object(["files": .object(files.mapValues { .string($0) }), "version": .integer(1)]).serialized().utf8)
    }

    public static func parse(_ bytes: [UInt8]) -> SiteManifest? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let files = object["files"] as? [String: String]
        else { return nil }
        return SiteManifest(files: files)
    }
}

/// How a run's manifest is kept in the run history: one shard per app folder plus an index
/// of shard digests. Storage is content-addressed, so a run that changed one app stores one
/// small shard and the index, not the whole site's manifest again.
public enum ManifestArchive {
    public struct Packed: Equatable, Sendable {
        /// "<shard sha256> <tenant/app>" lines; its digest names the run's manifest.
        public let index: [UInt8]
        public let indexDigest: String
        /// Shard digest → shard bytes (the manifest format, one app's paths).
        public let shards: [String: [UInt8]]
    }

    public static func pack(_ manifest: SiteManifest) -> Packed {
        var byApp: [String: [String: String]] = [:]
        for (path, digest) in manifest.files {
            byApp[appFolder(of: path), default: [:]][path] = digest
        }
        var index = "herald-manifest-index 1\n"
        var shards: [String: [UInt8]] = [:]
        for (folder, files) in byApp.sorted(by: { $0.key < $1.key }) {
            let bytes = SiteManifest(files: files).serialized()  // shards carry no archive digest
            let digest = SHA256.hex(bytes)
            shards[digest] = bytes
            index += "\(digest) \(folder)\n"
        }
        let indexBytes = Array(index.utf8)
        return Packed(index: indexBytes, indexDigest: SHA256.hex(indexBytes), shards: shards)
    }

    /// `tenant/app` of `tenant/app/locale/...`.
    static func appFolder(of path: String) -> String {
        var slashes = 0
        for index in path.utf8.indices where path.utf8[index] == UInt8(ascii: "/") {
            slashes += 1
            if slashes == 2 { return String(path[..<index]) }
        }
        return path
    }

    /// The shard digests an index names (nil when the bytes are not an index).
    public static func shardDigests(_ index: [UInt8]) -> [String]? {
        let lines = index.split(separator: UInt8(ascii: "\n"))
        guard let header = lines.first, String(decoding: header, as: UTF8.self) == "herald-manifest-index 1" else { return nil }
        return lines.dropFirst().compactMap { line in line.split(separator: UInt8(ascii: " ")).first.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// The whole manifest back from its index and shards.
    public static func unpack(index: [UInt8], shards: [String: [UInt8]]) -> SiteManifest? {
        guard let digests = shardDigests(index) else { return nil }
        var files: [String: String] = [:]
        for digest in digests {
            guard let bytes = shards[digest], let shard = SiteManifest.parse(bytes) else { return nil }
            files.merge(shard.files) { $1 }
        }
        return SiteManifest(files: files)
    }
}

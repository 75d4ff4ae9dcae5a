import Dispatch
import HeraldCore

/// How a run's manifest is kept in the run history: one shard per app folder plus an index
/// of shard digests. Storage is content-addressed, so a run that changed one app stores one
/// small shard and the index, not the whole site's manifest again.
public enum ManifestArchive {
    public struct Packed: Equatable, Sendable {
        /// "<shard sha256> <tenant/app>" lines; its digest names the run's manifest.
        public let index: [UInt8]
        public let indexDigest: String
        /// Shard digest → shard bytes (the manifest format, one app's paths), for the shards
        /// whose digest the manifest did not carry already (those are archived already).
        public let shards: [String: [UInt8]]
        /// The manifest with every app's shard digest filled in.
        public let manifest: SiteManifest
    }

    public static func pack(_ manifest: SiteManifest) -> Packed {
        let folders = manifest.apps.keys.sorted()
        // The shards not archived yet, made on every core (a cold publish makes one per app).
        let made = ConcurrentSlots<(digest: String, bytes: [UInt8])>(count: folders.count)
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            guard let app = manifest.apps[folders[index]], app.shardDigest == nil else { return }
            let bytes = SiteManifest.shardBytes(app.files)
            made[index] = (SHA256.hex(bytes), bytes)
        }
        var index = "herald-manifest-index 1\n"
        var shards: [String: [UInt8]] = [:]
        var filled = manifest
        for (position, folder) in folders.enumerated() {
            let digest: String
            if let shard = made[position] {
                digest = shard.digest
                shards[digest] = shard.bytes
                filled.apps[folder]?.shardDigest = digest
            } else {
                digest = manifest.apps[folder]?.shardDigest ?? ""
            }
            index += "\(digest) \(folder)\n"
        }
        let indexBytes = Array(index.utf8)
        return Packed(index: indexBytes, indexDigest: SHA256.hex(indexBytes), shards: shards, manifest: filled)
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

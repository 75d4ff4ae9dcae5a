import HeraldCore
import HeraldPublish
import Testing

@Suite struct SiteManifestTests {
    @Test func roundTripsAndRefusesOtherFiles() {
        let manifest = SiteManifest(files: ["acme/weather/en/control.json": String(repeating: "a", count: 64), "acme/x/en/y.json": ""], complete: false)
        let bytes = manifest.serialized()
        let digest = String(repeating: "a", count: 64)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "herald-manifest 2 incomplete\n@ - acme/weather\n\(digest) acme/weather/en/control.json\n@ - acme/x\n- acme/x/en/y.json\n")
        #expect(SiteManifest.parse(bytes) == manifest)
        // Version 1 (one flat list, as earlier Herald wrote it) reads as the same files.
        let flat = "herald-manifest 1 incomplete\n\(digest) acme/weather/en/control.json\n- acme/x/en/y.json\n"
        #expect(SiteManifest.parse(Array(flat.utf8)) == manifest)
        // A path filed under another app's group is refused, not misfiled.
        #expect(SiteManifest.parse(Array("herald-manifest 2 complete\n@ - acme/x\n- acme/y/en/z.json\n".utf8)) == nil)
        #expect(SiteManifest.parse(Array("{\"files\": {}}".utf8)) == nil)
        #expect(SiteManifest.parse(Array("herald-manifest 1 complete\n".utf8)) == SiteManifest())
    }

    /// The files a manifest does not list with the same digest at the same path, in order.
    @Test func filesNotListedAreThoseWithAnotherDigestOrNone() throws {
        func file(_ app: String, _ locale: String, _ text: String) throws -> SiteFile {
            SiteFile(path: .controlFile(tenant: try Slug("acme"), app: try Slug(app), locale: try LocaleTag(locale)), bytes: Array(text.utf8))
        }
        let listed = try file("radio", "de", "{}\n")
        let changed = try file("radio", "en", "{\"a\": {}}\n")
        let unlisted = try file("radio", "fr", "{}\n")
        let otherApp = try file("weather", "en", "{}\n")
        let listedAgain = try file("zebra", "en", "{}\n")
        let manifest = SiteManifest(files: [
            listed.path.description: listed.digest, changed.path.description: SHA256.hex(Array("{}\n".utf8)),
            // The same bytes under another path prove nothing about this one's.
            "acme/weather/de/control.json": otherApp.digest, listedAgain.path.description: listedAgain.digest,
        ])
        let files = [listed, changed, unlisted, otherApp, listedAgain]
        #expect(manifest.filesNotListed(files).map(\.path) == [changed, unlisted, otherApp].map(\.path))
        #expect(SiteManifest().filesNotListed(files).map(\.path) == files.map(\.path))
        #expect(manifest.filesNotListed([]).isEmpty)
    }
}

@Suite struct ManifestArchiveTests {
    @Test func manifestsArchiveByAppAndComeBackWhole() {
        let manifest = SiteManifest(files: [
            "acme/weather/en/control.json": String(repeating: "1", count: 64),
            "acme/weather/de/control.json": String(repeating: "2", count: 64),
            "acme/radio/en/control.json": String(repeating: "3", count: 64),
        ])
        let packed = ManifestArchive.pack(manifest)
        #expect(packed.shards.count == 2)
        #expect(ManifestArchive.unpack(index: packed.index, shards: packed.shards) == manifest)
        // Packing fills in every app's shard digest; an edit forgets only that app's.
        var edited = packed.manifest
        #expect(edited.apps.values.allSatisfy { $0.shardDigest != nil })
        edited["acme/weather/en/control.json"] = String(repeating: "4", count: 64)
        #expect(edited.apps["acme/radio"]?.shardDigest != nil)
        #expect(edited.apps["acme/weather"]?.shardDigest == nil)
        let repacked = ManifestArchive.pack(edited)
        // Only weather's shard is new; radio's is named in the index by the digest it had.
        #expect(repacked.shards.count == 1)
        let radioShard = SHA256.hex(SiteManifest.shardBytes(["acme/radio/en/control.json": String(repeating: "3", count: 64)]))
        #expect(ManifestArchive.shardDigests(repacked.index)?.contains(radioShard) == true)
        #expect(repacked.indexDigest != packed.indexDigest)
        // The same manifest packed from scratch names the same index: the reuse changed nothing.
        #expect(ManifestArchive.pack(edited.forgettingShardDigests()).indexDigest == repacked.indexDigest)
    }
}

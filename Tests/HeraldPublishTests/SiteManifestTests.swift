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

    /// An app's lines as read are written out again as they were (a run that changed one app
    /// does not format the others' again); an app whose files changed is written afresh, and the
    /// result is the manifest a fresh one serializes to, byte for byte.
    @Test func linesReadAreWrittenAgainAndAChangedAppsAreMadeAfresh() throws {
        let digest = { (text: String) in SHA256.hex(Array(text.utf8)) }
        var original = SiteManifest(files: [
            "acme/radio/de/control.json": digest("a"), "acme/radio/en/control.json": digest("b"),
            "acme/weather/en/control.json": digest("c"), "acme/weather/en/stories/tour.json": digest("d"),
            "acme/zebra/en/control.json": "",
        ])
        original.apps["acme/radio"]?.shardDigest = digest("shard")
        original.owner = SiteManifest.Owner(installation: "00000000-0000-0000-0000-000000000001", purpose: .site)
        let bytes = original.serialized()
        var read = try #require(SiteManifest.parse(bytes))
        #expect(read.serialized() == bytes)
        read.apps["acme/weather"]?.files["acme/weather/en/stories/sale.json"] = digest("e")
        read.apps["acme/radio"]?.files["acme/radio/de/control.json"] = nil
        var fresh = SiteManifest(apps: read.apps.mapValues { SiteManifest.AppFiles(files: $0.files, shardDigest: $0.shardDigest) })
        fresh.owner = read.owner
        #expect(String(decoding: read.serialized(), as: UTF8.self) == String(decoding: fresh.serialized(), as: UTF8.self))
        // A last line without its newline is not copied as it is (the next app's line would join it).
        var cut = try #require(SiteManifest.parse(Array(bytes.dropLast())))
        cut.apps["acme/aardvark"] = SiteManifest.AppFiles(files: ["acme/aardvark/en/control.json": digest("f")])
        cut.apps["acme/zz"] = SiteManifest.AppFiles(files: ["acme/zz/en/control.json": digest("g")])
        let written = cut.serialized()
        #expect(SiteManifest.parse(written) == cut)
        #expect(written.last == UInt8(ascii: "\n"))
        // Serializing remembers the lines it wrote: written out again, the same bytes.
        var remembering = fresh
        let first = remembering.serializing()
        #expect(remembering.serialized() == first)
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
